import { InputError, type ResultSet } from '../../model/index.js';
import type { Backend, Snapshot } from './backend.js';
import { refuseUnreadable } from '../result-set-file.js';
import { decodeMonth, decodeRun, encodeRun, monthEntries, type ValidateResultSet } from './codec.js';
import { problemOf, readHeader, verifyFiles, type UnreadableFile } from './verify.js';
import { groupByMonth } from './compact.js';
import { historyRewrites, type CompactedMonth } from './history-rewrites.js';
import {
  byCreation,
  checkCommit,
  checkTestbed,
  createdOfRunId,
  monthMayHoldSince,
  monthOf,
  monthPath,
  newRunId,
  parsePath,
  runPath,
  type HistoryEntry,
  type MonthKey,
} from './layout.js';

export type { CompactedMonth } from './history-rewrites.js';
export type { UnreadableFile } from './verify.js';

export interface AppendOptions {
  /** The testbed to file the run under; default the ResultSet's `testbed.id`. */
  testbed?: string;
  /** The measured commit (full id); default the ResultSet's `commit`. */
  commit?: string;
  /** A run id of the caller's (layout.newRunId); default a new one from `created`. */
  runId?: string;
}

export interface ListQuery {
  /** Only this testbed's runs (and only its folder is read). */
  testbed?: string;
  /** Only runs created at or after this time (older months are not read). */
  since?: Date;
}

/** The runs of a `readUsable`, aligned: `sets[i]` is the run of `entries[i]`. */
export interface UsableRuns {
  entries: HistoryEntry[];
  sets: ResultSet[];
}

/** The history of runs, append-only; see docs/history.md. */
export interface HistoryStore {
  /** The folder or branch, for messages. */
  readonly description: string;
  /** Records a run under its testbed, commit and creation month; returns where it went. */
  append(set: ResultSet, options?: AppendOptions): Promise<HistoryEntry>;
  /** Runs in creation order, each once, read from names and month headers only. */
  list(query?: ListQuery): Promise<HistoryEntry[]>;
  /** One run's ResultSet. */
  read(entry: HistoryEntry): Promise<ResultSet>;
  /** Several runs, each file read once, in the order given; a file that does not decode is an InputError naming it. */
  readMany(entries: readonly HistoryEntry[]): Promise<ResultSet[]>;
  /**
   * The runs of `entries` that decode, in the order given; the others are
   * left out and remembered in `unreadable()`, so one damaged file never
   * stops a reader of the rest.
   */
  readUsable(entries: readonly HistoryEntry[]): Promise<UsableRuns>;
  /** The files this store skipped so far (in `list` and `readUsable`), each once. */
  unreadable(): UnreadableFile[];
  /** Removes the runs given (their single files, or their lines of a month file); returns what it removed. */
  remove(entries: readonly HistoryEntry[]): Promise<HistoryEntry[]>;
  /** Removes whole store files (a damaged one `verify` named); returns the paths removed. */
  removeFiles(files: readonly string[]): Promise<string[]>;
  /** Reads every file of the store (or of one testbed); returns those that do not decode. */
  verify(query?: { testbed?: string }): Promise<{ files: number; runs: number; unreadable: UnreadableFile[] }>;
  /** Removes runs created before `before`; returns them. */
  prune(options: { before: Date }): Promise<HistoryEntry[]>;
  /** Compacts every month before the month of `before` into one file per testbed and month. */
  compact(options: { before: Date }): Promise<CompactedMonth[]>;
}

/**
 * The store's operations, written once over a backend (folder-store.ts,
 * git-branch-store.ts). Reads after a `list` use that listing's view, so a
 * git store reads exactly the commit it listed even if the branch moved.
 */
