/**
 * What the action knows before it runs anything: the pull request (from the
 * event, or the one `/perf-gate run` dispatched this run for), whether a
 * fork's pull request may run on this runner (mode pr), and in mode report
 * the two-stage artifact, verified against GitHub. Each is asked of GitHub
 * here, once, and handed to the plan as data.
 */
import { pullRequestFromEvent, type PullRequestFacts } from '../github/fork.js';
import { dispatchedRun, type DispatchedRun } from './pr-run-request.js';
import type { Handoff } from './handoff.js';
import type { ActionDeps } from './deps.js';
import { forkAllowed } from './mode-pr.js';
import { readTwoStageArtifact } from './mode-report.js';
import type { Settings } from './settings.js';

export interface RunFacts {
  /** The run `/perf-gate run` dispatched (its pull request and who asked), or null. */
  dispatched: DispatchedRun | null;
  /** The pull request this run gates; null on a push, a release, and in mode report (the artifact names it). */
  pr: PullRequestFacts | null;
  /** mode report: the two-stage artifact's results and claim, verified. */
  handoff: Handoff | null;
  /** The pull request the comment and the ledger belong to (the artifact's, else the event's), or null. */
  prNumber: number | null;
  /** The suites run now (no given results, no artifact). */
  measuring: boolean;
}

/** The run's facts; null when a fork's pull request is refused on this runner (the error is logged). */
export async function runFacts(settings: Settings, event: unknown, deps: ActionDeps): Promise<RunFacts | null> {
  const dispatched = await dispatchedRun(settings, event, deps);
  const pr: PullRequestFacts | null = settings.mode === 'report' ? null : (dispatched?.pr ?? pullRequestFromEvent(event));
  if (!forkAllowed(settings, pr, deps.log)) return null;
  const handoff = settings.mode === 'report' ? await readTwoStageArtifact(settings, event, deps) : null;
  return {
    dispatched,
    pr,
    handoff,
    prNumber: handoff ? handoff.claim.pullRequest : (pr?.number ?? null),
    measuring: !handoff && settings.results.length === 0,
  };
}
