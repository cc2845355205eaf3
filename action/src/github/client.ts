/**
 * The few GitHub REST calls the action makes, behind one small interface that
 * is given a base URL and a token (so GitHub Enterprise Server and the tests'
 * loopback server work the same way). Built on @actions/github's Octokit, with
 * retries for 5xx answers and secondary rate limits (see retry.ts); a POST is
 * retried only on a secondary rate limit, never after a 5xx or a lost answer.
 *
 * This module never decides a verdict; the only environment it reads is the
 * proxy configuration, through http.ts.
 */
import { GitHub, getOctokitOptions } from '@actions/github/lib/utils';
import { DEFAULT_RETRY_POLICY, isSecondaryRateLimit, retryDelay, type FailedAnswer, type RetryPolicy } from './retry.js';
import { proxyAwareFetch } from './http.js';

/** owner/name of a repository. */
export interface RepoRef {
  owner: string;
  repo: string;
}

export interface IssueComment {
  id: number;
  body: string;
  /** Login of the comment's author; null for a deleted account ("ghost"). */
  author: string | null;
  url: string;
}

/** An issue (never a pull request) as the alert flow needs it. */
export interface IssueInfo {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  url: string;
}

export interface IssueUpdate {
  title?: string;
  body?: string;
  state?: 'open' | 'closed';
}

export interface CheckRunAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  message: string;
  title?: string;
}

export interface CheckRunOutput {
  title: string;
  summary: string;
  text?: string;
  annotations?: CheckRunAnnotation[];
}

export interface CheckRunCreate {
  name: string;
  headSha: string;
  conclusion: 'success' | 'failure' | 'neutral';
  output: CheckRunOutput;
  detailsUrl?: string;
}

export interface PullRequestInfo {
  number: number;
  headSha: string;
  /** owner/name of the head repository; null when the fork was deleted. */
  headRepo: string | null;
  baseRepo: string;
  /** The base branch's commit the pull request is compared with. */
  baseSha: string;
  state: string;
}

export interface ArtifactInfo {
  id: number;
  name: string;
  sizeInBytes: number;
  expired: boolean;
}

/** A person's role on a repository, as GitHub names it (custom roles answer their base role's permission). */
export type RepoRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

/** A pull request a commit belongs to. */
export interface CommitPullRequest {
  number: number;
  state: string;
  merged: boolean;
  /** The base branch's name. */
  base: string;
  /** The head branch's name. */
  head: string;
}

/** Everything the action asks of GitHub. Tests use the real implementation against a loopback server. */
export interface GitHubApi {
  /** The token's own login, or null when the token may not call GET /user (GITHUB_TOKEN). */
  authenticatedLogin(): Promise<string | null>;
  /** Every comment on an issue or pull request, all pages. */
  listIssueComments(repo: RepoRef, issue: number): Promise<IssueComment[]>;
  createIssueComment(repo: RepoRef, issue: number, body: string): Promise<IssueComment>;
  updateIssueComment(repo: RepoRef, commentId: number, body: string): Promise<IssueComment>;
  /** Issues carrying `label`, open and closed, all pages; pull requests left out. */
  listLabelledIssues(repo: RepoRef, label: string): Promise<IssueInfo[]>;
  createIssue(repo: RepoRef, issue: { title: string; body: string; labels: string[] }): Promise<IssueInfo>;
  updateIssue(repo: RepoRef, number: number, update: IssueUpdate): Promise<IssueInfo>;
  createCheckRun(repo: RepoRef, run: CheckRunCreate): Promise<{ id: number; url: string }>;
  /** Adds output (e.g. the next batch of annotations) to an existing check run. */
  updateCheckRun(repo: RepoRef, checkRunId: number, output: CheckRunOutput): Promise<void>;
  getPullRequest(repo: RepoRef, number: number): Promise<PullRequestInfo>;
  listRunArtifacts(repo: RepoRef, runId: number): Promise<ArtifactInfo[]>;
  /** The artifact's zip archive, at most maxBytes long. */
  downloadArtifact(repo: RepoRef, artifactId: number, maxBytes: number): Promise<Uint8Array>;
  /** A login's role on the repository; `none` for someone who is no collaborator (GitHub answers 404). */
  collaboratorRole(repo: RepoRef, login: string): Promise<RepoRole>;
  /** Starts a workflow_dispatch run of a workflow file (its name, e.g. perf-gate.yml) on a ref. */
  dispatchWorkflow(repo: RepoRef, workflow: string, ref: string, inputs: Record<string, string>): Promise<void>;
  /** The pull requests a commit belongs to (the merged one for a merge or squash commit on main). */
  pullRequestsOfCommit(repo: RepoRef, sha: string): Promise<CommitPullRequest[]>;
}

export interface ClientOptions {
  /** REST base URL, e.g. https://api.github.com or http://127.0.0.1:PORT (GITHUB_API_URL). */
  baseUrl: string;
  token: string;
  retry?: RetryPolicy;
  /** Waits between retries; injected so tests need no clock. */
  sleep?: (ms: number) => Promise<void>;
  /** Told about every retry, for the log. */
  onRetry?: (message: string) => void;
  /** Gives up on a request that has not been answered in this long (ms); default DEFAULT_REQUEST_TIMEOUT_MS. */
  timeoutMs?: number;
  userAgent?: string;
}

