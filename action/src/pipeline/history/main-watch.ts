/**
 * Main's watch (`mode: main` with a history, after the run is appended): the
 * change points of the testbed's history and, among the last runs, the
 * regressions beyond the budgets' tolerance (gate/main-alerts.ts). The run
 * finds them (pipeline/run.ts) in the history it has open; what is said and
 * filed about them is main-alerts.ts's.
 */
import { changesOfRuns, type ChangeRow } from '../../gate/change-rows.js';
import { mainAlerts, type MainAlert } from '../../gate/main-alerts.js';
import type { Budgets } from '../../model/index.js';
import { DEFAULT_CHANGE_POINT_OPTIONS, type ChangePointOptions } from '../../stats/change-points.js';
import { inCommitOrder, type HistoryStore } from '../../store/history/index.js';

export interface MainAlertsRequest {
  history: HistoryStore;
  testbed: string;
  budgets: Budgets;
  /** The project's repository: the series follow its first-parent line (else the order runs were recorded). */
  repo?: string;
  /** The last runs whose change points are new. */
  window: number;
  options?: ChangePointOptions;
}

export interface MainAlerts {
  alerts: MainAlert[];
  /** Every change row of the testbed's history (reversals are found among them). */
  rows: ChangeRow[];
  window: number;
}

/** Reads the testbed's runs and finds the alerts among their change points. */
export async function findMainAlerts(request: MainAlertsRequest): Promise<MainAlerts> {
  const ordered = await inCommitOrder(
    request.repo,
    (await request.history.list()).filter((e) => e.testbed === request.testbed),
  );
  const { entries, sets } = await request.history.readUsable(ordered.entries);
  const rows = changesOfRuns(request.testbed, entries, sets, () => true, request.options ?? DEFAULT_CHANGE_POINT_OPTIONS);
  const recent = new Set(entries.slice(-request.window).map((e) => e.runId));
  return { alerts: mainAlerts(rows, request.budgets, recent), rows, window: request.window };
}
