/**
 * The main-branch alert (`mode: main`, after the run is appended): the change
 * points of the testbed's history, the regressions among the last runs beyond
 * the budgets' tolerance (gate/main-alerts.ts), their words
 * (report/main-alert.ts): what one GitHub issue each says (the action's
 * conversation with GitHub, action/alert-issues.ts, files them); the step of
 * an alert measured again interleaved before its issue opens; with
 * `alert-bisect`, each new issue's commit range narrowed to one commit by
 * `perf-gate bisect` (pipeline/history/bisect.ts). Nothing here talks to GitHub.
 */
import { join } from 'node:path';
import { reversalOf, type MainAlert } from '../../gate/main-alerts.js';
import type { AlertMark } from '../../model/index.js';
import { alertIssueBody, alertsSummary, alertTitle, reversalComment, type AlertLinks, type PreviousPlace } from '../../report/main-alert.js';
import { bisect, bisectSuite, type BisectRequest, type BisectReport } from './bisect.js';
import { compareInterleaved } from '../interleaved.js';
import type { VerdictRow } from '../../gate/index.js';
import { bisectIssueComment } from '../../report/main-alert.js';
import type { MainAlerts } from './main-watch.js';

export { DEFAULT_ALERT_WINDOW, type MainAlert } from '../../gate/main-alerts.js';
export type { AlertLinks } from '../../report/main-alert.js';

export { findMainAlerts, type MainAlerts, type MainAlertsRequest } from './main-watch.js';

export { unconfirmedAlertsMarkdown } from '../../report/main-alert.js';

/** The job summary's section. */
export function mainAlertsMarkdown(found: MainAlerts, links: AlertLinks): string {
  return alertsSummary(found.alerts, found.window, links);
}

/** What one alert's issue says: its marker's data, its title, its body given where an earlier report placed the step. */
export interface AlertIssueWords {
  mark: AlertMark;
  title: string;
  body: (previous: PreviousPlace | null) => string;
}

/**
 * The words of every alert's issue, and for an open issue of a series (its
 * mark) the comment that closes it when a later step reversed it, else
 * null. An issue per alert, updated while confirmed, closed when reversed:
 * the action files them (action/alert-issues.ts).
 */
export function alertIssueWords(
  gate: string,
  found: MainAlerts,
  links: AlertLinks,
): { issues: AlertIssueWords[]; reversal: (mark: AlertMark) => string | null; alertOf: (key: string) => MainAlert | undefined } {
  const byKey = new Map(found.alerts.map((a) => [a.key, a]));
  return {
    issues: found.alerts.map((alert) => ({
      mark: { gate, key: alert.key, commit: alert.row.commit, created: alert.row.created, change: alert.row.change },
      title: alertTitle(alert),
      body: (previous) => alertIssueBody(alert, previous, links),
    })),
    reversal: (mark) => {
      const reversal = reversalOf(found.rows, mark.key, mark.created, mark.change);
      return reversal ? reversalComment(reversal, links) : null;
    },
    alertOf: (key) => byKey.get(key),
  };
}

/** An alert's step measured again: confirmed, or why not (the interleaved row, or the error that stopped the measurement). */
export type StepConfirmation = { alert: MainAlert; confirmed: boolean; row: VerdictRow | null; error: string | null };

/**
 * The second stage on main: the alert's step measured again, interleaved
 * between its two end commits (the last run at the old level and the first
 * at the new one), each built in a temporary worktree, as `run --ab` and
 * bisect measure. Confirmed only when the interleaved rounds call the row
 * regressed: a step that one stalled run made is gone when the two commits
 * run side by side.
 */
export async function confirmAlertStep(alert: MainAlert, request: AlertBisectRequest): Promise<StepConfirmation> {
  const { benchmark, metric, previousCommit, commit } = alert.row;
  try {
    const { report } = await compareInterleaved({
      ...request,
      suites: [bisectSuite(request.config, benchmark, undefined)],
      base: { commit: previousCommit },
      head: { commit },
      flags: { base: '--good', head: '--bad' },
      // Only the alert's benchmark runs, where its harness can select it.
      benchmarks: [benchmark],
      outDir: join(request.outDir, `confirm-${commit.slice(0, 12)}`),
      decision: { baselineInput: '--good' },
    });
    const row = report.rows.find((r) => r.benchmark === benchmark && r.metric === metric) ?? null;
    return { alert, confirmed: row?.status === 'regressed', row, error: row ? null : `the interleaved run did not measure ${benchmark} ${metric}` };
  } catch (error) {
    return { alert, confirmed: false, row: null, error: (error as Error).message };
  }
}

/** What bisecting an alert needs besides the alert: bisect's own request, less the range and the series. */
export type AlertBisectRequest = Omit<BisectRequest, 'good' | 'bad' | 'benchmark' | 'metric' | 'suite' | 'outDir'> & { outDir: string };

/** One alert issue's bisect (the issue's number): the report, or why there is none. */
export type AlertBisect = { issue: number; alert: MainAlert; report: BisectReport } | { issue: number; alert: MainAlert; error: string };

/**
 * Bisects the commit range of every alert whose issue was just opened
 * (`created`: each issue's number and its series), one after the other, each
 * into `<outDir>/bisect-<n>/`. A bisect that cannot run (the range not in
 * the checkout, the suite failing at an end) is an error for that alert
 * only, reported on its issue.
 */
export async function bisectNewAlerts(
  created: readonly { issue: number; key: string | undefined }[],
  found: MainAlerts,
  request: AlertBisectRequest,
): Promise<AlertBisect[]> {
  const out: AlertBisect[] = [];
  for (const { issue, key } of created) {
    const alert = found.alerts.find((a) => a.key === key);
    if (alert === undefined) continue;
    try {
      const report = await bisect({
        ...request,
        good: alert.row.previousCommit,
        bad: alert.row.commit,
        benchmark: alert.row.benchmark,
        metric: alert.row.metric,
        outDir: join(request.outDir, `bisect-${issue}`),
      });
      out.push({ issue, alert, report });
    } catch (error) {
      out.push({ issue, alert, error: (error as Error).message });
    }
  }
  return out;
}

/** What a bisect's issue comment says: its outcome and evidence. */
export function bisectComment(b: AlertBisect): string {
  return bisectIssueComment('report' in b ? { report: b.report } : { error: b.error });
}
