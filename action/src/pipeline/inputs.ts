/**
 * Phase 1 of a run: find and read what it starts from — perf-gate.yml, the
 * budgets, results measured elsewhere, and the baseline. The one place that
 * knows the defaults (the config's `budgets:`, `baselines:` and `history:`,
 * the conventional ./budgets folder) for both faces, and which store a run's
 * baseline comes from: the one-baseline folder, or the run history.
 */
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { readInputs, type Adapter } from '../adapters/index.js';
import { validateResultSet } from '../adapters/result-set.js';
import { loadBudgets } from '../config/budgets.js';
import { loadPerfGateConfig, type HistorySetting, type PerfGateConfig } from '../config/perf-gate-config.js';
import type { SkippedFile } from '../gate/types.js';
import { EMPTY_BUDGETS, InputError, type BenchmarkResult, type Budgets, type ResultSet } from '../model/index.js';
import { folderStore, type BaselineQuery, type BaselineStore, type ChosenBaseline } from '../store/index.js';
import { historyBaselines } from '../store/history-baselines.js';
import { folderHistory, git, GitCommandError, gitBranchHistory, resolveCommit, symbolicRef, type BaselineFrom, type GitAuth, type HistoryStore } from '../store/history/index.js';
import { checkSuiteFormats } from './output-parser.js';
import { realpathOrSelf } from './real-path.js';

export type { PerfGateConfig } from '../config/perf-gate-config.js';
export type { Budgets } from '../model/index.js';
export type { BaselineQuery, BaselineStore, ChosenBaseline } from '../store/index.js';

/**
 * Reads perf-gate.yml (InputError naming file and line when it is wrong),
 * including each suite's format, so a misspelt one stops the run before
 * anything builds.
 */
export function readConfig(path: string, cwd: string): PerfGateConfig {
  const config = loadPerfGateConfig(path, cwd);
  checkSuiteFormats(config);
  return config;
}

/** perf-gate.yml when it exists, else null (a run gating given results needs none). */
export function readConfigIfPresent(path: string, cwd: string): PerfGateConfig | null {
  return existsSync(resolve(cwd, path)) ? readConfig(path, cwd) : null;
}

/** The conventional `budgets/` folder of the working directory, when there is one (`compare`'s default). */
export function conventionalBudgets(cwd: string): string | undefined {
  const conventional = resolve(cwd, 'budgets');
  return existsSync(conventional) && statSync(conventional).isDirectory() ? 'budgets' : undefined;
}

/**
 * The budgets of the given paths; with none given, those of `fallback` (the
 * config's `budgets:`, or the conventional folder) when it exists; else no
 * budgets at all, and only the baseline decides.
 */
export function readBudgets(paths: readonly string[] | undefined, fallback: string | undefined, cwd: string): Budgets {
  if (paths && paths.length > 0) return loadBudgets(paths, cwd);
  if (fallback !== undefined && existsSync(resolve(cwd, fallback))) return loadBudgets([fallback], cwd);
  return EMPTY_BUDGETS;
}

export interface ReadOptions {
  cwd: string;
  /** The moment of the run, for ResultSets assembled from several files. */
  created: string;
  /** Harness format of the files (default: detected per file). */
  format?: string | Adapter;
}

/** Harness output files, folders of them, or ResultSets, as one ResultSet. */
export function readResults(paths: readonly string[], options: ReadOptions): ResultSet {
  return readResultFiles(paths, options).results;
}

/** The results of files and folders, and the files inside the folders that were not read as results (for the report). */
export function readResultFiles(paths: readonly string[], options: ReadOptions): { results: ResultSet; skipped: SkippedFile[] } {
  const read = readInputs(paths, options);
  return { results: read.resultSet, skipped: read.skipped };
}

/**
 * A ResultSet someone else wrote (the two-stage artifact), already parsed as
 * JSON, checked strictly against the schema; errors name the file and line.
 */
export function validateResults(data: unknown, file: string, text: string): ResultSet {
  return validateResultSet(data, file, text);
}

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

