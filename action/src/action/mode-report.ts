/**
 * mode report, the second job of a two-stage workflow (a fork's pull request
 * measured without a write token): before the run, the artifact the first
 * job left, verified against GitHub; after it, the comment and the check run.
 */
import { InputError } from '../model/index.js';
import type { RunOutcome } from '../pipeline/index.js';
import { HandoffRejected, readHandoffFolder, verifyClaim, workflowRunFromEvent, type Handoff } from './handoff.js';
import { downloadHandoff } from './handoff-download.js';
import type { ActionDeps } from './deps.js';
import type { RunFacts } from './run-facts.js';
import { repoRef, type Settings } from './settings.js';
import { tellGitHub } from './tell-github.js';

/** The results come from the untrusted artifact, verified against GitHub first. */
export function readTwoStageArtifact(settings: Settings, event: unknown, deps: ActionDeps): Promise<Handoff> {
  const { log } = deps;
  return log.group('perf-gate: read the two-stage artifact', async () => {
    const run = workflowRunFromEvent(event);
    if (!deps.github) throw new InputError('action input "github-token"', 'mode: report needs a token to verify the pull request and post');
    const repo = repoRef(settings);
    let found: Handoff;
    if (settings.reportFrom !== '') found = readHandoffFolder(settings.reportFrom);
    else {
      if (!run)
        throw new InputError(
          'GITHUB_EVENT_PATH',
          'mode: report without report-from must run in a workflow_run workflow (the artifact is downloaded from the triggering run)',
        );
      found = await downloadHandoff(deps.github, repo, run.runId, settings.artifactName);
    }
    if (!run) log.warning('perf-gate: not a workflow_run event; the artifact is checked against the pull request only');
    try {
      await verifyClaim(deps.github, repo, found.claim, run, settings.gateName);
    } catch (error) {
      if (error instanceof HandoffRejected) throw new InputError('two-stage artifact', error.message);
      throw error;
    }
    log.info(`pull request #${found.claim.pullRequest} at ${found.claim.headSha}: verified against GitHub`);
    return found;
  });
}

export function afterReportRun(settings: Settings, outcome: RunOutcome, facts: RunFacts, deps: ActionDeps): Promise<void> {
  return tellGitHub(settings, outcome, facts, deps);
}
