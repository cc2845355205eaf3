/**
 * mode pr, what the action adds after the run: the two-stage handoff (for a
 * report workflow with a write token); on a merge group that fails, which of
 * its pull requests made it slower (merge-group.ts); then the comment and
 * the check run.
 * Whether a fork's pull request may run here at all is decided before,
 * with the run's facts (run-facts.ts).
 */
import { join } from 'node:path';
import { InputError } from '../model/index.js';
import type { Budgets, PerfGateConfig, RunFiles, RunOutcome } from '../pipeline/index.js';
import { blameMergeGroup } from './merge-group.js';
import { writeHandoff } from './handoff.js';
import type { ActionDeps } from './deps.js';
import type { RunFacts } from './run-facts.js';
import type { Settings } from './settings.js';
import { tellGitHub } from './tell-github.js';

export async function afterPullRequestRun(
  settings: Settings,
  outcome: RunOutcome,
  files: RunFiles | null,
  project: { config: PerfGateConfig | null; budgets: Budgets },
  facts: RunFacts,
  deps: ActionDeps,
): Promise<void> {
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
  const blame = facts.group ? await blameMergeGroup(settings, facts.group, outcome, project, deps) : null;
  await tellGitHub(settings, outcome, facts, deps, blame);
}
