/**
 * What a notification webhook is told (github/webhook.ts sends it): the new
 * regressions on main, or a release that must not ship. Built from the alerts
 * and the report the run already has; plain text lines, escaped by the sender
 * for its format.
 */
import type { Notification } from '../model/index.js';
import type { MainAlert } from '../gate/main-alerts.js';
import type { GateReport } from '../gate/index.js';
import { alertTitle } from '../report/main-alert.js';
import { formatPercent } from '../report/format.js';
import { checkRunTitle } from '../report/summaries.js';

/** Where the run happened, for the message's header and the json body. */
export interface NotificationContext {
  gate: string;
  repository: string;
  ref: string;
  sha: string;
  runUrl: string | null;
}

/**
 * A line per alert, or null when there is nothing new to tell. With
 * `alert: issue` (`opened` given) only the alerts whose issue this run
 * opened are told, with the issue's address: an alert stays in the window
 * for several runs, and the channel should hear of it once.
 */
export function mainAlertNotification(
  found: readonly MainAlert[],
  opened: readonly { title: string; url: string }[] | null,
  ctx: NotificationContext,
): Notification | null {
  const issues = new Map<string, string>();
  for (const a of found) {
    const issue = opened?.find((i) => i.title === alertTitle(a));
    if (issue) issues.set(a.key, issue.url);
  }
  const alerts = opened === null ? found : found.filter((a) => issues.has(a.key));
  if (alerts.length === 0) return null;
  return {
    ...ctx,
    event: 'main-alert',
    title: `${ctx.gate}: ${alerts.length} new regression${alerts.length === 1 ? '' : 's'} on ${ctx.ref.replace(/^refs\/heads\//, '')}`,
    lines: alerts.map((a) => {
      const issue = issues.get(a.key);
      return `${alertTitle(a).replace(/^perf-gate: /, '')}${issue ? ` ${issue}` : ''}`;
    }),
    data: {
      alerts: alerts.map((a) => ({
        testbed: a.row.testbed,
        benchmark: a.row.benchmark,
        metric: a.row.metric,
        change: a.row.change,
        interval: a.row.interval,
        previousCommit: a.row.previousCommit,
        commit: a.row.commit,
        tolerance: a.tolerance,
        issue: issues.get(a.key) ?? null,
      })),
    },
  };
}

/** The rows that make a release fail, or null when it may ship. */
export function releaseNoGoNotification(report: GateReport, ctx: NotificationContext): Notification | null {
  if (report.verdict !== 'fail') return null;
  const failing = report.rows.filter((r) => r.failsGate);
  const tag = /^refs\/tags\/(.+)$/.exec(ctx.ref)?.[1] ?? ctx.ref;
  return {
    ...ctx,
    event: 'release-no-go',
    title: `${ctx.gate}: release ${tag} is a no-go — ${checkRunTitle(report)}`,
    lines: failing.map((r) => {
      const change = r.change === null ? '' : ` ${formatPercent(r.change)}`;
      const budget = r.budget?.result === 'fail' ? ` (over its budget, ${r.budget.source})` : '';
      return `${r.benchmark} ${r.metric}: ${r.status}${change}${budget}`;
    }),
    data: {
      verdict: report.verdict,
      counts: report.counts,
      failing: failing.map((r) => ({ benchmark: r.benchmark, metric: r.metric, status: r.status, change: r.change, budget: r.budget?.result ?? null })),
    },
  };
}
