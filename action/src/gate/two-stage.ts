/**
 * The two-stage verdict of a pull request, as data: the screen sorts the rows
 * of a comparison with the stored history into suspects and clear rows
 * (screen.ts); the suspects' suites are measured again interleaved against
 * the base commit (pipeline/confirm.ts); this module joins the two into one
 * report. Pure: reports in, report out.
 *
 * - A clear row keeps the screen's verdict and says what the screen could
 *   resolve (`stage.bound`).
 * - A suspect measured again takes the interleaved row (its status, numbers,
 *   flags and reason) and keeps what the screen saw (`stage.screen`).
 * - A suspect that could not be measured again is `suspected` (a failed row
 *   stays `failed`: a crash is no measurement to doubt). It fails the gate
 *   only when the caller says so (`failSuspected`, from `fail-on`).
 */
import { rowKey } from '../model/index.js';
import { countRows } from './counts.js';
import { screenRow, type ScreenCall } from './screen.js';
import type { GateReport, ScreenedFacts, TwoStages, Unconfirmed, VerdictRow } from './types.js';

export interface ScreenedReport {
  report: GateReport;
  /** The screen's call on every row, by rowKey. */
  calls: ReadonlyMap<string, ScreenCall>;
  /** The suspect rows, in report order. */
  suspects: VerdictRow[];
}

/** Screens the rows of a comparison with a stored baseline that `include` accepts (default: all); the others keep their one-stage verdict. */
export function screenReport(report: GateReport, alpha?: number, include: (row: VerdictRow) => boolean = () => true): ScreenedReport {
  const calls = new Map<string, ScreenCall>();
  const suspects: VerdictRow[] = [];
  for (const row of report.rows.filter(include)) {
    const call = screenRow(row, alpha);
    calls.set(rowKey(row.benchmark, row.metric), call);
    if (call.suspect) suspects.push(row);
  }
  return { report, calls, suspects };
}

export interface StageInputs {
  screened: ScreenedReport;
  /** The interleaved report of the suites measured again; null when none was. */
  confirmed: GateReport | null;
  /** Why a suspect (by rowKey) could not be measured again; null when it was. */
  unconfirmed: (key: string) => Unconfirmed | null;
  /** Do `suspected` rows fail the gate? (`fail-on: suspected`.) */
  failSuspected: boolean;
  stages: TwoStages;
}

/** One report from the screen's rows and the interleaved rows that replace its suspects. */
export function mergeStages(inputs: StageInputs): GateReport {
  const { screened } = inputs;
  const confirmedRows = new Map((inputs.confirmed?.rows ?? []).map((r) => [rowKey(r.benchmark, r.metric), r]));
  const rows = screened.report.rows.map((row): VerdictRow => {
    const key = rowKey(row.benchmark, row.metric);
    const call = screened.calls.get(key);
    if (call === undefined) return row;
    if (!call.suspect) {
      const blind = call.blind && row.change !== null ? { blind: { estimate: row.change, tolerance: row.tolerance } } : {};
      // A clear row whose interval still reaches a slowdown beyond the tolerance is not shown to pass: a real shift
      // within the tolerance is `unchanged` to the comparison, but the screen could not rule the larger one out.
      const status = call.blind && row.status === 'unchanged' ? 'inconclusive' : row.status;
      return { ...row, status, stage: { by: 'screen', suspect: false, bound: call.bound, ...blind } };
    }
    const screen: ScreenedFacts = { status: row.status, change: row.change, ci: row.ci, why: call.why };
    const skipped = inputs.unconfirmed(key);
    const again = confirmedRows.get(key);
    // A row the interleaved run could not compare (the base side did not deliver it) is no confirmation.
    if (skipped || !again || again.baseline === null) {
      return unconfirmedRow(row, screen, skipped ?? { code: 'not-measured' }, inputs.failSuspected);
    }
    return { ...again, stage: { by: 'interleaved', rounds: again.current?.n ?? 0, screen } };
  });
  return {
    ...screened.report,
    rows,
    counts: countRows(rows),
    verdict: rows.some((r) => r.failsGate) ? 'fail' : 'pass',
    stages: withBlindRows(inputs.stages, screened),
  };
}

/** A suspect that could not be measured again: `suspected`, with the screen's numbers and why. */
function unconfirmedRow(row: VerdictRow, screen: ScreenedFacts, unconfirmed: Unconfirmed, failSuspected: boolean): VerdictRow {
  const stage = { by: 'screen' as const, suspect: true as const, screen, unconfirmed };
  if (row.status === 'failed') return { ...row, stage };
  const budgetFails = row.budget?.result === 'fail' && row.budget.severity === 'fail';
  return { ...row, status: 'suspected', failsGate: budgetFails || (failSuspected && row.severity === 'fail'), stage };
}

/** The stages with the count of rows the screen could not screen, and their widest bound (absent when none). */
function withBlindRows(stages: TwoStages, screened: ScreenedReport): TwoStages {
  const bounds = [...screened.calls.values()].flatMap((c) => (!c.suspect && c.blind && c.bound !== null ? [c.bound] : []));
  if (bounds.length === 0) return stages;
  return { ...stages, screen: { ...stages.screen, blind: { rows: bounds.length, bound: Math.max(...bounds) } } };
}
