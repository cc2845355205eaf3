/**
 * The main-branch alert (`mode: main`, after the run is appended): the change
 * points of the testbed's history, the regressions among the last runs beyond
 * the budgets' tolerance (gate/main-alerts.ts), their words
 * (report/main-alert.ts), and — with `alert: issue` — one GitHub issue each
 * (github/alert-issues.ts).
 */
import { changesOfRuns, type ChangeRow } from '../gate/change-rows.js';
import { mainAlerts, reversalOf, type MainAlert } from '../gate/main-alerts.js';
import type { Budgets } from '../model/index.js';
import { alertIssueBody, alertsSummary, alertTitle, reversalComment, type AlertLinks } from '../report/main-alert.js';
import { syncAlertIssues, type AlertIssueOutcome, type AlertIssueText, type AlertMark } from '../github/alert-issues.js';
import type { GitHubApi, RepoRef } from '../github/client.js';
import { DEFAULT_CHANGE_POINT_OPTIONS, type ChangePointOptions } from '../stats/change-points.js';
import type { HistoryStore } from '../store/history/index.js';

export { DEFAULT_ALERT_WINDOW, type MainAlert } from '../gate/main-alerts.js';
export { ALERT_LABEL, type AlertIssueOutcome } from '../github/alert-issues.js';

export interface MainAlertsRequest {
  history: HistoryStore;
  testbed: string;
  budgets: Budgets;
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
  const entries = (await request.history.list()).filter((e) => e.testbed === request.testbed);
  const sets = await request.history.readMany(entries);
  const rows = changesOfRuns(request.testbed, entries, sets, () => true, request.options ?? DEFAULT_CHANGE_POINT_OPTIONS);
  const recent = new Set(entries.slice(-request.window).map((e) => e.runId));
  return { alerts: mainAlerts(rows, request.budgets, recent), rows, window: request.window };
}

/** The job summary's section. */
export function mainAlertsMarkdown(found: MainAlerts, links: AlertLinks): string {
  return alertsSummary(found.alerts, found.window, links);
}

/** One issue per alert, updated while confirmed, closed when reversed. */
export function fileAlertIssues(api: GitHubApi, repo: RepoRef, gate: string, found: MainAlerts, links: AlertLinks): Promise<AlertIssueOutcome> {
  const texts: AlertIssueText[] = found.alerts.map((alert) => {
    const mark: AlertMark = { gate, key: alert.key, commit: alert.row.commit, created: alert.row.created, change: alert.row.change };
    return { mark, title: alertTitle(alert), body: (previous) => alertIssueBody(alert, previous, links) };
  });
  return syncAlertIssues(api, repo, gate, texts, (mark) => {
    const reversal = reversalOf(found.rows, mark.key, mark.created, mark.change);
    return reversal ? reversalComment(reversal, links) : null;
  });
}
