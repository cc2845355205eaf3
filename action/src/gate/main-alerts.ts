/**
 * Which change points on main deserve an alert (`mode: main`), and whether a
 * step an earlier alert reported has since been reversed. Pure: the change
 * rows of a testbed's history (gate/change-rows.ts) and the budgets in, alerts
 * out; pipeline/history/main-alerts.ts reads the history, report/main-alert.ts words
 * them, github/alert-issues.ts keeps one issue per alert.
 */
import { resolveBudget, type Budgets } from '../model/index.js';
import type { ChangeRow } from './change-rows.js';
import { withinAccepted } from './acceptance.js';

/** Runs at the end of a testbed's history whose change points are "new": a step older than this was reported when it was. */
export const DEFAULT_ALERT_WINDOW = 10;

export interface MainAlert {
  /** testbed, benchmark and metric: one alert (and one issue) per series at a time. */
  key: string;
  row: ChangeRow;
  /** The budgets' regression tolerance the step exceeds (a fraction). */
  tolerance: number;
}

/** The series a row belongs to, as the alert's key. */
export function seriesKey(row: Pick<ChangeRow, 'testbed' | 'benchmark' | 'metric'>): string {
  return `${row.testbed}\u0000${row.benchmark}\u0000${row.metric}`;
}

/**
 * A later step of the same series that undoes at least half of `change` (a
 * fractional change relative to the level before it): the series went back.
 * Half, because the level after a reversal is rarely the old one exactly, and
 * a reversal of less than half leaves most of the regression in place.
 */
export function reversalOf(rows: readonly ChangeRow[], key: string, after: string, change: number): ChangeRow | null {
  // Back from (1 + change) to 1 is a relative change of −change / (1 + change).
  const full = Math.abs(change) / (1 + change);
  const later = rows
    .filter((r) => seriesKey(r) === key && r.created > after && Math.sign(r.change) === -Math.sign(change) && Math.abs(r.change) >= full / 2)
    .sort((p, q) => (p.created < q.created ? -1 : 1));
  return later[0] ?? null;
}

/**
 * The alerts of one testbed's change rows: regressions whose first run is one
 * of `recentRuns` (the run ids of the window), larger than the budget's
 * regression tolerance for the benchmark and metric, not in a budget's
 * `ignore`, and not reversed since. One per series: its newest such step
 * (`rows` in commit order).
 */
export function mainAlerts(rows: readonly ChangeRow[], budgets: Budgets, recentRuns: ReadonlySet<string>): MainAlert[] {
  const alerts = new Map<string, MainAlert>();
  for (const row of rows) {
    if (!row.regression || !recentRuns.has(row.runId)) continue;
    const budget = resolveBudget(budgets, row.benchmark, row.metric);
    if (budget.ignore || Math.abs(row.change) <= budget.tolerances.regression) continue;
    // A slowdown its pull request accepted on the record is known and intended, as long as main's step is no larger than what was accepted.
    if (row.accepted && withinAccepted(row.change, row.accepted.change, row.direction, budget.tolerances.regression)) continue;
    const key = seriesKey(row);
    if (reversalOf(rows, key, row.created, row.change) !== null) continue;
    const known = alerts.get(key);
    // Rows come in commit order: of two runs stamped alike (a fixed clock, runs recorded in one second), the later step is the newer.
    if (!known || known.row.created <= row.created) alerts.set(key, { key, row, tolerance: budget.tolerances.regression });
  }
  return [...alerts.values()].sort((p, q) =>
    p.row.benchmark < q.row.benchmark ? -1 : p.row.benchmark > q.row.benchmark ? 1 : p.row.metric < q.row.metric ? -1 : 1,
  );
}
