import type { HistoryEntry } from './layout.js';
import { firstParentLine, isGitRepository, resolveCommit } from './commit-graph.js';

/** How a testbed's runs were put in order, and why when it was not by commit. */
export type SeriesOrder = { by: 'commit' } | { by: 'time'; why: string };

/**
 * A testbed's runs in the order their commits came into the main line: the
 * first-parent chain of `head`, oldest first, re-runs of one commit in the
 * order they were recorded. A re-run or a backfill of an older commit then
 * falls where its commit is, not at the end of the series. Creation order
 * is the fallback when that order cannot be known (no repository, or runs
 * of commits that are not on the line), and the result says so.
 */
export async function inCommitOrder(
  repo: string | undefined,
  entries: readonly HistoryEntry[],
  head = 'HEAD',
): Promise<{ entries: HistoryEntry[]; order: SeriesOrder }> {
  const byTime = [...entries];
  if (repo === undefined) return { entries: byTime, order: { by: 'time', why: 'no git repository was given' } };
  if (!(await isGitRepository(repo))) return { entries: byTime, order: { by: 'time', why: 'this folder is not in a git repository' } };
  const tip = await resolveCommit(repo, head);
  if (tip === undefined) return { entries: byTime, order: { by: 'time', why: `${head} names no commit here` } };
  const line = await firstParentLine(repo, tip);
  const position = new Map(line.map((c, i) => [c, i]));
  const off = entries.filter((e) => !position.has(e.commit));
  if (off.length > 0) {
    return {
      entries: byTime,
      order: {
        by: 'time',
        why: `${off.length} run(s) measured commits that are not on the first-parent line of ${head} (a shallow clone, or runs of other branches)`,
      },
    };
  }
  const ordered = byTime.sort((a, b) => position.get(a.commit)! - position.get(b.commit)! || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
  return { entries: ordered, order: { by: 'commit' } };
}
