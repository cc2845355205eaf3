/**
 * mode report, the second job of a two-stage workflow (a fork's pull request
 * measured without a write token): after the run, the comment and the check
 * run. The artifact the first job left is read and verified against GitHub
 * before, with the run's facts (run-facts.ts).
 */
import type { RunOutcome } from '../pipeline/index.js';
import type { ActionDeps } from './deps.js';
import type { RunFacts } from './run-facts.js';
import type { Settings } from './settings.js';
import { tellGitHub } from './tell-github.js';

export function afterReportRun(settings: Settings, outcome: RunOutcome, facts: RunFacts, deps: ActionDeps): Promise<void> {
  return tellGitHub(settings, outcome, facts, deps);
}