/** A GitHub request error reduced to what callers and the retry policy need. */
export class GitHubError extends Error {
  override readonly name = 'GitHubError';
  constructor(
    message: string,
    /** HTTP status, 0 when no answer came. */
    readonly status: number,
  ) {
    super(message);
  }
}

interface OctokitLikeError {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

function failedAnswer(error: unknown, timeoutMs?: number): FailedAnswer {
  const e = (typeof error === 'object' && error !== null ? error : {}) as OctokitLikeError;
  // A timeout reaches here as Octokit's "500" with the abort as its cause: no answer came, which the policy treats like a dropped connection.
  if ((e as { cause?: { name?: string } }).cause?.name === 'TimeoutError')
    return { status: 0, headers: {}, message: `no answer in ${Math.round((timeoutMs ?? 0) / 100) / 10} s` };
  const data = e.response?.data;
  const apiMessage =
    typeof data === 'object' && data !== null && typeof (data as { message?: unknown }).message === 'string' ? (data as { message: string }).message : '';
  return { status: e.status, headers: e.response?.headers ?? {}, message: `${e.message ?? ''} ${apiMessage}`.trim() };
}

/**
 * A request GitHub has not answered in a minute is given up: without a limit a
 * stalled connection holds the job until the workflow's own timeout (six
 * hours by default). The retry policy then decides: a GET or PATCH is sent
 * again, a POST is not (GitHub may have stored it).
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Builds the GitHub client. No request is made until a method is called. */
export function createGitHubClient(options: ClientOptions): GitHubApi {
  const policy = options.retry ?? DEFAULT_RETRY_POLICY;
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const sleep = options.sleep ?? defaultSleep;
  const octokit = new GitHub(
    getOctokitOptions(options.token, {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      userAgent: options.userAgent ?? 'perf-gate',
      // Octokit drops a per-request `signal` on its way to fetch, so the time limit is put on every fetch here;
      // getOctokitOptions' own proxy-aware fetch is replaced by one that is both (http.ts).
      request: { redirect: 'manual', fetch: proxyAwareFetch(options.baseUrl, timeoutMs) },
    }),
  );
  octokit.hook.wrap('request', async (request, requestOptions) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await request(requestOptions);
      } catch (error) {
        const answer = failedAnswer(error, timeoutMs);
        // A POST creates something (a comment, a check run) and is not idempotent.
        // GitHub often stores it and then answers 502/504, or the connection drops
        // after the write: retrying would post a duplicate. So a POST is retried
        // only on a secondary rate limit, which proves nothing was stored; GET,
        // PATCH, PUT and DELETE are safe to repeat and keep the full policy.
        const idempotent = String(requestOptions.method).toUpperCase() !== 'POST';
        const delay = idempotent || isSecondaryRateLimit(answer) ? retryDelay(answer, attempt, policy) : null;
        if (delay === null) throw error;
        options.onRetry?.(
          `GitHub ${answer.status ? `answered ${answer.status}` : `did not answer (${answer.message || 'no connection'})`} to ${String(requestOptions.method)} ${String(requestOptions.url)}; retry ${attempt + 1} of ${policy.retries} in ${Math.round(delay / 100) / 10} s`,
        );
        await sleep(delay);
      }
    }
  });

  const wrap = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (error instanceof GitHubError) throw error;
      const answer = failedAnswer(error, timeoutMs);
      throw new GitHubError(`${what}: ${answer.status ? `HTTP ${answer.status} ` : ''}${answer.message}`.trim(), answer.status ?? 0);
    }
  };

  const toComment = (c: { id: number; body?: string; user: { login: string } | null; html_url: string }): IssueComment => ({
    id: c.id,
    body: c.body ?? '',
    author: c.user?.login ?? null,
    url: c.html_url,
  });

  const toIssue = (i: { number: number; title: string; body?: string | null; state: string; html_url: string }): IssueInfo => ({
    number: i.number,
    title: i.title,
    body: i.body ?? '',
    state: i.state === 'closed' ? 'closed' : 'open',
    url: i.html_url,
  });

  return {
    authenticatedLogin: () =>
      wrap('GET /user', async () => {
        try {
          const { data } = await octokit.rest.users.getAuthenticated();
          return data.login;
        } catch (error) {
          // An installation token (GITHUB_TOKEN) is refused here with 403 "Resource not accessible by integration".
          if (failedAnswer(error).status === 403) return null;
          throw error;
        }
      }),
    listIssueComments: (repo, issue) =>
      wrap(`list comments of #${issue}`, async () => {
        const all = await octokit.paginate(octokit.rest.issues.listComments, { ...repo, issue_number: issue, per_page: 100 });
        return all.map(toComment);
      }),
    createIssueComment: (repo, issue, body) =>
      wrap(`comment on #${issue}`, async () => toComment((await octokit.rest.issues.createComment({ ...repo, issue_number: issue, body })).data)),
    updateIssueComment: (repo, commentId, body) =>
      wrap(`update comment ${commentId}`, async () => toComment((await octokit.rest.issues.updateComment({ ...repo, comment_id: commentId, body })).data)),
    listLabelledIssues: (repo, label) =>
      wrap(`list issues labelled ${label}`, async () => {
        const all = await octokit.paginate(octokit.rest.issues.listForRepo, { ...repo, labels: label, state: 'all', per_page: 100 });
        return all.filter((i) => !i.pull_request).map(toIssue);
      }),
    createIssue: (repo, issue) => wrap(`create issue "${issue.title}"`, async () => toIssue((await octokit.rest.issues.create({ ...repo, ...issue })).data)),
    updateIssue: (repo, number, update) =>
      wrap(`update issue #${number}`, async () => toIssue((await octokit.rest.issues.update({ ...repo, issue_number: number, ...update })).data)),
    createCheckRun: (repo, run) =>
      wrap(`create check run "${run.name}"`, async () => {
        const { data } = await octokit.rest.checks.create({
          ...repo,
          name: run.name,
          head_sha: run.headSha,
          status: 'completed',
          conclusion: run.conclusion,
          completed_at: new Date().toISOString(),
          output: run.output,
          ...(run.detailsUrl ? { details_url: run.detailsUrl } : {}),
        });
        return { id: data.id, url: data.html_url ?? data.url };
      }),
    updateCheckRun: (repo, checkRunId, output) =>
      wrap(`update check run ${checkRunId}`, async () => {
        await octokit.rest.checks.update({ ...repo, check_run_id: checkRunId, output });
      }),
    collaboratorRole: (repo, login) =>
      wrap(`get the permission of ${login}`, async () => {
        try {
          const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: login });
          const role = (data.role_name || data.permission) as string;
          return (['admin', 'maintain', 'write', 'triage', 'read'].includes(role) ? role : data.permission) as RepoRole;
        } catch (error) {
          if (failedAnswer(error).status === 404) return 'none';
          throw error;
        }
      }),
    dispatchWorkflow: (repo, workflow, ref, inputs) =>
      wrap(`start workflow ${workflow}`, async () => {
        await octokit.rest.actions.createWorkflowDispatch({ ...repo, workflow_id: workflow, ref, inputs });
      }),
    pullRequestsOfCommit: (repo, sha) =>
      wrap(`list the pull requests of ${sha.slice(0, 7)}`, async () => {
        const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({ ...repo, commit_sha: sha, per_page: 100 });
        return data.map((p) => ({
          number: p.number,
          state: p.state,
          merged: p.merged_at !== null && p.merged_at !== undefined,
          base: p.base.ref,
          head: p.head.ref,
        }));
      }),
    getPullRequest: (repo, number) =>
      wrap(`get pull request #${number}`, async () => {
        const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: number });
        return {
          number: data.number,
          headSha: data.head.sha,
          headRepo: data.head.repo?.full_name ?? null,
          baseRepo: data.base.repo.full_name,
          baseSha: data.base.sha,
          state: data.state,
        };
      }),
    listRunArtifacts: (repo, runId) =>
      wrap(`list artifacts of run ${runId}`, async () => {
        const all = await octokit.paginate(octokit.rest.actions.listWorkflowRunArtifacts, { ...repo, run_id: runId, per_page: 100 });
        return all.map((a) => ({ id: a.id, name: a.name, sizeInBytes: a.size_in_bytes, expired: a.expired }));
      }),
    downloadArtifact: (repo, artifactId, maxBytes) =>
      wrap(`download artifact ${artifactId}`, async () => {
        let location: string | undefined;
        try {
          const answer = await octokit.rest.actions.downloadArtifact({ ...repo, artifact_id: artifactId, archive_format: 'zip' });
          location = typeof answer.headers.location === 'string' ? answer.headers.location : undefined;
          if (!location && answer.data instanceof ArrayBuffer) return limit(new Uint8Array(answer.data), maxBytes);
        } catch (error) {
          const e = error as OctokitLikeError;
          if (e.status !== 302) throw error;
          const header = e.response?.headers?.location;
          location = typeof header === 'string' ? header : undefined;
        }
        if (!location) throw new GitHubError(`download artifact ${artifactId}: no archive location in the answer`, 0);
        // The archive URL is pre-signed: send no token to it.
        const response = await proxyAwareFetch(location, timeoutMs)(location, { redirect: 'follow' });
        if (!response.ok) throw new GitHubError(`download artifact ${artifactId}: HTTP ${response.status} from the archive URL`, response.status);
        const declared = Number(response.headers.get('content-length') ?? '0');
        if (declared > maxBytes) throw new GitHubError(`download artifact ${artifactId}: ${declared} bytes, more than the ${maxBytes} allowed`, 0);
        return limit(new Uint8Array(await response.arrayBuffer()), maxBytes);
      }),
  };
}

function limit(bytes: Uint8Array, maxBytes: number): Uint8Array {
  if (bytes.byteLength > maxBytes) throw new GitHubError(`artifact archive is ${bytes.byteLength} bytes, more than the ${maxBytes} allowed`, 0);
  return bytes;
}
