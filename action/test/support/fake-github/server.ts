/**
 * A loopback stand-in for the part of GitHub's REST API that perf-gate uses.
 * It keeps state (users, comments, check runs, pull requests, artifacts) and
 * checks EVERY request it receives and EVERY response it sends against GitHub's
 * official OpenAPI description (see openapi.ts). A request that does not match
 * the description is answered 422 and recorded in `violations`; tests assert
 * that list is empty, so an invalid request can never pass unnoticed.
 *
 * Faults (5xx, secondary rate limits, stalls) are injected per operation with
 * `failNext`; their bodies are validated against the spec's basic-error schema.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OpenAPIBackend, Operation } from 'openapi-backend';
import { Ajv } from 'ajv';
import { basicErrorSchema, githubApi } from './openapi.js';

type Json = Record<string, unknown>;

export interface FakeUser {
  login: string;
  id: number;
  type: 'User' | 'Bot';
}

export interface StoredComment {
  id: number;
  issue: number;
  body: string;
  user: FakeUser;
  created_at: string;
  updated_at: string;
}

export interface StoredIssue {
  number: number;
  repo: string;
  title: string;
  body: string;
  state: 'open' | 'closed';
  labels: string[];
  user: FakeUser;
  /** Every request body received for this issue (create, then each update), in order. */
  requests: Json[];
}

export interface StoredCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  output: { title: string | null; summary: string | null; text: string | null; annotations: Json[] };
  /** Every request body received for this check run, in order. */
  requests: Json[];
}

export interface StoredPull {
  number: number;
  headSha: string;
  headRepo: string;
  baseRepo: string;
  /** The head and base branches' names (default: the description's example). */
  headRef?: string;
  baseRef?: string;
  /** Still open (default: merged, as the commit lookup of a merge finds it). */
  open?: boolean;
}

export interface StoredArtifact {
  id: number;
  runId: number;
  name: string;
  zip: Uint8Array;
}

export interface Fault {
  status: number;
  headers?: Record<string, string>;
  message: string;
  /** Wait this long before answering (a stalled GitHub; the client's timeout should fire first). */
  hangMs?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  operationId: string | null;
  status: number;
}

export interface FakeGitHub {
  url: string;
  /** Token → user; a token mapped to null acts like GITHUB_TOKEN (GET /user answers 403). */
  tokens: Map<string, FakeUser | null>;
  /** Tokens that may only read (a fork's GITHUB_TOKEN): writes answer 403. */
  readOnly: Set<string>;
  comments: StoredComment[];
  /** Issues (not pull requests) created through the API or added by a test. */
  issues: StoredIssue[];
  checkRuns: StoredCheckRun[];
  pulls: Map<string, StoredPull>;
  artifacts: StoredArtifact[];
  /** "owner/name#login" → the login's role; anyone else reads (a public repository). */
  roles: Map<string, 'admin' | 'maintain' | 'write' | 'triage' | 'read'>;
  /** workflow_dispatch runs started through the API. */
  dispatches: { repo: string; workflow: string; ref: string; inputs: Record<string, unknown> }[];
  /** "owner/name@sha" → the numbers of the stored pull requests that commit belongs to. */
  commitPulls: Map<string, number[]>;
  requests: RecordedRequest[];
  /** Every request or response that did not match GitHub's OpenAPI description. */
  violations: string[];
  /** Queue a fault for the next request to an operation (by operationId, e.g. "issues/create-comment"). */
  failNext(operationId: string, fault: Fault): void;
  /** Run `change` just before the next request to an operation is handled (a race: someone deletes the comment between list and update). */
  beforeNext(operationId: string, change: () => void): void;
  /** Adds a comment as if written by `user` (to test that other people's comments are left alone). */
  addComment(repo: string, issue: number, user: FakeUser, body: string): StoredComment;
  addPull(repo: string, pull: StoredPull): void;
  close(): Promise<void>;
}

const TIME = '2026-11-21T12:00:00Z';
const GITHUB_ACTIONS_BOT: FakeUser = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };

