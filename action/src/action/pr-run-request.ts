/**
 * `/perf-gate run`: a maintainer asks for the gate on a pull request. The
 * command job starts the benchmark workflow through workflow_dispatch, with
 * the pull request's number and who asked when; that workflow's concurrency
 * group queues it behind any run already on the runner, since two runs on
 * one machine spoil each other's timings. The gate's comment says
 * "requested, queued" now; the run says "started" and "finished".
 */
import { InputError } from '../model/index.js';
import { checkoutCommit, type RunStatus } from '../pipeline/index.js';
import type { GitHubApi, RepoRef } from '../github/client.js';
import { isFork, type PullRequestFacts } from '../github/fork.js';
import type { ActionDeps } from './deps.js';
import { sayRunStatus } from './pr-comment.js';
import { repoRef, type Settings } from './settings.js';

export interface RunRequest {
  pullRequest: number;
  login: string;
  /** The branch whose version of the workflow file runs (the repository's default branch). */
  ref: string;
}

/** The dispatched workflow's inputs: what the run needs to find its pull request and say who asked. */
export const RUN_INPUTS = { pullRequest: 'pull-request', requestedBy: 'requested-by', requestedAt: 'requested-at' } as const;

export async function requestRun(
  settings: Settings,
  github: GitHubApi,
  repo: RepoRef,
  request: RunRequest,
  deps: ActionDeps,
  reply: (text: string) => Promise<void>,
): Promise<void> {
  if (settings.runWorkflow === '') {
    await reply(`@${request.login}: \`/perf-gate run\` is not set up here: the command workflow names no benchmark workflow (its input \`run-workflow\`).`);
    return;
  }
  const pr = await github.getPullRequest(repo, request.pullRequest);
  if (pr.state !== 'open') {
    await reply(`@${request.login}: pull request #${pr.number} is ${pr.state}; only an open one is measured.`);
    return;
  }
  if (isFork(pr.headRepo, pr.baseRepo) && !settings.allowForkPullRequests) {
    await reply(
      `@${request.login}: this pull request comes from a fork, and its code is not run on the self-hosted benchmark runner on request. Gate it with the two-stage workflows (measure on a disposable runner, post from \`workflow_run\`).`,
    );
    return;
  }
  const requested = deps.run.now().toISOString();
  await github.dispatchWorkflow(repo, settings.runWorkflow, request.ref, {
    [RUN_INPUTS.pullRequest]: String(pr.number),
    [RUN_INPUTS.requestedBy]: request.login,
    [RUN_INPUTS.requestedAt]: requested,
  });
  deps.log.info(`started ${settings.runWorkflow} on ${request.ref} for #${pr.number} at ${pr.headSha.slice(0, 7)}`);
  await sayRunStatus(github, repo, pr.number, settings, { by: request.login, requested });
}

/** A run started by `/perf-gate run`: the pull request it measures and the status it reports. */
export interface DispatchedRun {
  pr: PullRequestFacts;
  status: RunStatus;
}

/**
 * mode pr in a workflow_dispatch run started by `/perf-gate run`: the pull
 * request from the API (the event carries only its number), and the comment
 * told that the run started. Null for any other event.
 */
export async function dispatchedRun(settings: Settings, payload: unknown, deps: ActionDeps): Promise<DispatchedRun | null> {
  if (settings.mode !== 'pr' || settings.github.eventName !== 'workflow_dispatch') return null;
  const inputs = (payload as { inputs?: Record<string, unknown> } | null)?.inputs ?? {};
  // A workflow_dispatch run without the input gates the checkout as it is, with no pull request to tell.
  if (inputs[RUN_INPUTS.pullRequest] === undefined || inputs[RUN_INPUTS.pullRequest] === '') return null;
  const number = Number(inputs[RUN_INPUTS.pullRequest]);
  if (!Number.isInteger(number) || number <= 0) {
    throw new InputError(
      'workflow_dispatch inputs',
      `"${RUN_INPUTS.pullRequest}" must be the pull request's number; a mode: pr run started by hand or by /perf-gate run needs it`,
    );
  }
  if (!deps.github) throw new InputError('action input "github-token"', 'a run started for a pull request needs a token to look the pull request up');
  const repo = repoRef(settings);
  const info = await deps.github.getPullRequest(repo, number);
  // The verdict belongs to the commit that is measured: the checkout, which a push after the request can leave behind the API's head.
  const checkedOut = checkoutCommit(settings.workingDirectory);
  if (checkedOut !== undefined && checkedOut !== info.headSha)
    deps.log.warning(
      `perf-gate: the checkout is at ${checkedOut.slice(0, 12)}, but pull request #${number}'s head is now ${info.headSha.slice(0, 12)} (pushed since the run was asked for?): the run measures and reports on ${checkedOut.slice(0, 12)}, the commit checked out`,
    );
  const pr: PullRequestFacts = {
    number,
    headSha: checkedOut ?? info.headSha,
    baseSha: info.baseSha,
    headRepo: info.headRepo,
    baseRepo: info.baseRepo,
    fromFork: isFork(info.headRepo, info.baseRepo),
  };
  const by =
    typeof inputs[RUN_INPUTS.requestedBy] === 'string' && inputs[RUN_INPUTS.requestedBy] !== '' ? String(inputs[RUN_INPUTS.requestedBy]) : 'workflow_dispatch';
  const requested = typeof inputs[RUN_INPUTS.requestedAt] === 'string' ? String(inputs[RUN_INPUTS.requestedAt]) : deps.run.now().toISOString();
  const status: RunStatus = {
    by,
    requested: /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(requested) ? requested : deps.run.now().toISOString(),
    started: deps.run.now().toISOString(),
  };
  try {
    await sayRunStatus(deps.github, repo, number, settings, status);
  } catch (error) {
    deps.log.warning(`perf-gate: could not say in the pull request comment that the run started (${(error as Error).message})`);
  }
  return { pr, status };
}
