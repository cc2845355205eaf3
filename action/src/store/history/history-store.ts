import { InputError, pushAll, type ResultSet } from '../../model/index.js';
import type { Backend, Change, Snapshot } from './backend.js';
import { refuseUnreadable } from '../result-set-file.js';
import { decodeMonth, decodeRun, encodeMonth, encodeRun, monthEntries, runLine, type MonthLine, type ValidateResultSet } from './codec.js';
import { problemOf, readHeader, verifyFiles } from './verify.js';
import { groupByMonth, mergeMonth, monthsToCompact, monthsToPrune, type MonthContents } from './compact.js';
import {
  byCreation,
  checkCommit,
  checkTestbed,
  createdOfRunId,
  monthFolder,
  monthMayHoldSince,
  monthOf,
  monthPath,
  newRunId,
  parsePath,
  runPath,
  type HistoryEntry,
  type MonthKey,
} from './layout.js';

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

/** A month compaction rewrote. */
export interface CompactedMonth extends MonthKey {
  /** Runs the month file holds now. */
  runs: number;
  /** Single-run files it replaced (removed in the same change). */
  removed: string[];
}

/** A history file that does not decode, and the runs it held as far as its name or header says. */
export interface UnreadableFile {
  file: string;
  /** Run ids the file holds (empty when even its header is unreadable). */
  runIds: string[];
  problem: string;
  /** Only the runs named are unreadable (lines of a month file); the file's other runs read, and removing the runs keeps them. */
  runsOnly?: boolean;
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

  async function remove(entries: readonly HistoryEntry[]): Promise<HistoryEntry[]> {
    const removed: HistoryEntry[] = [];
    const byMonth = new Map<string, { key: MonthKey; runIds: Set<string> }>();
    for (const e of entries) {
      const key = { testbed: e.testbed, month: monthOf(e.created) };
      const id = monthFolder(key);
      const m = byMonth.get(id) ?? { key, runIds: new Set<string>() };
      m.runIds.add(e.runId);
      byMonth.set(id, m);
    }
    for (const { key, runIds } of byMonth.values()) {
      let removedHere: HistoryEntry[] = [];
      await backend.apply(
        async (v): Promise<Change | undefined> => {
          const month = await monthContents(v, key);
          if (month === undefined) return undefined;
          removedHere = month.runs.filter((e) => runIds.has(e.runId));
          const change: Change = {
            add: [],
            remove: removedHere.map((e) => e.file),
            message: `perf-gate: remove ${runIds.size} run(s) of ${key.testbed} in ${key.month}`,
          };
          const file = month.monthFile;
          if (file !== undefined) {
            const all = entries.filter((e) => e.file === file);
            if (all.length > 0) {
              // Runs of the month file: rewrite it without them, or drop it when it is the damaged file itself.
              let kept: MonthLine[] | undefined;
              try {
                kept = await monthLines(v, month, (runId) => !runIds.has(runId));
              } catch {
                kept = undefined;
              }
              if (kept === undefined || kept.length === 0) change.remove.push(file);
              else change.add.push({ path: file, bytes: encodeMonth(key, kept) });
              pushAll(removedHere, all);
            }
          }
          return change.remove.length + change.add.length === 0 ? undefined : change;
        },
        { exclusive: true },
      );
      pushAll(removed, removedHere);
    }
    lastView = undefined;
    return removed.sort(byCreation);
  }

  async function removeFiles(files: readonly string[]): Promise<string[]> {
    for (const file of files) {
      if (parsePath(file) === undefined)
        throw new InputError(
          file,
          `not a file of the history of ${backend.description}: expected <testbed>/<yyyy>/<mm>/<commit>-<run id>.json.gz or …/month.json.br`,
        );
    }
    let removed: string[] = [];
    await backend.apply(
      async (v) => {
        const present = await v.read(files);
        removed = files.filter((f) => present.get(f) !== undefined);
        return removed.length === 0 ? undefined : { add: [], remove: removed, message: `perf-gate: remove ${removed.join(', ')}` };
      },
      { exclusive: true },
    );
    lastView = undefined;
    return removed;
  }

  async function compact({ before }: { before: Date }): Promise<CompactedMonth[]> {
    const done: CompactedMonth[] = [];
    // One change per month: a month is the unit a reader reads, and memory stays one month's worth.
    for (const { key } of monthsToCompact(groupByMonth(await (await backend.snapshot()).paths()), before)) {
      let result: CompactedMonth | undefined;
      await backend.apply(
        async (v) => {
          const month = await monthContents(v, key);
          if (month === undefined || month.runs.length === 0) return undefined;
          let existing: MonthLine[];
          try {
            existing = await monthLines(v, month, () => true);
          } catch (error) {
            skip(month.monthFile!, [], error); // never rewrite a month file that does not decode: its runs would be lost
            return undefined;
          }
          const singles = await singleLines(v, month.runs);
          if (singles.length === 0) return undefined;
          const runs = mergeMonth(existing, singles);
          const removed = singles.map((r) => r.file);
          result = { ...key, runs: runs.length, removed };
          return {
            add: [{ path: monthPath(key), bytes: encodeMonth(key, runs) }],
            remove: removed,
            message: `perf-gate: compact ${removed.length} runs of ${key.testbed} in ${key.month}`,
          };
        },
        { exclusive: true },
      );
      if (result !== undefined) done.push(result);
    }
    lastView = undefined;
    return done;
  }

