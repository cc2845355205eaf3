import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

/** A row of perf-gate's JSON report, as the example tests read it. */
export interface ReportRow {
  benchmark: string;
  metric: string;
  unit: string;
  direction: string;
  status: string;
  current: { value: number; n: number } | null;
  budget: unknown;
}

/** The JSON report written by `--report-json` (or `--out`'s report.json). */
export function readReport(path: string): { verdict: string; rows: ReportRow[] } {
  return JSON.parse(readFileSync(path, 'utf8')) as { verdict: string; rows: ReportRow[] };
}

/** The row of one benchmark and metric; fails the test, listing the rows there are, when it is missing. */
export function rowOf(rows: ReportRow[], benchmark: string, metric: string): ReportRow {
  const found = rows.find((r) => r.benchmark === benchmark && r.metric === metric);
  assert.ok(found, `no row ${benchmark} ${metric} among ${rows.map((r) => `${r.benchmark}:${r.metric}`).join(', ')}`);
  return found;
}
