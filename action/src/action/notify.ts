/**
 * `notify:` — main's new regressions and a release's no-go, told to a Slack
 * channel or a signed JSON endpoint. A notification is a courtesy: its
 * failure is a warning, after the verdict and the reports, and never changes
 * the exit status.
 */
import type { MainAlerts } from '../pipeline/history/main-alerts.js';
import { mainAlertNotification, releaseNoGoNotification, type NotificationContext } from '../pipeline/notifications.js';
import type { GateReport } from '../pipeline/index.js';
import { sendWebhook, WebhookError, type Notification } from '../github/webhook.js';
import type { ActionDeps } from './deps.js';
import { workflowRunUrl, type Settings } from './settings.js';

function context(settings: Settings): NotificationContext {
  const g = settings.github;
  return {
    gate: settings.gateName,
    repository: g.repository,
    ref: g.ref,
    sha: g.sha,
    runUrl: workflowRunUrl(g),
  };
}

async function send(settings: Settings, notification: Notification | null, deps: ActionDeps): Promise<void> {
  const target = settings.webhook;
  if (!target || !notification) return;
  try {
    const { status } = await sendWebhook(target, notification, { now: deps.run.now() });
    deps.log.info(`notified the ${target.format} webhook of ${notification.event} (HTTP ${status})`);
  } catch (error) {
    // Whatever went wrong (an unreadable proxy setting, a refusal), the verdict and exit status are already decided.
    const why = error instanceof WebhookError ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
    deps.log.warning(`perf-gate: the ${target.format} webhook did not take the ${notification.event} notification (${why}); the verdict stands`);
  }
}

/** mode main: the new alerts; with `alert: issue`, those whose issue this run opened (`opened`). */
export function notifyMainAlerts(settings: Settings, found: MainAlerts, opened: readonly { title: string; url: string }[] | null, deps: ActionDeps) {
  return send(settings, mainAlertNotification(found.alerts, opened, context(settings)), deps);
}

/** mode release: a failing verdict. */
export function notifyRelease(settings: Settings, report: GateReport, deps: ActionDeps) {
  return send(settings, releaseNoGoNotification(report, context(settings)), deps);
}