function userJson(user: FakeUser, base: string): Json {
  const u = `${base}/users/${encodeURIComponent(user.login)}`;
  return {
    login: user.login,
    id: user.id,
    node_id: `U_${user.id}`,
    avatar_url: `https://avatars.example.com/u/${user.id}`,
    gravatar_id: '',
    url: u,
    html_url: `https://github.example.com/${encodeURIComponent(user.login)}`,
    followers_url: `${u}/followers`,
    following_url: `${u}/following{/other_user}`,
    gists_url: `${u}/gists{/gist_id}`,
    starred_url: `${u}/starred{/owner}{/repo}`,
    subscriptions_url: `${u}/subscriptions`,
    organizations_url: `${u}/orgs`,
    repos_url: `${u}/repos`,
    events_url: `${u}/events{/privacy}`,
    received_events_url: `${u}/received_events`,
    type: user.type,
    site_admin: false,
  };
}

function commentJson(c: StoredComment, repo: string, base: string): Json {
  return {
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${base}/repos/${repo}/issues/comments/${c.id}`,
    html_url: `https://github.example.com/${repo}/pull/${c.issue}#issuecomment-${c.id}`,
    body: c.body,
    user: userJson(c.user, base),
    created_at: c.created_at,
    updated_at: c.updated_at,
    issue_url: `${base}/repos/${repo}/issues/${c.issue}`,
    author_association: 'NONE',
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 4 * 1024 * 1024) reject(new Error('request body over 4 MiB'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw bytes (artifact archive), not validated as JSON. */
  raw?: Uint8Array;
}

/** Starts the server on 127.0.0.1 (a free port). */
export async function startFakeGitHub(): Promise<FakeGitHub> {
  const api: OpenAPIBackend = await githubApi();
  const validateBasicError = new Ajv({ strict: false, allErrors: true }).compile(basicErrorSchema());
  const faults = new Map<string, Fault[]>();
  const races = new Map<string, (() => void)[]>();
  let nextId = 1000;
  const state: Omit<FakeGitHub, 'url' | 'close' | 'failNext' | 'beforeNext' | 'addComment' | 'addPull'> = {
    tokens: new Map(),
    readOnly: new Set(),
    comments: [],
    issues: [],
    checkRuns: [],
    pulls: new Map(),
    artifacts: [],
    roles: new Map(),
    dispatches: [],
    commitPulls: new Map(),
    requests: [],
    violations: [],
  };
  let base = '';
  const commentRepo = new Map<number, string>();

  const violation = (text: string): void => {
    state.violations.push(text);
  };

  function checkRunJson(run: StoredCheckRun, repo: string): Json {
    return {
      id: run.id,
      head_sha: run.head_sha,
      node_id: `CR_${run.id}`,
      external_id: '',
      url: `${base}/repos/${repo}/check-runs/${run.id}`,
      html_url: `https://github.example.com/${repo}/runs/${run.id}`,
      details_url: null,
      status: run.status,
      conclusion: run.conclusion,
      started_at: TIME,
      completed_at: run.status === 'completed' ? TIME : null,
      output: {
        title: run.output.title,
        summary: run.output.summary,
        text: run.output.text,
        annotations_count: run.output.annotations.length,
        annotations_url: `${base}/repos/${repo}/check-runs/${run.id}/annotations`,
      },
      name: run.name,
      check_suite: { id: 1 },
      app: null,
      pull_requests: [],
    };
  }

  /** An issue as GitHub answers it: the description's own example, with the stored fields put in. */
  function issueJson(issue: StoredIssue): Json {
    const copy = structuredClone(api.mockResponseForOperation('issues/create', { code: 201 }).mock as Json);
    const url = `${base}/repos/${issue.repo}/issues/${issue.number}`;
    delete copy['pull_request'];
    return {
      ...copy,
      id: 5000 + issue.number,
      node_id: `I_${issue.number}`,
      number: issue.number,
      title: issue.title,
      body: issue.body,
      state: issue.state,
      state_reason: issue.state === 'closed' ? 'completed' : null,
      closed_at: issue.state === 'closed' ? TIME : null,
      url,
      html_url: `https://github.example.com/${issue.repo}/issues/${issue.number}`,
      comments_url: `${url}/comments`,
      events_url: `${url}/events`,
      labels_url: `${url}/labels{/name}`,
      repository_url: `${base}/repos/${issue.repo}`,
      user: userJson(issue.user, base),
      labels: issue.labels.map((name, i) => ({
        id: 700 + i,
        node_id: `L_${i}`,
        url: `${base}/repos/${issue.repo}/labels/${encodeURIComponent(name)}`,
        name,
        color: 'ededed',
        default: false,
        description: null,
      })),
      comments: state.comments.filter((c) => c.issue === issue.number && commentRepo.get(c.id) === issue.repo).length,
      created_at: TIME,
      updated_at: TIME,
    };
  }

  function pullJson(mock: Json, pull: StoredPull, repo: string): Json {
    const copy = structuredClone(mock);
    const head = copy['head'] as Json;
    const baseSide = copy['base'] as Json;
    copy['number'] = pull.number;
    // The description's own example lists a team without the now-required "type"; ours has none.
    copy['requested_teams'] = [];
    head['sha'] = pull.headSha;
    if (pull.headRef !== undefined) head['ref'] = pull.headRef;
    if (pull.baseRef !== undefined) baseSide['ref'] = pull.baseRef;
    (head['repo'] as Json)['full_name'] = pull.headRepo;
    (baseSide['repo'] as Json)['full_name'] = pull.baseRepo;
    copy['url'] = `${base}/repos/${repo}/pulls/${pull.number}`;
    return copy;
  }

  async function handle(
    req: IncomingMessage,
    operationId: string,
    params: Record<string, string>,
    query: Record<string, string>,
    body: Json | undefined,
    user: FakeUser | null | undefined,
  ): Promise<Answer> {
    const repo = `${params['owner']}/${params['repo']}`;
    switch (operationId) {
      case 'users/get-authenticated': {
        if (user === null)
          return {
            status: 403,
            body: {
              message: 'Resource not accessible by integration',
              documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
            },
          };
        const u = user!;
        return {
          status: 200,
          body: {
            ...userJson(u, base),
            name: null,
            company: null,
            blog: null,
            location: null,
            email: null,
            hireable: null,
            bio: null,
            public_repos: 0,
            public_gists: 0,
            followers: 0,
            following: 0,
            created_at: TIME,
            updated_at: TIME,
          },
        };
      }
      case 'issues/list-comments': {
        const issue = Number(params['issue_number']);
        const all = state.comments.filter((c) => c.issue === issue && commentRepo.get(c.id) === repo);
        const perPage = Math.min(Number(query['per_page'] ?? 30), 100);
        const page = Number(query['page'] ?? 1);
        const slice = all.slice((page - 1) * perPage, page * perPage);
        const headers: Record<string, string> = {};
        if (page * perPage < all.length) {
          headers['link'] = `<${base}/repos/${repo}/issues/${issue}/comments?per_page=${perPage}&page=${page + 1}>; rel="next"`;
        }
        return { status: 200, body: slice.map((c) => commentJson(c, repo, base)), headers };
      }
      case 'issues/create-comment': {
        const comment: StoredComment = {
          id: nextId++,
          issue: Number(params['issue_number']),
          body: String(body?.['body']),
          user: user ?? GITHUB_ACTIONS_BOT,
          created_at: TIME,
          updated_at: TIME,
        };
        if (comment.body.length > 65_536)
          return {
            status: 422,
            body: {
              message: 'Validation Failed',
              documentation_url: 'https://docs.github.com/rest',
              errors: ['body is too long (maximum is 65536 characters)'],
            },
          };
        state.comments.push(comment);
        commentRepo.set(comment.id, repo);
        return { status: 201, body: commentJson(comment, repo, base), headers: { location: `${base}/repos/${repo}/issues/comments/${comment.id}` } };
      }
      case 'issues/update-comment': {
        const id = Number(params['comment_id']);
        const comment = state.comments.find((c) => c.id === id && commentRepo.get(c.id) === repo);
        if (!comment) return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
        const author = user ?? GITHUB_ACTIONS_BOT;
        if (comment.user.login !== author.login)
          return { status: 403, body: { message: "You cannot edit another user's comment", documentation_url: 'https://docs.github.com/rest' } };
        const text = String(body?.['body']);
        if (text.length > 65_536) return { status: 422, body: { message: 'Validation Failed', documentation_url: 'https://docs.github.com/rest' } };
        comment.body = text;
        comment.updated_at = '2026-11-21T12:30:00Z';
        return { status: 200, body: commentJson(comment, repo, base) };
      }
      case 'issues/list-for-repo': {
        const wanted = query['state'] ?? 'open';
        const labels = (query['labels'] ?? '').split(',').filter((l) => l !== '');
        const all = state.issues.filter((i) => i.repo === repo && (wanted === 'all' || i.state === wanted) && labels.every((l) => i.labels.includes(l)));
        const perPage = Math.min(Number(query['per_page'] ?? 30), 100);
        const page = Number(query['page'] ?? 1);
        const headers: Record<string, string> = {};
        if (page * perPage < all.length) {
          headers['link'] =
            `<${base}/repos/${repo}/issues?state=${wanted}&labels=${encodeURIComponent(labels.join(','))}&per_page=${perPage}&page=${page + 1}>; rel="next"`;
        }
        return { status: 200, body: all.slice((page - 1) * perPage, page * perPage).map(issueJson), headers };
      }
      case 'issues/create': {
        const text = String(body?.['body'] ?? '');
        if (text.length > 65_536) return { status: 422, body: { message: 'Validation Failed', documentation_url: 'https://docs.github.com/rest' } };
        const labels = ((body?.['labels'] ?? []) as unknown[]).map((l) => (typeof l === 'string' ? l : String((l as Json)['name'])));
        // Issues and pull requests share their numbers.
        const number = Math.max(0, ...state.issues.map((i) => i.number), ...[...state.pulls.values()].map((p) => p.number)) + 1;
        const issue: StoredIssue = {
          number,
          repo,
          title: String(body?.['title']),
          body: text,
          state: 'open',
          labels,
          user: user ?? GITHUB_ACTIONS_BOT,
          requests: [body ?? {}],
        };
        state.issues.push(issue);
        return { status: 201, body: issueJson(issue), headers: { location: `${base}/repos/${repo}/issues/${number}` } };
      }
      case 'issues/update': {
        const issue = state.issues.find((i) => i.repo === repo && i.number === Number(params['issue_number']));
        if (!issue) return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
        issue.requests.push(body ?? {});
        if (typeof body?.['body'] === 'string') {
          if (body['body'].length > 65_536) return { status: 422, body: { message: 'Validation Failed', documentation_url: 'https://docs.github.com/rest' } };
          issue.body = body['body'];
        }
        if (typeof body?.['title'] === 'string') issue.title = body['title'];
        if (body?.['state'] === 'open' || body?.['state'] === 'closed') issue.state = body['state'];
        return { status: 200, body: issueJson(issue) };
      }
      case 'checks/create': {
        const output = (body?.['output'] ?? {}) as Json;
        const run: StoredCheckRun = {
          id: nextId++,
          name: String(body?.['name']),
          head_sha: String(body?.['head_sha']),
          status: String(body?.['status'] ?? 'queued'),
          conclusion: typeof body?.['conclusion'] === 'string' ? (body['conclusion'] as string) : null,
          output: {
            title: (output['title'] as string) ?? null,
            summary: (output['summary'] as string) ?? null,
            text: (output['text'] as string) ?? null,
            annotations: [...((output['annotations'] as Json[]) ?? [])],
          },
          requests: [body ?? {}],
        };
        state.checkRuns.push(run);
        return { status: 201, body: checkRunJson(run, repo) };
      }
      case 'checks/update': {
        const id = Number(params['check_run_id']);
        const run = state.checkRuns.find((r) => r.id === id);
        if (!run) return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
        run.requests.push(body ?? {});
        const output = (body?.['output'] ?? null) as Json | null;
        if (output) {
          run.output.title = (output['title'] as string) ?? run.output.title;
          run.output.summary = (output['summary'] as string) ?? run.output.summary;
          run.output.annotations.push(...((output['annotations'] as Json[]) ?? []));
        }
        if (typeof body?.['conclusion'] === 'string') run.conclusion = body['conclusion'] as string;
        return { status: 200, body: checkRunJson(run, repo) };
      }
      case 'pulls/get': {
        const pull = state.pulls.get(`${repo}#${params['pull_number']}`);
        if (!pull) return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
        const mock = api.mockResponseForOperation('pulls/get', { code: 200 }).mock as Json;
        return { status: 200, body: pullJson(mock, pull, repo) };
      }
      case 'actions/list-workflow-run-artifacts': {
        const runId = Number(params['run_id']);
        const list = state.artifacts.filter((a) => a.runId === runId);
        return {
          status: 200,
          body: {
            total_count: list.length,
            artifacts: list.map((a) => ({
              id: a.id,
              node_id: `A_${a.id}`,
              name: a.name,
              size_in_bytes: a.zip.byteLength,
              url: `${base}/repos/${repo}/actions/artifacts/${a.id}`,
              archive_download_url: `${base}/repos/${repo}/actions/artifacts/${a.id}/zip`,
              expired: false,
              created_at: TIME,
              expires_at: '2026-12-21T12:00:00Z',
              updated_at: TIME,
            })),
          },
        };
      }
      case 'actions/download-artifact': {
        const artifact = state.artifacts.find((a) => a.id === Number(params['artifact_id']));
        if (!artifact) return { status: 410, body: { message: 'Gone', documentation_url: 'https://docs.github.com/rest' } };
        return { status: 302, headers: { location: `${base}/_archives/${artifact.id}.zip` } };
      }
      case 'repos/get-collaborator-permission-level': {
        const login = params['username']!;
        const role = state.roles.get(`${repo}#${login}`) ?? 'read';
        const mock = structuredClone(api.mockResponseForOperation(operationId, { code: 200 }).mock as Json);
        // The REST permission folds maintain into write and triage into read; role_name keeps the role.
        const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
        const user = {
          ...(mock['user'] as Json),
          ...userJson({ login, id: 9000 + login.length, type: 'User' }, base),
          permissions: undefined,
          role_name: role,
        };
        delete user['permissions'];
        return { status: 200, body: { ...mock, permission, role_name: role, user } };
      }
      case 'actions/create-workflow-dispatch': {
        state.dispatches.push({
          repo,
          workflow: params['workflow_id']!,
          ref: String(body?.['ref'] ?? ''),
          inputs: (body?.['inputs'] as Record<string, unknown>) ?? {},
        });
        return { status: 204 };
      }
      case 'repos/list-pull-requests-associated-with-commit': {
        const numbers = state.commitPulls.get(`${repo}@${params['commit_sha']}`) ?? [];
        const mock = api.mockResponseForOperation(operationId, { code: 200 }).mock as Json[];
        return {
          status: 200,
          body: numbers.map((n) => {
            const pull = state.pulls.get(`${repo}#${n}`)!;
            const json = pullJson(mock[0]!, pull, repo);
            return pull.open ? { ...json, state: 'open', merged_at: null } : { ...json, state: 'closed', merged_at: TIME };
          }),
        };
      }
      default:
        void req;
        return { status: 500, body: { message: `fake GitHub: ${operationId} not implemented` } };
    }
  }

  /**
   * Every answer is checked before it is sent: against the operation's own
   * response schema when the description documents the status, else against
   * GitHub's basic-error shape.
   */
  function checkResponse(operation: Operation, operationId: string, answer: Answer): void {
    if (answer.body === undefined || answer.raw) return;
    const documented = Object.keys(operation.responses ?? {}).includes(String(answer.status));
    if (documented) {
      const check = api.validateResponse(answer.body, operation, answer.status);
      if (check.errors && check.errors.length > 0) {
        violation(
          `${operationId} ${answer.status}: the fake server's response does not match the OpenAPI description: ${JSON.stringify(check.errors).slice(0, 2000)}`,
        );
      }
    } else if (!validateBasicError(answer.body)) {
      violation(`${operationId} ${answer.status}: the error body is not GitHub's basic-error shape: ${JSON.stringify(validateBasicError.errors)}`);
    }
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = (req.method ?? 'GET').toLowerCase();
      const send = (answer: Answer, operationId: string | null): void => {
        state.requests.push({ method: method.toUpperCase(), path: url.pathname, operationId, status: answer.status });
        const headers: Record<string, string> = { ...(answer.headers ?? {}) };
        if (answer.raw) {
          res.writeHead(answer.status, { ...headers, 'content-type': 'application/zip', 'content-length': String(answer.raw.byteLength) });
          res.end(Buffer.from(answer.raw));
          return;
        }
        const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
        if (text !== '') headers['content-type'] = 'application/json; charset=utf-8';
        res.writeHead(answer.status, headers);
        res.end(text);
      };

      const sendChecked = (operation: Operation, operationId: string, answer: Answer): void => {
        checkResponse(operation, operationId, answer);
        send(answer, operationId);
      };

      // Pre-signed archive download (not part of the REST description): no token may be sent here.
      const archive = /^\/_archives\/(\d+)\.zip$/.exec(url.pathname);
      if (archive) {
        if (req.headers.authorization) violation(`the archive download carried an Authorization header`);
        const artifact = state.artifacts.find((a) => a.id === Number(archive[1]));
        send(artifact ? { status: 200, raw: artifact.zip } : { status: 404, body: {} }, null);
        return;
      }

      const rawBody = await readBody(req);
      let body: Json | undefined;
      if (rawBody !== '') {
        try {
          body = JSON.parse(rawBody) as Json;
        } catch {
          violation(`${method.toUpperCase()} ${url.pathname}: body is not JSON`);
          send({ status: 400, body: { message: 'Problems parsing JSON' } }, null);
          return;
        }
      }
      const query = Object.fromEntries(url.searchParams.entries());
      const request = { method, path: url.pathname, query, headers: req.headers as Record<string, string>, body };
      const operation = api.matchOperation(request);
      if (!operation) {
        violation(`${method.toUpperCase()} ${url.pathname}: no such operation in GitHub's OpenAPI description (or not one perf-gate should use)`);
        send({ status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } }, null);
        return;
      }
      const operationId = operation.operationId!;
      const validation = api.validateRequest(request, operation);
      if (!validation.valid) {
        violation(
          `${method.toUpperCase()} ${url.pathname} (${operationId}): request does not match the OpenAPI description: ${JSON.stringify(validation.errors)}`,
        );
        send({ status: 422, body: { message: 'Validation Failed', documentation_url: 'https://docs.github.com/rest' } }, operationId);
        return;
      }
      if (body !== undefined && !/^application\/json/.test(req.headers['content-type'] ?? '')) {
        violation(`${method.toUpperCase()} ${url.pathname}: JSON body sent as ${req.headers['content-type'] ?? 'no content type'}`);
      }
      const auth = /^(?:token|bearer) (.+)$/i.exec(req.headers.authorization ?? '');
      const token = auth?.[1];
      if (!token || !state.tokens.has(token)) {
        sendChecked(operation, operationId, { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } });
        return;
      }
      if (method !== 'get' && state.readOnly.has(token)) {
        sendChecked(operation, operationId, {
          status: 403,
          body: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' },
        });
        return;
      }
      races.get(operationId)?.shift()?.();
      const fault = faults.get(operationId)?.shift();
      if (fault?.hangMs !== undefined) await new Promise((resolve) => setTimeout(resolve, fault.hangMs));
      if (fault) {
        const faultAnswer: Answer = {
          status: fault.status,
          body: { message: fault.message, documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' },
          headers: fault.headers ?? {},
        };
        checkResponse(operation, operationId, faultAnswer);
        send(faultAnswer, operationId);
        return;
      }
      const answer = await handle(
        req,
        operationId,
        (operation as unknown as { params?: Record<string, string> }).params ?? pathParams(operation.path!, url.pathname),
        query,
        body,
        state.tokens.get(token),
      );
      checkResponse(operation, operationId, answer);
      send(answer, operationId);
    })().catch((error: unknown) => {
      violation(`fake GitHub crashed: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return {
    ...state,
    url: base,
    failNext(operationId, fault) {
      if (!api.getOperation(operationId)) throw new Error(`no operation ${operationId}`);
      faults.set(operationId, [...(faults.get(operationId) ?? []), fault]);
    },
    beforeNext(operationId, change) {
      if (!api.getOperation(operationId)) throw new Error(`no operation ${operationId}`);
      races.set(operationId, [...(races.get(operationId) ?? []), change]);
    },
    addComment(repo, issue, user, body) {
      const comment: StoredComment = { id: nextId++, issue, body, user, created_at: TIME, updated_at: TIME };
      state.comments.push(comment);
      commentRepo.set(comment.id, repo);
      return comment;
    },
    addPull(repo, pull) {
      state.pulls.set(`${repo}#${pull.number}`, pull);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Path parameters of a matched template ("/repos/{owner}/{repo}" against "/repos/o/r"). */
function pathParams(template: string, path: string): Record<string, string> {
  const names: string[] = [];
  const pattern = new RegExp(
    `^${template.replace(/\{([^}]+)\}/g, (_m, n: string) => {
      names.push(n);
      return '([^/]+)';
    })}$`,
  );
  const match = pattern.exec(path);
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match?.[i + 1] ?? '')]));
}
