/**
 * What the action knows before it runs anything: the pull request (from the
 * event, or the one `/perf-gate run` dispatched this run for), whether a
 * fork's pull request may run on this runner (mode pr), and in mode report
 * the two-stage artifact, verified against GitHub. Each is asked of GitHub
 * here, once, and handed to the plan as data.
 */
import { InputError } from '../model/index.js';
import { decideForkSafety, pullRequestFromEvent, type PullRequestFacts } from '../github/fork.js';
import { mergeGroupFromEvent, type MergeGroupFacts } from '../github/merge-group.js';
import { dispatchedRun, type DispatchedRun } from './pr-run-request.js';
import { HandoffRejected, readHandoffFolder, verifyClaim, workflowRunFromEvent, type Handoff } from './handoff.js';
import { downloadHandoff } from './handoff-download.js';
import type { ActionDeps } from './deps.js';
import type { ActionLog } from './log.js';
import { repoRef, type Settings } from './settings.js';

/** The base of a stacked pull request: its branch, the commit the event names, and the pull request whose head that branch is (null: none found). */
export interface StackedBase {
  ref: string;
  sha: string;
  pullRequest: number | null;
}

export interface RunFacts {
  /** The run `/perf-gate run` dispatched (its pull request and who asked), or null. */
  dispatched: DispatchedRun | null;
  /** The pull request this run gates; null on a push, a release, a merge group, and in mode report (the artifact names it). */
  pr: PullRequestFacts | null;
  /** mode pr on a `merge_group` event: the merge queue's group, gated against the base commit it is built on. */
  group: MergeGroupFacts | null;
  /** mode pr, a stacked pull request (its base is not the default branch): the base branch's head it is measured against. */
  stackedOn: StackedBase | null;
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
  const group = settings.mode === 'pr' && settings.github.eventName === 'merge_group' ? mergeGroupFromEvent(event) : null;
  if (group) deps.log.info(`merge group ${group.headRef}: ${group.headSha.slice(0, 12)} on ${group.baseRef} at ${group.baseSha.slice(0, 12)}`);
  return {
    dispatched,
    pr,
    group,
    stackedOn: settings.mode === 'pr' ? await stackedBase(settings, pr, deps) : null,
    handoff,
    prNumber: handoff ? handoff.claim.pullRequest : (pr?.number ?? null),
    measuring: !handoff && settings.results.length === 0,
  };
}

/** mode pr: a fork's pull request runs on a self-hosted runner only when allowed; true in other modes. */
function forkAllowed(settings: Settings, pr: PullRequestFacts | null, log: ActionLog): boolean {
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

/** mode report: the results come from the untrusted artifact, verified against GitHub first. */
function readTwoStageArtifact(settings: Settings, event: unknown, deps: ActionDeps): Promise<Handoff> {
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

/**
 * A pull request whose base is another branch than the default one is
 * stacked on that branch's pull request: the history holds only the default
 * branch, so it is measured against the base branch's head, named by the
 * pull request whose head branch it is (looked up; a failure leaves the
 * branch's name alone).
 */
async function stackedBase(settings: Settings, pr: PullRequestFacts | null, deps: ActionDeps): Promise<StackedBase | null> {
  if (!pr?.baseSha || !pr.baseRef || !pr.defaultBranch || pr.baseRef === pr.defaultBranch) return null;
  let pullRequest: number | null = null;
  if (deps.github) {
    try {
      const pulls = await deps.github.pullRequestsOfCommit(repoRef(settings), pr.baseSha);
      pullRequest = pulls.find((p) => p.state === 'open' && p.head === pr.baseRef)?.number ?? null;
    } catch (error) {
      deps.log.warning(`perf-gate: could not find the pull request of the base branch ${pr.baseRef} (${(error as Error).message})`);
    }
  }
  deps.log.info(
    `pull request #${pr.number} is stacked on ${pr.baseRef}${pullRequest !== null ? ` (#${pullRequest})` : ''}: measured interleaved against its head ${pr.baseSha.slice(0, 12)}`,
  );
  return { ref: pr.baseRef, sha: pr.baseSha, pullRequest };
}