export function historyStore(backend: Backend, validate: ValidateResultSet): HistoryStore {
  let lastView: Snapshot | undefined;
  const view = async (): Promise<Snapshot> => (lastView ??= await backend.snapshot());
  const skipped = new Map<string, UnreadableFile>();
  const skip = (file: string, runIds: readonly string[], error: unknown): void => {
    if (!(error instanceof InputError)) throw error;
    const known = skipped.get(file);
    if (known) known.runIds = [...new Set([...known.runIds, ...runIds])];
    else skipped.set(file, { file, runIds: [...runIds], problem: problemOf(error, file), ...(error.file !== file ? { runsOnly: true } : {}) });
  };
  const rewrites = historyRewrites(backend, validate, skip);
  const fresh = <T>(result: T): T => {
    lastView = undefined;
    return result;
  };

  async function append(set: ResultSet, options: AppendOptions = {}): Promise<HistoryEntry> {
    const source = `history of ${backend.description}`;
    const testbed = checkTestbed(options.testbed ?? set.testbed?.id ?? '', source);
    const commit = checkCommit(options.commit ?? set.commit ?? '', source);
    const created = new Date(set.created);
    if (Number.isNaN(created.getTime()))
      throw new InputError(source, `the run's "created" is not a time: ${JSON.stringify(set.created)}`, undefined, 'created');
    const runId = options.runId ?? newRunId(created);
    const file = runPath(testbed, commit, runId);
    const stored: ResultSet = { ...set, commit, testbed: { ...set.testbed, id: testbed } };
    const bytes = encodeRun(stored);
    refuseUnreadable(() => decodeRun(bytes, file, validate), source);
    await backend.apply(
      async (v) =>
        (await v.read([file])).get(file) !== undefined
          ? undefined
          : { add: [{ path: file, bytes }], remove: [], message: `perf-gate: add run ${runId} of ${commit.slice(0, 12)} on ${testbed}` },
      { exclusive: false },
    );
    lastView = undefined;
    return { testbed, commit, runId, created: createdOfRunId(runId), file };
  }

  async function list(query: ListQuery = {}): Promise<HistoryEntry[]> {
    if (query.testbed !== undefined) checkTestbed(query.testbed, `history of ${backend.description}`);
    const v = (lastView = await backend.snapshot());
    const months = groupByMonth(await v.paths(query.testbed)).filter((m) => monthMayHoldSince(m.key.month, query.since));
    const monthFiles = months.flatMap((m) => (m.monthFile !== undefined ? [m.monthFile] : []));
    const bytes = await v.read(monthFiles);
    const seen = new Set<string>();
    const out: HistoryEntry[] = [];
    const keep = (e: HistoryEntry): void => {
      const id = `${e.testbed}/${e.runId}`;
      if (seen.has(id) || (query.since !== undefined && Date.parse(e.created) < query.since.getTime())) return;
      seen.add(id);
      out.push(e);
    };
    for (const m of months) m.runs.forEach(keep);
    for (const file of monthFiles) {
      const b = bytes.get(file);
      if (b === undefined) continue;
      try {
        monthEntries(readHeader(b, file), file, createdOfRunId).forEach(keep);
      } catch (error) {
        skip(file, [], error); // its runs cannot be listed: `history verify` and `history remove` name it
      }
    }
    return out.sort(byCreation);
  }

  async function readMany(entries: readonly HistoryEntry[]): Promise<ResultSet[]> {
    const v = await view();
    const files = [...new Set(entries.map((e) => e.file))];
    const bytes = await v.read(files);
    // A single-run file compacted away since the listing (folder store) is in its month file now.
    const gone = files.filter((f) => bytes.get(f) === undefined && parsePath(f)?.kind === 'run');
    const fallback = await v.read([...new Set(gone.map((f) => monthPath(keyOf(parsePath(f)!))))]);
    const months = new Map<string, Map<string, ResultSet | InputError>>();
    const fromMonth = (file: string, runId: string): ResultSet | undefined => {
      let runs = months.get(file);
      if (runs === undefined) {
        const b = bytes.get(file) ?? fallback.get(file);
        if (b === undefined) return undefined;
        const decoded = decodeMonth(b, file, validate);
        runs = new Map<string, ResultSet | InputError>([
          ...decoded.runs.map((r): [string, ResultSet] => [r.runId, r.set]),
          ...decoded.unreadable.map((r): [string, InputError] => [r.runId, r.error]),
        ]);
        months.set(file, runs);
      }
      const run = runs.get(runId);
      if (run instanceof InputError) throw run;
      return run;
    };
    return entries.map((e) => {
      const parsed = parsePath(e.file);
      let set: ResultSet | undefined;
      if (parsed?.kind === 'run') {
        const b = bytes.get(e.file);
        set = b !== undefined ? decodeRun(b, e.file, validate) : fromMonth(monthPath(keyOf(parsed)), e.runId);
      } else if (parsed?.kind === 'month') set = fromMonth(e.file, e.runId);
      if (set === undefined)
        throw new InputError(e.file, `run ${e.runId} of ${e.commit} is not in the history of ${backend.description} (removed since it was listed?)`);
      if (set.commit !== e.commit)
        throw new InputError(e.file, `holds a run of commit ${String(set.commit)}, but its name says ${e.commit}`, undefined, 'commit');
      return set;
    });
  }

  async function readUsable(entries: readonly HistoryEntry[]): Promise<UsableRuns> {
    const usable: UsableRuns = { entries: [], sets: [] };
    // Read the whole request at once (each file once); only when a file fails, file by file.
    try {
      return { entries: [...entries], sets: await readMany(entries) };
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
    }
    const byFile = new Map<string, HistoryEntry[]>();
    for (const e of entries) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
    const sets = new Map<HistoryEntry, ResultSet>();
    for (const [file, group] of byFile) {
      try {
        (await readMany(group)).forEach((set, i) => sets.set(group[i]!, set));
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        if (group.length === 1 || error.file === file) {
          skip(
            file,
            group.map((e) => e.runId),
            error,
          );
          continue;
        }
        // One run of a month file is unreadable (the error names that run): read the others one by one.
        for (const e of group) {
          try {
            sets.set(e, (await readMany([e]))[0]!);
          } catch (each) {
            skip(file, [e.runId], each);
          }
        }
      }
    }
    for (const e of entries) {
      const set = sets.get(e);
      if (set === undefined) continue;
      usable.entries.push(e);
      usable.sets.push(set);
    }
    return usable;
  }

  return {
    description: backend.description,
    append,
    list,
    read: async (e) => (await readMany([e]))[0]!,
    readMany,
    readUsable,
    unreadable: () => [...skipped.values()],
    // A rewrite moves the branch or the folder: the next read takes a fresh view.
    remove: async (entries) => fresh(await rewrites.remove(entries)),
    removeFiles: async (files) => fresh(await rewrites.removeFiles(files)),
    verify: (query) => verifyFiles(backend, validate, query),
    prune: async (options) => fresh(await rewrites.prune(options)),
    compact: async (options) => fresh(await rewrites.compact(options)),
  };
}

function keyOf(parsed: NonNullable<ReturnType<typeof parsePath>>): MonthKey {
  return parsed.kind === 'month' ? parsed.key : { testbed: parsed.entry.testbed, month: monthOf(parsed.entry.created) };
}