  async function prune({ before }: { before: Date }): Promise<HistoryEntry[]> {
    const removedAll: HistoryEntry[] = [];
    const old = (runId: string): boolean => Date.parse(createdOfRunId(runId)) < before.getTime();
    for (const { key } of monthsToPrune(groupByMonth(await (await backend.snapshot()).paths()), before)) {
      let removedHere: HistoryEntry[] = [];
      await backend.apply(
        async (v): Promise<Change | undefined> => {
          const month = await monthContents(v, key);
          if (month === undefined) return undefined;
          let file = month.monthFile;
          let fromMonth: HistoryEntry[] = [];
          let kept: MonthLine[] = [];
          if (file !== undefined) {
            try {
              fromMonth = monthEntries(readHeader((await v.read([file])).get(file)!, file), file, createdOfRunId);
              if (fromMonth.some((e) => old(e.runId))) kept = await monthLines(v, month, (runId) => !old(runId));
            } catch (error) {
              // A damaged month file is left as it is (history verify names it); the month's single runs are still pruned.
              skip(
                file,
                fromMonth.map((e) => e.runId),
                error,
              );
              file = undefined;
              fromMonth = [];
            }
          }
          removedHere = [...month.runs, ...fromMonth].filter((e) => old(e.runId));
          if (removedHere.length === 0) return undefined;
          const change: Change = {
            add: [],
            remove: month.runs.filter((e) => old(e.runId)).map((e) => e.file),
            message: `perf-gate: prune runs of ${key.testbed} in ${key.month} created before ${before.toISOString()}`,
          };
          if (file !== undefined && fromMonth.some((e) => old(e.runId))) {
            if (kept.length === 0) change.remove.push(file);
            else change.add.push({ path: file, bytes: encodeMonth(key, kept) });
          }
          return change;
        },
        { exclusive: true },
      );
      pushAll(removedAll, removedHere);
    }
    lastView = undefined;
    return removedAll.sort(byCreation);
  }

  /** Month folder contents in view `v`, or undefined when the folder is empty. */
  async function monthContents(v: Snapshot, key: MonthKey): Promise<MonthContents | undefined> {
    const prefix = `${monthFolder(key)}/`;
    return groupByMonth((await v.paths(key.testbed)).filter((p) => p.startsWith(prefix)))[0];
  }

  /** The runs of the month file (validated), those for which `keep` says so. */
  async function monthLines(v: Snapshot, month: MonthContents, keep: (runId: string) => boolean): Promise<MonthLine[]> {
    if (month.monthFile === undefined) return [];
    const file = month.monthFile;
    const b = (await v.read([file])).get(file);
    if (b === undefined) return [];
    const decoded = decodeMonth(b, file, validate);
    const lines = new Map<string, MonthLine>([
      ...decoded.runs.map((r): [string, MonthLine] => [r.runId, { commit: r.commit, runId: r.runId, json: runLine(r.set) }]),
      // A run that does not validate keeps its line as it was: a rewrite of the month never drops a run nobody asked to remove.
      ...decoded.unreadable.map((r): [string, MonthLine] => [r.runId, { commit: r.commit, runId: r.runId, json: r.json }]),
    ]);
    for (const r of decoded.unreadable) if (keep(r.runId)) skip(file, [r.runId], r.error);
    return decoded.header.runs.filter((r) => keep(r.runId)).map((r) => lines.get(r.runId)!);
  }

  /** Single-run files as month lines (validated; a file that does not decode stays where it is, remembered as unreadable). */
  async function singleLines(v: Snapshot, runs: readonly HistoryEntry[]): Promise<(MonthLine & { file: string })[]> {
    const bytes = await v.read(runs.map((r) => r.file));
    return runs.flatMap((r) => {
      const b = bytes.get(r.file);
      if (b === undefined) return [];
      try {
        return [{ commit: r.commit, runId: r.runId, json: runLine(decodeRun(b, r.file, validate)), file: r.file }];
      } catch (error) {
        skip(r.file, [r.runId], error);
        return [];
      }
    });
  }

  return {
    description: backend.description,
    append,
    list,
    read: async (e) => (await readMany([e]))[0]!,
    readMany,
    readUsable,
    unreadable: () => [...skipped.values()],
    remove,
    removeFiles,
    verify: (query) => verifyFiles(backend, validate, query),
    prune,
    compact,
  };
}

function keyOf(parsed: NonNullable<ReturnType<typeof parsePath>>): MonthKey {
  return parsed.kind === 'month' ? parsed.key : { testbed: parsed.entry.testbed, month: monthOf(parsed.entry.created) };
}
