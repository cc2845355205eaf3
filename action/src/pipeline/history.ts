/**
 * The run history for `perf-gate history`: open a folder, record a run of a
 * commit on a testbed, find runs by id or commit. The history itself lives in
 * store/history/ (docs/history.md); baselines are chosen from it through
 * inputs.ts's historyStoreAt.
 */
import { resolve } from 'node:path';
import { validateResultSet } from '../adapters/result-set.js';
import { InputError, type ResultSet } from '../model/index.js';
import { headCommit } from '../runner/worktree.js';
import { DEFAULT_HISTORY_FOLDER, folderHistory, type HistoryEntry, type HistoryStore } from '../store/history/index.js';
import type { RunDeps } from './run-deps.js';

export { DEFAULT_HISTORY_FOLDER, type HistoryEntry, type HistoryStore } from '../store/history/index.js';

/** The history folder `dir` (relative to `cwd`), read and written as docs/history.md describes. */
export function openHistory(dir: string, cwd: string): HistoryStore {
  return folderHistory(resolve(cwd, dir), (data, file) => validateResultSet(data, file));
}

/** The history folder to use: the flag, else perf-gate.yml's `history:`, else .perf-gate/history. */
export function historyFolder(flag: string | undefined, configured: string | null | undefined): string {
  return flag ?? configured ?? DEFAULT_HISTORY_FOLDER;
}

export interface RecordRequest {
  /** The measured commit; default the results' own, else HEAD of `repo`. */
  commit?: string;
  /** The testbed; default the results' own, else this machine's. */
  testbed?: string;
  repo: string;
  env: NodeJS.ProcessEnv;
  deps: Pick<RunDeps, 'testbed'>;
}

/** Appends a run to the history under its commit and testbed, found as RecordRequest says; InputError when either is unknown. */
export async function recordRun(history: HistoryStore, results: ResultSet, request: RecordRequest): Promise<HistoryEntry> {
  const commit = request.commit ?? results.commit ?? headCommit(request.repo);
  if (!commit) throw new InputError('--commit', `the results name no commit and ${request.repo} is not a git repository; give --commit SHA`);
  const machine = request.deps.testbed(request.env);
  const testbed = request.testbed ?? results.testbed?.id ?? machine?.id;
  if (!testbed) throw new InputError('--testbed', 'the results name no testbed and this machine\'s could not be read; give --testbed ID');
  const full = /^[0-9a-f]{40}$/.test(commit) ? commit : headCommitOf(request.repo, commit);
  return history.append({ ...results, ...(results.testbed ? {} : machine ? { testbed: machine } : {}) }, { commit: full, testbed });
}

/** The full id of a commit-ish in `repo`, for a --commit given short or as a ref. */
function headCommitOf(repo: string, ref: string): string {
  const full = headCommit(repo, ref);
  if (!full) throw new InputError('--commit', `${JSON.stringify(ref)} does not name a commit in ${repo}`);
  return full;
}

/** The runs a word names: a run id exactly, else every run of a commit the word begins (at least 4 hex digits). */
export function runsNamed(entries: readonly HistoryEntry[], word: string): HistoryEntry[] {
  const byId = entries.filter((e) => e.runId === word);
  if (byId.length > 0) return byId;
  return /^[0-9a-f]{4,40}$/.test(word) ? entries.filter((e) => e.commit.startsWith(word)) : [];
}
