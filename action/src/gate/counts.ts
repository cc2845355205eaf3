import type { RowStatus } from '../model/index.js';
import type { GateReport, VerdictRow } from './types.js';

const ALL_STATUSES: RowStatus[] = ['regressed', 'improved', 'unchanged', 'inconclusive', 'suspected', 'accepted', 'new', 'missing', 'failed'];

/** The report's counts of its rows: one per status, and the budgets that failed or warned. */
export function countRows(rows: readonly VerdictRow[]): GateReport['counts'] {
  const counts = Object.fromEntries(ALL_STATUSES.map((s) => [s, 0])) as GateReport['counts'];
  counts.budgetFailed = 0;
  counts.budgetWarned = 0;
  for (const r of rows) {
    counts[r.status]++;
    if (r.budget?.result === 'fail' && r.budget.severity === 'fail') counts.budgetFailed++;
    else if (r.budget?.result === 'fail') counts.budgetWarned++;
  }
  return counts;
}
