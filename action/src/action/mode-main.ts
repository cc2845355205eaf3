/**
 * mode main, what the action adds to the run: where the run was stored (the
 * `baseline-file` output), what main's watch found in its history (the
 * change points that are new regressions), the check run, the alert issues (each step
 * measured again first) and the notifications.
 */
import type { Budgets, PerfGateConfig, RunFiles, RunOutcome } from '../pipeline/index.js';
import { fileAlerts, sayMainAlerts } from './main-alerts.js';
import { notifyMainAlerts } from './notify.js';
import type { ActionDeps } from './deps.js';
import type { RunFacts } from './run-facts.js';
import type { Settings } from './settings.js';
import { tellGitHub } from './tell-github.js';

export async function afterMainRun(
  settings: Settings,
  outcome: RunOutcome,
  files: RunFiles | null,
  project: { config: PerfGateConfig | null; budgets: Budgets },
  facts: RunFacts,
  deps: ActionDeps,
): Promise<void> {
  const { log } = deps;
  if (outcome.stored !== null) {
    // The store was checked before measuring; a failure now is raised after the reports are out.
    if ('error' in outcome.stored) throw outcome.stored.error;
    log.info(`baseline written to ${outcome.stored.at}`);
    log.setOutput('baseline-file', outcome.stored.at);
  } else {
    log.warning(
      `perf-gate: mode main stores the baseline where perf-gate.yml's baselines: points, but ${settings.config} does not exist; the results are only in ${files?.results ?? 'the job summary'}`,
    );
  }
  const { alerts } = outcome;
  if (alerts) await sayMainAlerts(settings, alerts, deps);
  await tellGitHub(settings, outcome, facts, deps);
  if (!alerts) return;
  const opened = settings.alert === 'issue' ? await fileAlerts(settings, alerts, project.config, project.budgets, deps) : null;
  await notifyMainAlerts(settings, alerts, opened, deps);
}
