/**
 * mode release, what the action adds to the run: the release report (with
 * history: in perf-gate.yml, the change points since the previous release
 * tag), the check run, and the release's notification.
 */
import { releaseOfRun } from '../pipeline/history/release-report.js';
import { writeReleaseReport, type PerfGateConfig, type RunOutcome } from '../pipeline/index.js';
import { notifyRelease } from './notify.js';
import type { ActionDeps } from './deps.js';
import type { RunFacts } from './run-facts.js';
import type { Settings } from './settings.js';
import { tellGitHub } from './tell-github.js';

export async function afterReleaseRun(
  settings: Settings,
  outcome: RunOutcome,
  config: PerfGateConfig | null,
  facts: RunFacts,
  deps: ActionDeps,
): Promise<void> {
  const { log } = deps;
  const { report } = outcome;
  const repositoryUrl = settings.github.serverUrl && settings.github.repository ? `${settings.github.serverUrl}/${settings.github.repository}` : null;
  const { model, note } = await releaseOfRun(report, config, { ref: settings.github.ref, sha: settings.github.sha, repositoryUrl });
  if (note) log.warning(`perf-gate: ${note}`);
  const release = writeReleaseReport(report, settings.outputDir, settings.github.ref, { model, title: settings.gateName });
  await log.appendSummary(release.summary);
  log.setOutput('release-report', release.path);
  await tellGitHub(settings, outcome, facts, deps);
  await notifyRelease(settings, report, deps);
}
