/**
 * mode release, what the action adds to the run: the release report the
 * run assembled (with history: in perf-gate.yml, the change points since the
 * previous release tag) written out, the check run, and the release's
 * notification.
 */
import { writeReleaseReport, type RunOutcome } from '../pipeline/index.js';
import { notifyRelease } from './notify.js';
import type { ActionDeps } from './deps.js';
import type { RunFacts } from './run-facts.js';
import type { Settings } from './settings.js';
import { tellGitHub } from './tell-github.js';

export async function afterReleaseRun(settings: Settings, outcome: RunOutcome, facts: RunFacts, deps: ActionDeps): Promise<void> {
  const { log } = deps;
  const { report } = outcome;
  // The run assembled the release (RunPlan.release); a history that could not be read costs only its change points.
  if (!outcome.release) throw new Error('mode release plans the release (action-plan.ts): the run returned none');
  const { model, note } = outcome.release;
  if (note) log.warning(`perf-gate: ${note}`);
  const release = writeReleaseReport(report, settings.outputDir, settings.github.ref, { model, title: settings.gateName });
  await log.appendSummary(release.summary);
  log.setOutput('release-report', release.path);
  await tellGitHub(settings, outcome, facts, deps);
  await notifyRelease(settings, report, deps);
}
