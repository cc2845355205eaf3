/**
 * The history's rewrites: removing runs or files, compacting a month's
 * single-run files into its month file, pruning old runs. Each is one
 * backend change per month (a month is the unit a reader reads, and memory
 * stays one month's worth), and none ever drops a run it was not asked to:
 * a month file that does not decode is left as it is, and its problem is
 * handed to `skip` (history-store.ts keeps the list `unreadable` returns).
 */
import { InputError, pushAll } from '../../model/index.js';
import type { Backend, Change, Snapshot } from './backend.js';
import { decodeMonth, decodeRun, encodeMonth, monthEntries, runLine, type MonthLine, type ValidateResultSet } from './codec.js';
import { readHeader } from './verify.js';
import { groupByMonth, mergeMonth, monthsToCompact, monthsToPrune, type MonthContents } from './compact.js';
import { byCreation, createdOfRunId, monthFolder, monthOf, monthPath, parsePath, type HistoryEntry, type MonthKey } from './layout.js';

/** A month compaction rewrote. */
export interface CompactedMonth extends MonthKey {
  /** Runs the month file holds now. */
  runs: number;
  /** Single-run files it replaced (removed in the same change). */
  removed: string[];
}

/** Remembers a file (and runs in it) that could not be read; rethrows anything that is not an InputError. */
export type SkipUnreadable = (file: string, runIds: readonly string[], error: unknown) => void;

export interface HistoryRewrites {
  remove(entries: readonly HistoryEntry[]): Promise<HistoryEntry[]>;
  removeFiles(files: readonly string[]): Promise<string[]>;
  compact(options: { before: Date }): Promise<CompactedMonth[]>;
  prune(options: { before: Date }): Promise<HistoryEntry[]>;
}

export function historyRewrites(backend: Backend, validate: ValidateResultSet, skip: SkipUnreadable): HistoryRewrites {
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

  return { remove, removeFiles, compact, prune };
}
