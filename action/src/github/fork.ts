/**
 * Fork safety. A pull request from a fork runs the fork author's code; on a
 * self-hosted runner that code runs on the project's own machine, with
 * whatever that machine can reach. So a fork's `pull_request` is refused there
 * unless the workflow explicitly allows it; the two-stage mode (benchmarks on a
 * GitHub-hosted or disposable runner, comment from `workflow_run`) is the safe
 * way to gate forks.
 */

/** The facts of the triggering pull request, from the event payload. */
export interface PullRequestFacts {
  number: number;
  headSha: string;
  baseSha: string | null;
  /** owner/name of the head repository; null when the fork was deleted. */
  headRepo: string | null;
  baseRepo: string;
  /** The head repository differs from the base repository. */
  fromFork: boolean;
  /** The branch the pull request merges into, and the repository's default branch, where the event says (a stacked pull request's base is another pull request's branch). */
  baseRef?: string | null;
  defaultBranch?: string | null;
}

/** An event payload's object at some key, or null for anything else (the payload is read, never trusted to have a shape). */
export function payloadObject(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Does a pull request come from a fork? Its head lives in another repository (or in one since deleted). */
export function isFork(headRepo: string | null, baseRepo: string): boolean {
  return headRepo === null || headRepo.toLowerCase() !== baseRepo.toLowerCase();
}

function repoName(value: unknown): string | null {
  const name = payloadObject(value)?.['full_name'];
  return typeof name === 'string' ? name : null;
}

/**
 * Reads the pull request from a `pull_request` or `pull_request_target` event
 * payload; null for any other payload. The payload is the runner's own file.
 */
export function pullRequestFromEvent(payload: unknown): PullRequestFacts | null {
  const pr = payloadObject(payloadObject(payload)?.['pull_request']);
  if (!pr) return null;
  const head = payloadObject(pr['head']);
  const base = payloadObject(pr['base']);
  const number = pr['number'];
  const headSha = head?.['sha'];
  const baseRepo = repoName(base?.['repo']);
  if (typeof number !== 'number' || typeof headSha !== 'string' || !baseRepo) return null;
  const headRepo = repoName(head?.['repo']);
  const baseSha = base?.['sha'];
  const baseRef = base?.['ref'];
  const defaultBranch = payloadObject(payloadObject(payload)?.['repository'])?.['default_branch'];
  return {
    number,
    headSha,
    baseSha: typeof baseSha === 'string' ? baseSha : null,
    headRepo,
    baseRepo,
    fromFork: isFork(headRepo, baseRepo),
    baseRef: typeof baseRef === 'string' ? baseRef : null,
    defaultBranch: typeof defaultBranch === 'string' ? defaultBranch : null,
  };
}

export type ForkDecision = { allowed: true; note: string | null } | { allowed: false; message: string };

/** Decides whether this run may go on. Pure: the caller passes the runner's environment. */
export function decideForkSafety(pr: PullRequestFacts | null, runnerEnvironment: string, allowForks: boolean, eventName = 'pull_request'): ForkDecision {
  if (!pr || !pr.fromFork) return { allowed: true, note: null };
  const selfHosted = runnerEnvironment !== 'github-hosted';
  // pull_request_target runs with a write token and the secrets: benchmarking a fork's code there is never safe by default.
  if (eventName === 'pull_request_target' && !allowForks) {
    return {
      allowed: false,
      message:
        `refusing to benchmark pull request #${pr.number} from the fork ${pr.headRepo ?? '(deleted repository)'} in a pull_request_target workflow: ` +
        `that event gives the job a write token and the repository's secrets, and the fork's benchmarks would run with them. ` +
        `What to do: use the two-stage mode (mode: pr in a pull_request workflow, then mode: report in a workflow_run workflow; see docs/github-action.md).`,
    };
  }
  if (!selfHosted) {
    return {
      allowed: true,
      note: `pull request #${pr.number} comes from a fork (${pr.headRepo ?? 'deleted repository'}); under pull_request its token is read-only, so use the two-stage mode to comment`,
    };
  }
  if (allowForks) {
    return {
      allowed: true,
      note: `pull request #${pr.number} comes from a fork (${pr.headRepo ?? 'deleted repository'}) and runs on this self-hosted runner because allow-fork-pull-requests is true`,
    };
  }
  return {
    allowed: false,
    message:
      `refusing to benchmark pull request #${pr.number}: it comes from the fork ${pr.headRepo ?? '(deleted repository)'} and this is a self-hosted runner. ` +
      `Its code would run on your machine with access to whatever the machine can reach. ` +
      `What to do: gate forks with the two-stage mode (mode: pr on a GitHub-hosted or disposable runner, then mode: report in a workflow_run workflow; see docs/github-action.md), ` +
      `or, if every fork author is trusted and the runner is disposable, set allow-fork-pull-requests: true.`,
  };
}
