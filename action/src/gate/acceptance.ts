/**
 * Accepting a regression on the record, as data. A person who may merge says
 * "this slowdown is intended" for the regressed rows a glob names, with a
 * reason; the acceptance keeps each row's change as it was then. On every
 * later run of the pull request a regressed (or suspected) row the acceptance
 * names passes as `accepted` while it is no worse than the accepted change
 * plus the row's own tolerance; a push that makes it worse beyond that fails
 * again, and the report says it was accepted at the smaller change.
 *
 * Only a slowdown against the baseline can be accepted. A crashed benchmark,
 * an exceeded budget or a missing benchmark still fails: those are changed
 * in the repository (the code, the budget file), where review sees them.
 */
import type { Direction } from '../model/index.js';
import { compileGlob } from '../model/glob.js';
import { countRows } from './counts.js';
import type { AcceptanceSource, GateReport, RowAcceptance, VerdictRow } from './types.js';

export type { AcceptanceSource, RowAcceptance } from './types.js';

/** One row as accepted: its change then (signed, current ÷ baseline − 1). */
export interface AcceptedRow {
  benchmark: string;
  metric: string;
  change: number;
  direction: Direction;
}

export interface Acceptance {
  /** The benchmark glob as written (`*` any text, `?` one character). */
  benchmarks: string;
  reason: string;
  /** Login of the person who accepted, checked to have write permission. */
  by: string;
  /** The pull request's head commit the acceptance was given on. */
  commit: string;
  /** ISO time it was given. */
  at: string;
  source: AcceptanceSource;
  rows: AcceptedRow[];
}

/** Rows a person may accept: slowdowns against the baseline (regressed, or suspected by the screen). */
export function acceptable(row: Pick<VerdictRow, 'status' | 'change'>): boolean {
  return (row.status === 'regressed' || row.status === 'suspected' || row.status === 'accepted') && row.change !== null;
}

/** How much worse a change is, by the metric's direction (positive: worse). */
function worse(change: number, direction: Direction): number {
  return direction === 'higher' ? -change : change;
}

/** Does a change stay within an accepted one? Within the row's tolerance of it: a rerun's noise must not undo the acceptance. */
export function withinAccepted(now: number, accepted: number, direction: Direction, tolerance: number): boolean {
  return worse(now, direction) <= worse(accepted, direction) + tolerance;
}

/** The rows `glob` names among the acceptable rows of a run, as an acceptance would record them. */
export function rowsToAccept(rows: readonly Pick<VerdictRow, 'benchmark' | 'metric' | 'status' | 'change' | 'direction'>[], glob: string): AcceptedRow[] {
  const matcher = compileGlob(glob);
  return rows
    .filter((r) => acceptable(r) && matcher.test(r.benchmark))
    .map((r) => ({ benchmark: r.benchmark, metric: r.metric, change: r.change!, direction: r.direction }));
}

/** The latest acceptance that names the row, and the row as it accepted it; null when none does. */
export function acceptanceOf(
  row: Pick<VerdictRow, 'benchmark' | 'metric'>,
  acceptances: readonly Acceptance[],
): { acceptance: Acceptance; row: AcceptedRow } | null {
  for (let i = acceptances.length - 1; i >= 0; i--) {
    const a = acceptances[i]!;
    const named = a.rows.find((r) => r.benchmark === row.benchmark && r.metric === row.metric);
    if (named) return { acceptance: a, row: named };
  }
  return null;
}

/** One row with the acceptances applied. */
export function acceptRow(row: VerdictRow, acceptances: readonly Acceptance[]): VerdictRow {
  if (!acceptable(row)) return row;
  const found = acceptanceOf(row, acceptances);
  if (!found) return row;
  const { acceptance, row: accepted } = found;
  const holds = withinAccepted(row.change!, accepted.change, row.direction, row.tolerance);
  const facts: RowAcceptance = {
    by: acceptance.by,
    reason: acceptance.reason,
    commit: acceptance.commit,
    source: acceptance.source,
    change: accepted.change,
    holds,
  };
  if (!holds) return { ...row, acceptance: facts };
  // A budget of severity fail still fails: the budget file is where a hard limit is changed.
  const budgetFails = row.budget?.result === 'fail' && row.budget.severity === 'fail';
  return { ...row, status: 'accepted', failsGate: budgetFails, acceptance: facts };
}

/** The report with the acceptances applied: rows, counts and verdict. */
export function applyAcceptances(report: GateReport, acceptances: readonly Acceptance[]): GateReport {
  if (acceptances.length === 0) return report;
  const rows = report.rows.map((r) => acceptRow(r, acceptances));
  return { ...report, rows, counts: countRows(rows), verdict: rows.some((r) => r.failsGate) ? 'fail' : 'pass' };
}
