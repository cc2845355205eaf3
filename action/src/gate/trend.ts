/**
 * The trend of a regressed row on main: its metric's level in each of the
 * history's recent runs (the drift window the baseline came with), oldest
 * first. Pure: the runs and the report in, the report with `trend` on its
 * regressed rows out; report/ draws it.
 */
import type { ResultSet } from '../model/index.js';
import { median } from '../stats/index.js';
import type { GateReport } from './types.js';

/** Levels of one benchmark × metric across runs: each run's median of the samples, else its value; runs without it are skipped. */
export function levelsOf(runs: readonly ResultSet[], benchmark: string, metric: string): number[] {
  const levels: number[] = [];
  for (const run of runs) {
    const m = run.benchmarks.find((b) => b.id === benchmark && b.status === 'ok')?.metrics[metric];
    if (!m) continue;
    const level = m.samples && m.samples.length > 0 ? median(m.samples) : m.value;
    if (level !== undefined && level !== null && Number.isFinite(level)) levels.push(level);
  }
  return levels;
}

/** The report with each regressed row's trend on main (at least two runs of it), when the runs are known. */
export function withTrends(report: GateReport, runs: readonly ResultSet[]): GateReport {
  if (runs.length === 0) return report;
  return {
    ...report,
    rows: report.rows.map((row) => {
      if (row.status !== 'regressed') return row;
      const trend = levelsOf(runs, row.benchmark, row.metric);
      return trend.length >= 2 ? { ...row, trend } : row;
    }),
  };
}
