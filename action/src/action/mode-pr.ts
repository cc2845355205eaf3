/**
 * mode pr, what the action adds to the run: before it, whether a fork's pull
 * request may run on this runner; after it, the two-stage handoff (for a
 * report workflow with a write token), then the comment and the check run.
 */
import { join } from 'node:path';
import { InputError } from '../model/index.js';
import type { RunFiles, RunOutcome } from '../pipeline/index.js';
import { decideForkSafety, type PullRequestFacts } from '../github/fork.js';
import { writeHandoff } from './handoff.js';
import type { ActionDeps } from './deps.js';
import type { ActionLog } from './log.js';
import type { RunFacts } from './run-facts.js';
import type { Settings } from './settings.js';
import { tellGitHub } from './tell-github.js';

/** A fork's pull request runs on a self-hosted runner only when allowed; true in other modes. */
export function forkAllowed(settings: Settings, pr: PullRequestFacts | null, log: ActionLog): boolean {
  if (settings.mode !== 'pr') return true;
  const decision = decideForkSafety(pr, settings.github.runnerEnvironment, settings.allowForkPullRequests, settings.github.eventName);
  if (!decision.allowed) {
    log.error(decision.message);
    log.setOutput('verdict', 'refused');
    return false;
  }
  if (decision.note) log.warning(`perf-gate: ${decision.note}`);
  return true;
}

export async function afterPullRequestRun(settings: Settings, outcome: RunOutcome, files: RunFiles | null, facts: RunFacts, deps: ActionDeps): Promise<void> {
  const { log } = deps;
  if (facts.pr && files !== null) {
    try {
      const claim = { pullRequest: facts.pr.number, headSha: facts.pr.headSha, gate: settings.gateName };
      log.setOutput('handoff-dir', writeHandoff(join(settings.outputDir, 'handoff'), claim, outcome.current));
    } catch (error) {
      // Only a two-stage workflow reads the handoff; its second stage will say the artifact is missing.
      if (!(error instanceof InputError)) throw error;
      log.error(`perf-gate: could not write the two-stage handoff: ${error.message}; the verdict stands`);
    }
  }
  await tellGitHub(settings, outcome, facts, deps);
}
