import { monthOf, parsePath, type HistoryEntry, type MonthKey } from './layout.js';
import type { MonthLine } from './codec.js';

/**
 * Which files compaction and pruning touch, decided from names alone (pure).
 * Compaction turns a past month's single-run files into one month file per
 * testbed and month; the current month keeps one file per run, so appends
 * never rewrite a shared file.
 */

/** What one month folder holds, from its file names. */
export interface MonthContents {
  key: MonthKey;
  /** Single-run files, in run order. */
  runs: HistoryEntry[];
  /** The compacted month file, when there is one. */
  monthFile?: string;
}

/** Sorts store paths into months; names the store did not write are left out. */
export function groupByMonth(paths: readonly string[]): MonthContents[] {
  const months = new Map<string, MonthContents>();
  const at = (key: MonthKey): MonthContents => {
    const id = `${key.testbed}/${key.month}`;
    let m = months.get(id);
    if (m === undefined) months.set(id, (m = { key, runs: [] }));
    return m;
  };
  for (const path of paths) {
    const parsed = parsePath(path);
    if (parsed === undefined) continue;
    if (parsed.kind === 'month') at(parsed.key).monthFile = parsed.file;
    else at({ testbed: parsed.entry.testbed, month: monthOf(parsed.entry.created) }).runs.push(parsed.entry);
  }
  for (const m of months.values()) m.runs.sort((a, b) => (a.runId < b.runId ? -1 : 1));
  return [...months.values()].sort((a, b) => (monthId(a.key) < monthId(b.key) ? -1 : 1));
}

/** Months before the month of `before` that still have single-run files. */
export function monthsToCompact(months: readonly MonthContents[], before: Date): MonthContents[] {
  const limit = monthOf(before);
  return months.filter((m) => m.key.month < limit && m.runs.length > 0);
}

/** Months that may hold a run created before `before` (a month file's runs are only known once read). */
export function monthsToPrune(months: readonly MonthContents[], before: Date): MonthContents[] {
  const limit = monthOf(before);
  return months.filter(
    (m) => m.key.month < limit || (m.key.month === limit && (m.monthFile !== undefined || m.runs.some((r) => Date.parse(r.created) < before.getTime()))),
  );
}

/**
 * The runs of a compacted month: the month file's runs and the single runs,
 * each run once (a compaction killed after writing the month file leaves
 * both forms), in run order.
 */
export function mergeMonth(existing: readonly MonthLine[], singles: readonly MonthLine[]): MonthLine[] {
  const byId = new Map<string, MonthLine>();
  for (const run of [...existing, ...singles]) if (!byId.has(run.runId)) byId.set(run.runId, run);
  return [...byId.values()].sort((a, b) => (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
}

function monthId(key: MonthKey): string {
  return `${key.testbed}/${key.month}`;
}
