/**
 * mode pr on a `merge_group` event, after the run: a group that fails names
 * the pull requests it holds and, for its regressed rows, the one that made
 * each slower (pipeline/history/group-blame.ts bisects the group's commits).
 * The words go to the job summary and lead the check run's summary, on the
 * group's head commit, where the queue waits. A search that cannot run is a
 * warning: the verdict is already decided.
 */
import { join } from 'node:path';
import { InputError } from '../model/index.js';
import { batchBlameMarkdown, type Budgets, type PerfGateConfig, type RunOutcome } from '../pipeline/index.js';
import { blameBatch } from '../pipeline/history/group-blame.js';
import { pullRequestOfSubject, type MergeGroupFacts } from '../github/merge-group.js';
import type { ActionDeps } from './deps.js';
import type { Settings } from './settings.js';

/** The regressed rows of a group searched at most: each costs a bisect over the group's commits. */
export const MAX_ROWS_SEARCHED = 3;

/** The blame of a failing group, in Markdown; null when the group passes or cannot be searched. */
export async function blameMergeGroup(
  settings: Settings,
  group: MergeGroupFacts,
  outcome: RunOutcome,
  project: { config: PerfGateConfig | null; budgets: Budgets },
  deps: ActionDeps,
): Promise<string | null> {
  if (outcome.report.verdict !== 'fail' || !project.config) return null;
  const regressed = outcome.report.rows.filter((r) => r.status === 'regressed');
  const { config, budgets } = project;
  return deps.log.group('perf-gate: which pull request of the merge group made it slower', async () => {
    try {
      const blame = await blameBatch({
        ...deps.run,
        base: group.baseSha,
        head: group.headSha,
        regressed,
        limit: MAX_ROWS_SEARCHED,
        // The queue's own branch names its last pull request, whatever the merge method wrote.
        pullRequestOf: (commit, isHead) => pullRequestOfSubject(commit.subject) ?? (isHead ? group.lastPullRequest : null),
        config,
        budgets,
        outDir: join(settings.outputDir, 'merge-group'),
      });
      const text = batchBlameMarkdown(blame, Math.max(0, regressed.length - MAX_ROWS_SEARCHED));
      await deps.log.appendSummary(text);
      return text;
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      deps.log.warning(`perf-gate: could not tell which pull request of the merge group made it slower (${error.message}); the verdict stands`);
      return null;
    }
  });
}
