/**
 * The run history (store/history/) behind the pipeline's BaselineStore: select()
 * picks the runs of the merge base with the base branch on this testbed (or of
 * a given commit, or of the previous release tag), falling back along the
 * first-parent chain, and says which commit it compared with; record() appends
 * the run. The pipeline sees the same interface as the one-baseline folder.
 */
import { InputError } from '../model/index.js';
import type { BaselineQuery, BaselineStore, ChosenBaseline } from './baseline-store.js';
import { isShallow, selectBaseline, type BaselineFrom, type BaselineSelection, type HistoryStore, type UnreadableFile } from './history/index.js';

export interface HistoryBaselinesOptions {
  history: HistoryStore;
  /** The project's repository: its commit graph decides (it is never written). */
  repo: string;
  /** Where the search starts: the merge base with a branch, a commit (`--base`), or the previous release tag. */
  from: BaselineFrom;
  /** How many first-parent commits back a baseline may be (default 50). */
  maxDistance?: number;
  /** How many runs the between-run drift is learned from (default 20; 0: none). */
  driftWindow?: number;
  /** Fails (InputError) when the history cannot take a run, before a long measurement. */
  checkWritable(): Promise<void>;
  /** Told, in words, why there is no baseline when the history holds none for this run. */
  onNoBaseline?(text: string): void;
}

/** A BaselineStore that chooses from the run history and appends to it. */
export function historyBaselines(options: HistoryBaselinesOptions): BaselineStore {
  const { history } = options;
  return {
    location: history.description,
    checkWritable: () => options.checkWritable(),
    async select(query: BaselineQuery): Promise<ChosenBaseline | undefined> {
      if (!query.testbed) {
        throw new InputError(
          history.description,
          'the testbed of this run is unknown, so no history can be chosen for it (give --testbed, or store the testbed in the results)',
        );
      }
      const selection = await selectBaseline(history, {
        repo: options.repo,
        testbed: query.testbed,
        ...(query.formerTestbed ? { formerTestbed: query.formerTestbed } : {}),
        head: query.commit ?? 'HEAD',
        from: options.from,
        ...(options.maxDistance !== undefined ? { maxDistance: options.maxDistance } : {}),
        ...(options.driftWindow !== undefined ? { driftWindow: options.driftWindow } : {}),
      });
      const skipped = unreadableText(history.unreadable());
      if (!selection.found) {
        // A shallow clone's chain stops at its first commit: the runs of main are there, the commits that find them are not.
        const shallow = selection.searched > 0 && (await isShallow(options.repo).catch(() => false));
        options.onNoBaseline?.(noBaselineText(selection, query.testbed, history.description, shallow) + skipped);
        return undefined;
      }
      return { results: selection.pooled.set, source: selectionText(selection, history.description) + skipped, driftRuns: selection.driftRuns };
    },
    async record(results) {
      const entry = await history.append(results);
      return `${history.description} (${entry.file})`;
    },
  };
}

/** "the run of 1a2b3c4d5e6f (2026-11-20, the merge base with main, 2 commits before it; 3 runs pooled) in .perf-gate/history" */
export function selectionText(selection: Extract<BaselineSelection, { found: true }>, where: string): string {
  const start = selection.start;
  const startText =
    start.kind === 'merge-base'
      ? `the merge base with ${start.base}`
      : start.kind === 'release-tag'
        ? `release ${start.tag}`
        : `--base ${start.commit.slice(0, 12)}`;
  const away = selection.distance === 0 ? startText : `${selection.distance} commit${selection.distance === 1 ? '' : 's'} before ${startText}`;
  const runs = selection.pooled.runs > 1 ? `; ${selection.pooled.runs} runs pooled` : '';
  return `the run of ${selection.commit.slice(0, 12)} (${selection.date.slice(0, 10)}, ${away}${runs}) in ${where}`;
}

/**
 * "; skipped 1 unreadable file: <file> (not a whole gzip file …); perf-gate
 * history verify lists them, history remove <file> removes one": a damaged
 * file never stops the gate, and never goes unmentioned either.
 */
export function unreadableText(files: readonly UnreadableFile[]): string {
  if (files.length === 0) return '';
  const named = files
    .slice(0, 3)
    .map((f) => `${f.file} (${f.problem})`)
    .join(', ');
  const more = files.length > 3 ? ` and ${files.length - 3} more` : '';
  return `; skipped ${files.length} unreadable file${files.length === 1 ? '' : 's'}: ${named}${more}; perf-gate history verify lists them, perf-gate history remove FILE removes one`;
}

/** Why the history gave no baseline, and what that means for the verdict. */
export function noBaselineText(selection: Extract<BaselineSelection, { found: false }>, testbed: string, where: string, shallow = false): string {
  const why =
    selection.reason === 'no-merge-base'
      ? 'this commit has no merge base with the base branch'
      : selection.reason === 'no-previous-tag'
        ? 'there is no earlier release tag'
        : `no run of testbed ${testbed} within ${selection.maxDistance} commits (${selection.searched} looked at)`;
  const fix = shallow ? ' (this checkout is a shallow clone, so the commits that have runs are missing from it: check out with fetch-depth: 0)' : '';
  return `no baseline in ${where}: ${why}${fix}; budgets only`;
}
