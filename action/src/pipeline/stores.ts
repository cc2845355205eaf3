/**
 * Which store a run's baseline comes from and its run goes to: the config's
 * one-baseline `baselines:` folder, or its run history (a folder, or a data
 * branch). A face names it as data (StoreAt); openStore, called by the run
 * alone (run.ts), opens it with the checks store/write-policy.ts makes.
 */
import { resolve } from 'node:path';
import { validateResultSet } from '../adapters/result-set.js';
import type { HistorySetting, PerfGateConfig } from '../config/perf-gate-config.js';
import type { ResultSet } from '../model/index.js';
import { checkFolderWritable, checkRemoteReachable, folderStore, refuseRedirectedFolder, type BaselineStore } from '../store/index.js';
import { historyBaselines } from '../store/history-baselines.js';
import { folderHistory, gitBranchHistory, resolveCommit, symbolicRef, type BaselineFrom, type GitAuth, type HistoryStore } from '../store/history/index.js';
import { readResults } from './inputs.js';

/** Where a history store's baseline search starts (see store/history/baseline.ts). */
export type HistoryStart = { base: string } | { release: true } | { mergeBaseWith: string };

/** Where a run history lives: a folder (absolute, or relative to the repository), or a data branch of a git remote. */
export type HistoryLocation = { folder: string } | { branch: string; remote: string };

/** The location perf-gate.yml's `history:` names. */
export function historyLocationOf(setting: HistorySetting): HistoryLocation {
  return setting.branch !== null ? { branch: setting.branch.name, remote: setting.branch.remote } : { folder: setting.folder! };
}

/**
 * The history at a location. A data branch is opened read-only unless this
 * run appends (`appends`): a pull-request job never writes, so it needs no
 * write token. Reads fetch only the branch tip (depth 1).
 */
export function openHistoryAt(location: HistoryLocation, repo: string, appends: boolean, auth?: GitAuth): HistoryStore {
  const validate = (data: unknown, file: string): ResultSet => validateResultSet(data, file);
  if ('folder' in location) {
    if (appends) refuseRedirectedFolder(repo, resolve(repo, location.folder), 'history.folder');
    return folderHistory(resolve(repo, location.folder), validate);
  }
  return gitBranchHistory({ repo, remote: location.remote, branch: location.branch, depth: 1, readOnly: !appends, ...(auth ? { auth } : {}) }, validate);
}

interface HistoryStoreRequest {
  location: HistoryLocation;
  /** The project's repository: the commit graph the baseline is chosen on (and a data branch's local clone). */
  repo: string;
  start: HistoryStart;
  /** This run appends to the history (mode main); otherwise a data branch is only read. */
  appends?: boolean;
  /** Runs the between-run drift is learned from; default 20. */
  driftRuns?: number;
  /** Told, in words, why the history holds no baseline for this run. */
  onNoBaseline?(text: string): void;
  /** A token for a data branch's fetch and push (the action's github-token), never written to .git/config. */
  auth?: GitAuth;
}

/** The run history as the pipeline's BaselineStore (docs/history.md), and the history itself (main's watch reads it). */
function historyStoreAt(request: HistoryStoreRequest): OpenedStore {
  const { location, start } = request;
  const history = openHistoryAt(location, request.repo, request.appends ?? false, request.auth);
  const from: BaselineFrom = 'base' in start ? { commit: start.base } : 'release' in start ? { previousTag: true } : { mergeBaseWith: start.mergeBaseWith };
  const baselines = historyBaselines({
    history,
    repo: request.repo,
    from,
    ...(request.driftRuns !== undefined ? { driftWindow: request.driftRuns } : {}),
    ...(request.onNoBaseline ? { onNoBaseline: request.onNoBaseline } : {}),
    checkWritable: () => ('folder' in location ? checkFolderWritable(resolve(request.repo, location.folder)) : checkRemoteReachable(request.repo, location)),
  });
  return { baselines, history };
}

/**
 * The branch a pull request's baseline is the merge base with: the remote's
 * default branch when git knows it, else the first of origin/main,
 * origin/master, main, master that exists; "HEAD" (the run's own commit) when
 * none does.
 */
export async function defaultBaseBranch(repo: string): Promise<string> {
  const remoteHead = await symbolicRef(repo, 'refs/remotes/origin/HEAD');
  const candidates = [...(remoteHead ? [remoteHead.replace(/^refs\/remotes\//, '')] : []), 'origin/main', 'origin/master', 'main', 'master'];
  for (const ref of candidates) if ((await resolveCommit(repo, ref)) !== undefined) return ref;
  return 'HEAD';
}

/**
 * Where a run's baselines are kept, as data (RunPlan.store): the faces say
 * where, the pipeline opens it (openStore), once for choosing the baseline
 * and, in mode main, recording the run.
 */
export type StoreAt =
  /** A run history: its folder or data branch, in the project's repository `repo`; the baseline search starts at `start`. */
  | { history: HistoryLocation; repo: string; start: HistoryStart; driftRuns?: number; auth?: GitAuth }
  /** The config's one-baseline `baselines:` folder. */
  | { baselines: PerfGateConfig; created: string };

/** Where perf-gate.yml keeps its runs: its `history:`, else its `baselines:` folder. */
export function storeAtOf(config: PerfGateConfig, created: string, history: { start: HistoryStart; auth?: GitAuth }): StoreAt {
  if (config.history === null) return { baselines: config, created };
  const driftRuns = config.history.driftRuns;
  return { history: historyLocationOf(config.history), repo: config.dir, ...history, ...(driftRuns !== null ? { driftRuns } : {}) };
}

/** A store opened for a run: where its baseline comes from and its run goes, and the run history behind it (null: a `baselines:` folder). */
export interface OpenedStore {
  baselines: BaselineStore;
  history: HistoryStore | null;
}

/** The store at `at`, opened for this run: a data branch is written only when the run `appends` (mode main). */
export function openStore(at: StoreAt, how: { appends: boolean; onNoBaseline?(text: string): void }): OpenedStore {
  if ('baselines' in at) return { baselines: configuredStore(at.baselines, at.created), history: null };
  return historyStoreAt({
    location: at.history,
    repo: at.repo,
    start: at.start,
    appends: how.appends,
    ...(at.driftRuns !== undefined ? { driftRuns: at.driftRuns } : {}),
    ...(how.onNoBaseline ? { onNoBaseline: how.onNoBaseline } : {}),
    ...(at.auth ? { auth: at.auth } : {}),
  });
}

/** The store of the config's `baselines:` folder: today's one-baseline folder of ResultSets. */
function configuredStore(config: PerfGateConfig, created: string): BaselineStore {
  const store = folderStore({
    dir: config.baselines,
    read: (paths) => readResults(paths, { cwd: config.baselines, created }),
    configuredIn: { file: config.file, key: 'baselines' },
  });
  const guarded = (): void => refuseRedirectedFolder(config.dir, config.baselines, 'baselines');
  return {
    ...store,
    checkWritable: async () => (guarded(), store.checkWritable()),
    record: async (results, part) => (guarded(), store.record(results, part)),
  };
}