export interface HistoryStoreRequest {
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

/** The run history as the pipeline's BaselineStore (docs/history.md). */
export function historyStoreAt(request: HistoryStoreRequest): BaselineStore {
  const { location, start } = request;
  const history = openHistoryAt(location, request.repo, request.appends ?? false, request.auth);
  const from: BaselineFrom = 'base' in start ? { commit: start.base } : 'release' in start ? { previousTag: true } : { mergeBaseWith: start.mergeBaseWith };
  return historyBaselines({
    history,
    repo: request.repo,
    from,
    ...(request.driftRuns !== undefined ? { driftWindow: request.driftRuns } : {}),
    ...(request.onNoBaseline ? { onNoBaseline: request.onNoBaseline } : {}),
    checkWritable: () => ('folder' in location ? checkFolderWritable(resolve(request.repo, location.folder)) : checkRemoteReachable(request.repo, location)),
  });
}

async function checkFolderWritable(dir: string): Promise<void> {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new InputError(dir, `the history folder cannot be written: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** A data branch's remote must answer before a long measurement is spent on a run that cannot be stored. */
async function checkRemoteReachable(repo: string, location: { branch: string; remote: string }): Promise<void> {
  try {
    await git(repo, ['ls-remote', '--heads', location.remote, location.branch]);
  } catch (error) {
    const detail = error instanceof GitCommandError ? error.stderr.trim().split('\n')[0] : String(error);
    throw new InputError('history', `the data branch ${location.branch} cannot be written: the remote ${JSON.stringify(location.remote)} of ${repo} does not answer (${detail})`);
  }
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
 * The store a config's runs use: its run history when perf-gate.yml sets
 * `history:` (the baseline chosen from `start`), else its `baselines:` folder.
 */
export function storeOf(config: PerfGateConfig, created: string, history: Omit<HistoryStoreRequest, 'location' | 'repo' | 'driftRuns'>): BaselineStore {
  if (config.history === null) return configuredStore(config, created);
  const driftRuns = config.history.driftRuns;
  return historyStoreAt({ ...history, location: historyLocationOf(config.history), repo: config.dir, ...(driftRuns !== null ? { driftRuns } : {}) });
}

/** The store of the config's `baselines:` folder: today's one-baseline folder of ResultSets. */
export function configuredStore(config: PerfGateConfig, created: string): BaselineStore {
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

/**
 * Refuses to write a store folder that lies inside the repository by its
 * path but outside it in fact, through a symbolic link somewhere between:
 * a link committed to the repository would make the main-branch job write
 * wherever it points. A folder configured outside the repository (an
 * absolute path in perf-gate.yml) is the user's choice and is written.
 */
export function refuseRedirectedFolder(repo: string, folder: string, key: string): void {
  const root = realpathOrSelf(resolve(repo));
  const lexical = resolve(folder);
  if (lexical !== resolve(repo) && !lexical.startsWith(`${resolve(repo)}/`)) return;
  // The nearest part of the path that exists says where writes would land.
  let existing = lexical;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const real = realpathOrSelf(existing);
  if (real === root || real.startsWith(`${root}/`)) return;
  throw new InputError(key, `${lexical} leads outside the repository (to ${real}) through a symbolic link; perf-gate does not write its store through one. Configure the real path in perf-gate.yml if that place is meant`);
}


export interface BaselineRequest {
  /** Paths named on the command line or in an input (harness files or ResultSets); empty means ask the store. */
  paths: readonly string[];
  /**
   * The input that named the paths, blamed when one does not exist
   * ("no such baseline file or folder (<input>)"); absent: the reader's own message.
   */
  input?: string;
  /** Where stored baselines live; null when there is no config. */
  store: BaselineStore | null;
  /** The run about to be gated, so the store can choose. */
  query: BaselineQuery;
  /** Only these suites' benchmarks (a shard's share: the others run elsewhere); null for all. */
  suites: readonly string[] | null;
  read: ReadOptions;
}

/** A chosen baseline, with the files of named folders that were not read as results. */
export type BaselineRead = ChosenBaseline & { skipped?: SkippedFile[] };

/**
 * The baseline of a run: the named paths, else what the store chooses for
 * this commit and testbed; undefined when there is none (then every row is
 * "new" and only the budgets decide).
 */
export async function readBaseline(request: BaselineRequest): Promise<BaselineRead | undefined> {
  let chosen: BaselineRead | undefined;
  if (request.paths.length > 0) {
    if (request.input !== undefined) {
      for (const p of request.paths) if (!existsSync(resolve(request.read.cwd, p))) throw new InputError(p, `no such baseline file or folder (${request.input})`);
    }
    const read = readResultFiles(request.paths, request.read);
    chosen = { results: read.results, source: request.paths.join(', '), skipped: read.skipped };
  } else {
    chosen = await request.store?.select(request.query);
  }
  return chosen && request.suites ? { ...chosen, results: onlySuites(chosen.results, request.suites) } : chosen;
}

/** The benchmarks of the given suites (ids are `<suite>/…`). */
function onlySuites(set: ResultSet, suites: readonly string[]): ResultSet {
  const names = new Set(suites);
  const suiteOf = (b: BenchmarkResult): string => b.suite ?? (b.id.includes('/') ? b.id.slice(0, b.id.indexOf('/')) : b.id);
  return { ...set, benchmarks: set.benchmarks.filter((b) => names.has(suiteOf(b))) };
}
