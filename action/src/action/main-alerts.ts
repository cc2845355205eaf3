/**
 * The action's watch over main (`mode: main` with `alert:`): the change points
 * the run found in the history it was just appended to, in the job summary;
 * with `alert: issue` one issue per new regression; with `alert-bisect` each
 * new one bisected. A failure to reach GitHub is a warning: the run is stored.
 */
import { join } from 'node:path';
import { alertStepsConfirmed, type Budgets, type PerfGateConfig } from '../pipeline/index.js';
import {
  confirmAlertStep,
  unconfirmedAlertsMarkdown,
  type MainAlert,
  type StepConfirmation,
  bisectNewAlerts,
  mainAlertsMarkdown,
  type MainAlerts,
} from '../pipeline/history/main-alerts.js';
import { commentBisects, fileAlertIssues, openedAlerts, type AlertIssueOutcome } from './alert-issues.js';
import { bisectMarkdown } from '../pipeline/history/bisect.js';
import type { GitHubApi } from '../github/client.js';
import type { ActionDeps } from './deps.js';
import { repoRef, type Settings } from './settings.js';

/**
 * mode main with a history: the change points of the last runs that are
 * regressions beyond the budgets' tolerance (the run found them in the
 * history it was appended to), in the job summary and the `alerts` output.
 */
export async function sayMainAlerts(settings: Settings, found: MainAlerts, deps: ActionDeps): Promise<void> {
  deps.log.info(`${found.alerts.length} new regression${found.alerts.length === 1 ? '' : 's'} among the change points of the last ${found.window} runs`);
  await deps.log.appendSummary(mainAlertsMarkdown(found, alertLinks(settings)));
  deps.log.setOutput('alerts', String(found.alerts.length));
}

function alertLinks(settings: Settings): { repositoryUrl: string | null } {
  return { repositoryUrl: settings.github.repository ? `${settings.github.serverUrl}/${settings.github.repository}` : null };
}

/**
 * `alert: issue`: one issue per alert, and with `alert-bisect` each new one
 * bisected. Returns the issues this run opened, or null when none could be
 * filed (no token, GitHub refused). A failure is a warning; the run is already stored.
 */
export async function fileAlerts(
  settings: Settings,
  alerts: MainAlerts,
  config: PerfGateConfig | null,
  budgets: Budgets,
  deps: ActionDeps,
): Promise<AlertIssueOutcome['created'] | null> {
  const { github, log } = deps;
  if (!github) {
    log.warning('perf-gate: alert: issue needs a github-token with issues: write; the alerts are only in the job summary');
    return null;
  }
  let created: AlertIssueOutcome['created'];
  // The second stage on main: a step that would open an issue is measured again interleaved first.
  const unconfirmed: StepConfirmation[] = [];
  const confirm =
    config && alertStepsConfirmed(settings.confirm, config.confirm.on)
      ? async (alert: MainAlert): Promise<boolean> => {
          const c = await log.group(`perf-gate: confirm the step of ${alert.row.benchmark} at ${alert.row.commit.slice(0, 7)}`, () =>
            confirmAlertStep(alert, { config, budgets, outDir: join(settings.outputDir, 'confirm-alerts'), ...deps.run }),
          );
          if (!c.confirmed) unconfirmed.push(c);
          if (c.error !== null) log.warning(`perf-gate: the step of ${alert.row.benchmark} could not be measured again (${c.error}); no issue opened`);
          return c.confirmed;
        }
      : undefined;
  try {
    const outcome = await fileAlertIssues(github, repoRef(settings), settings.gateName, alerts, alertLinks(settings), confirm);
    await log.appendSummary(unconfirmedAlertsMarkdown(unconfirmed));
    const list = (what: string, issues: readonly { url: string }[]): string => (issues.length ? `${what}: ${issues.map((i) => i.url).join(', ')}` : '');
    log.info(
      [
        'alert issues',
        list('created', outcome.created),
        list('updated', outcome.updated),
        list('closed', outcome.closed),
        outcome.notConfirmed.length > 0 ? `not confirmed (no issue): ${outcome.notConfirmed.length}` : '',
      ]
        .filter((t) => t !== '')
        .join('; '),
    );
    created = outcome.created;
  } catch (error) {
    log.warning(`perf-gate: could not file the alert issues (${(error as Error).message}); they are in the job summary. The token needs issues: write.`);
    return null;
  }
  if (settings.alertBisect && config && created.length > 0) await bisectAlerts(settings, created, alerts, config, budgets, github, deps);
  return created;
}

/** `alert-bisect`: the commit of each newly opened alert, on its issue and in the job summary. */
async function bisectAlerts(
  settings: Settings,
  created: AlertIssueOutcome['created'],
  alerts: MainAlerts,
  config: PerfGateConfig,
  budgets: Budgets,
  github: GitHubApi,
  deps: ActionDeps,
): Promise<void> {
  await deps.log.group('perf-gate: bisect the new alerts', async () => {
    const bisects = await bisectNewAlerts(openedAlerts(created), alerts, {
      config,
      budgets,
      outDir: join(settings.outputDir, 'bisect'),
      ...deps.run,
    });
    for (const b of bisects) {
      if ('error' in b) deps.log.warning(`perf-gate: could not bisect ${b.alert.row.benchmark}: ${b.error}`);
      else await deps.log.appendSummary(bisectMarkdown(b.report));
    }
    try {
      await commentBisects(github, repoRef(settings), bisects);
    } catch (error) {
      deps.log.warning(`perf-gate: could not comment the bisect on the alert issues (${(error as Error).message}); it is in the job summary`);
    }
  });
}
