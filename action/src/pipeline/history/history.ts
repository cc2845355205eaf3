/**
 * The run history for `perf-gate history`: find the history, record a run of a
 * commit on a testbed, find runs by id or commit, tabulate each benchmark's
 * learned drift (`noise`), import another gate's past (github-action-benchmark, Bencher). The history
 * itself lives in store/history/ (docs/history.md); baselines are chosen from
 * it through the store a run plan names (stores.ts openStore).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseBencherPerf, type BencherPerfChoice } from '../../adapters/bencher-perf.js';
import { parseGabHistory } from '../../adapters/gab-history.js';
import type { HistorySetting } from '../../config/perf-gate-config.js';
import { learnDrift, screenSuspectRate, smallestDecidableChange } from '../../gate/index.js';
import { historyFlips } from '../../gate/history-flips.js';
import { InputError, type ResultSet } from '../../model/index.js';
import { headCommit } from '../../runner/worktree.js';
import { DEFAULT_HISTORY_FOLDER, newRunId, storedBenchmarks, type HistoryEntry, type HistoryStore } from '../../store/history/index.js';
import { historyLocationOf, type HistoryLocation } from '../stores.js';
import type { RunDeps } from '../run-deps.js';
import type { NoiseLine } from '../../report/history-text.js';

export {
  DEFAULT_DRIFT_WINDOW,
  DEFAULT_HISTORY_FOLDER,
  parsePath,
  type HistoryEntry,
  type HistoryStore,
  type UnreadableFile,
} from '../../store/history/index.js';

/** The history to use: the --history folder, else perf-gate.yml's `history:` (a folder or a data branch), else .perf-gate/history. */
export function historyLocation(flag: string | undefined, configured: HistorySetting | null | undefined, cwd: string): HistoryLocation {
  if (flag !== undefined) return { folder: resolve(cwd, flag) };
  return configured ? historyLocationOf(configured) : { folder: resolve(cwd, DEFAULT_HISTORY_FOLDER) };
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
export async function recordRun(history: HistoryStore, results: ResultSet, request: RecordRequest): Promise<HistoryEntry & { alreadyRecorded: boolean }> {
  const commit = request.commit ?? results.commit ?? headCommit(request.repo);
  if (!commit) throw new InputError('--commit', `the results name no commit and ${request.repo} is not a git repository; give --commit SHA`);
  const machine = request.deps.testbed(request.env);
  const testbed = request.testbed ?? results.testbed?.id ?? machine?.id;
  if (!testbed) throw new InputError('--testbed', "the results name no testbed and this machine's could not be read; give --testbed ID");
  const full = /^[0-9a-f]{40}$/.test(commit) ? commit : headCommitOf(request.repo, commit);
  // The same results added twice (a retried step, a pasted command) would count twice in every series and pool.
  const same = await identicalRun(history, results, full, testbed);
  if (same !== undefined) return { ...same, alreadyRecorded: true };
  return {
    ...(await history.append({ ...results, ...(results.testbed ? {} : machine ? { testbed: machine } : {}) }, { commit: full, testbed })),
    alreadyRecorded: false,
  };
}

/** A run of `commit` on `testbed` whose benchmarks are exactly these (creation time and machine facts aside). */
async function identicalRun(history: HistoryStore, results: ResultSet, commit: string, testbed: string): Promise<HistoryEntry | undefined> {
  const candidates = (await history.list({ testbed })).filter((e) => e.commit === commit);
  if (candidates.length === 0) return undefined;
  const wanted = JSON.stringify(storedBenchmarks(results));
  const { entries, sets } = await history.readUsable(candidates);
  const at = sets.findIndex((set) => JSON.stringify(set.benchmarks) === wanted);
  return at === -1 ? undefined : entries[at];
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

/**
 * The drift of every benchmark × metric in the newest `runs` runs of a
 * testbed, noisiest first; InputError naming the testbeds the history holds
 * when it has none of this one.
 */
export async function historyNoise(history: HistoryStore, testbed: string, runs: number, tolerance: number): Promise<{ runs: number; rows: NoiseLine[] }> {
  const all = await history.list();
  const mine = all.filter((e) => e.testbed === testbed);
  if (mine.length === 0) {
    const testbeds = [...new Set(all.map((e) => e.testbed))];
    throw new InputError(
      history.description,
      `no runs of testbed ${testbed}${testbeds.length ? `; it holds runs of ${testbeds.join(', ')} (give --testbed)` : ''}`,
    );
  }
  const { sets } = await history.readUsable(mine.slice(-runs));
  const flips = historyFlips(sets);
  const rows = [...learnDrift(sets, { minRuns: 2 })].map(([key, d]) => {
    const [benchmark, metric] = key.split('\u0000') as [string, string];
    const drift = { runs: d.runs, drift: d.drift, smallest: smallestDecidableChange(d.drift), suspectRate: screenSuspectRate(d.drift, tolerance) };
    return { benchmark, metric, ...drift, flips: flips.get(key) ?? null };
  });
  return { runs: sets.length, rows: rows.sort((p, q) => q.drift - p.drift || (p.benchmark < q.benchmark ? -1 : 1)) };
}

export interface ImportRequest {
  /** The testbed the imported runs were measured on (the file does not say). */
  testbed: string;
  /** Prefix for the benchmark ids ("scan" → "scan/<name>"), so they match the suite that measures them now. */
  suite?: string;
  /** Bencher exports: the branch and testbed to read, when the export holds several. */
  bencher?: BencherPerfChoice;
}

export interface ImportOutcome {
  /** The history the file came from, in words. */
  source: string;
  runs: number;
  benchmarks: number;
  /** What the file held that was not imported, and why. */
  skipped: string[];
}

/**
 * Appends every run of another gate's history to this one, oldest first:
 * github-action-benchmark's data.js / data.json (its gh-pages branch) or
 * Bencher's perf export, told apart by content. A run's id is derived from
 * its commit and date, so importing the same file twice adds nothing the
 * second time.
 */
export async function importHistory(history: HistoryStore, path: string, request: ImportRequest): Promise<ImportOutcome> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(path, `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const bencher = isBencherExport(text);
  const { runs, skipped } = bencher ? parseBencherPerf(text, path, request.bencher) : { runs: parseGabHistory(text, path), skipped: [] };
  if (runs.length === 0) {
    throw new InputError(
      path,
      bencher
        ? `holds no run to import${skipped.length > 0 ? ` (${skipped.join('; ')})` : ''}; expected Bencher's perf export with points in "results", or github-action-benchmark's data.js`
        : 'holds no runs; expected "entries" with at least one run',
    );
  }
  const ids = new Set<string>();
  for (const run of runs) {
    const benchmarks = run.set.benchmarks.map((b) => ({ ...b, id: request.suite ? `${request.suite}/${b.id}` : b.id }));
    benchmarks.forEach((b) => ids.add(b.id));
    const digest = createHash('sha256').update(`${run.commit}@${run.created}`).digest();
    await history.append({ ...run.set, benchmarks }, { testbed: request.testbed, commit: run.commit, runId: newRunId(new Date(run.created), () => digest) });
  }
  return { source: bencher ? "Bencher's perf export" : "github-action-benchmark's history", runs: runs.length, benchmarks: ids.size, skipped };
}

/**
 * Bencher's export is a JSON object with "project" and "results";
 * github-action-benchmark's has "entries" (data.json) or is a script
 * (data.js). Told apart by the head of the text, so a truncated export is
 * still read as Bencher's and its error says so.
 */
function isBencherExport(text: string): boolean {
  const head = text.slice(0, 4096);
  return /^\s*\{/.test(head) && /"(?:project|results)"\s*:/.test(head) && !/"entries"\s*:/.test(head);
}
