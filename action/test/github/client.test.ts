import { test, describe, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeGitHub, type FakeGitHub, type FakeUser } from '../support/fake-github/server.js';
import { createGitHubClient, type CheckRunAnnotation, type GitHubApi } from '../../src/github/client.js';
import { stickyMarker, upsertStickyComment, type MarkerState } from '../../src/github/sticky-comment.js';
import { publishCheckRun } from '../../src/github/check-run.js';
import { DEFAULT_RETRY_POLICY } from '../../src/github/retry.js';

const repo = { owner: 'acme', repo: 'scanner' };
const BOT: FakeUser = { login: 'perf-bot', id: 501, type: 'User' };
const OTHER: FakeUser = { login: 'someone', id: 502, type: 'User' };

let gh: FakeGitHub;
let delays: number[];

function client(token: string): GitHubApi {
  return createGitHubClient({ baseUrl: gh.url, token, sleep: async (ms) => void delays.push(ms) });
}

const body = (gate: string, state: MarkerState, text: string) => () => `${text}\n\n${stickyMarker(gate, state)}`;

before(async () => {
  gh = await startFakeGitHub();
  gh.tokens.set('pat-bot', BOT);
  gh.tokens.set('pat-other', OTHER);
  gh.tokens.set('ghs-installation', null);
});
after(() => gh.close());
afterEach(() => {
  assert.deepEqual(gh.violations, [], "every request and response matches GitHub's OpenAPI description");
  delays = [];
});
delays = [];

describe('sticky comment', () => {
  test('is created once, then updated in place on the next run', async () => {
    const api = client('pat-bot');
    const fail: MarkerState = { verdict: 'fail', digest: 'aa11' };
    const first = await upsertStickyComment(api, {
      repo,
      pullRequest: 1,
      gate: 'perf-gate',
      mode: 'always',
      state: fail,
      render: body('perf-gate', fail, 'first'),
    });
    assert.equal(first.action, 'created');
    const second = await upsertStickyComment(api, {
      repo,
      pullRequest: 1,
      gate: 'perf-gate',
      mode: 'always',
      state: fail,
      render: body('perf-gate', fail, 'second'),
    });
    assert.equal(second.action, 'updated');
    const mine = gh.comments.filter((c) => c.issue === 1);
    assert.equal(mine.length, 1);
    assert.match(mine[0]!.body, /^second/);
    assert.equal(first.url, second.url);
  });

  test('passes the previous verdict to the renderer, so a fixed regression reads "resolved"', async () => {
    const api = client('pat-bot');
    const fail: MarkerState = { verdict: 'fail', digest: 'bb22' };
    const pass: MarkerState = { verdict: 'pass', digest: 'cc33' };
    await upsertStickyComment(api, { repo, pullRequest: 2, gate: 'perf-gate', mode: 'always', state: fail, render: body('perf-gate', fail, 'regressed') });
    let seen: MarkerState | null = null;
    const outcome = await upsertStickyComment(api, {
      repo,
      pullRequest: 2,
      gate: 'perf-gate',
      mode: 'always',
      state: pass,
      render: (previous) => {
        seen = previous;
        return `resolved\n\n${stickyMarker('perf-gate', pass)}`;
      },
    });
    assert.deepEqual(seen, fail);
    assert.equal(outcome.resolved, true);
    assert.equal(gh.comments.filter((c) => c.issue === 2).length, 1);
  });

  test('ignores comments by other users even when they carry the marker, across pages', async () => {
    const state: MarkerState = { verdict: 'fail', digest: 'dd44' };
    // 130 comments by someone else first (two pages of 100), one of them quoting our marker at the end.
    for (let i = 0; i < 130; i++) gh.addComment('acme/scanner', 3, OTHER, i === 7 ? `quote\n${stickyMarker('perf-gate', state)}` : `chatter ${i}`);
    const api = client('pat-bot');
    const created = await upsertStickyComment(api, {
      repo,
      pullRequest: 3,
      gate: 'perf-gate',
      mode: 'always',
      state,
      render: body('perf-gate', state, 'ours'),
    });
    assert.equal(created.action, 'created', "the other user's comment is not ours to edit");
    const again = await upsertStickyComment(api, {
      repo,
      pullRequest: 3,
      gate: 'perf-gate',
      mode: 'always',
      state,
      render: body('perf-gate', state, 'ours again'),
    });
    assert.equal(again.action, 'updated', 'our comment, on the second page, is found');
    const listCalls = gh.requests.filter((r) => r.operationId === 'issues/list-comments' && r.path.endsWith('/issues/3/comments'));
    assert.equal(listCalls.length, 4, 'two pages per lookup');
    assert.equal(gh.comments.filter((c) => c.issue === 3 && c.user.login === 'perf-bot').length, 1);
    assert.equal(gh.comments.find((c) => c.issue === 3 && c.body.startsWith('quote'))!.body.startsWith('quote'), true);
  });

  test('keeps one comment per gate', async () => {
    const api = client('pat-bot');
    const s: MarkerState = { verdict: 'pass', digest: 'ee55' };
    await upsertStickyComment(api, { repo, pullRequest: 4, gate: 'linux', mode: 'always', state: s, render: body('linux', s, 'linux') });
    await upsertStickyComment(api, { repo, pullRequest: 4, gate: 'arm', mode: 'always', state: s, render: body('arm', s, 'arm') });
    await upsertStickyComment(api, { repo, pullRequest: 4, gate: 'linux', mode: 'always', state: s, render: body('linux', s, 'linux 2') });
    const bodies = gh.comments.filter((c) => c.issue === 4).map((c) => c.body.split('\n')[0]);
    assert.deepEqual(bodies.sort(), ['arm', 'linux 2']);
  });

  test('with the GITHUB_TOKEN (GET /user refused) treats github-actions[bot] as itself', async () => {
    const api = client('ghs-installation');
    assert.equal(await api.authenticatedLogin(), null);
    const s: MarkerState = { verdict: 'fail', digest: 'ff66' };
    await upsertStickyComment(api, { repo, pullRequest: 5, gate: 'perf-gate', mode: 'always', state: s, render: body('perf-gate', s, 'one') });
    const second = await upsertStickyComment(api, { repo, pullRequest: 5, gate: 'perf-gate', mode: 'always', state: s, render: body('perf-gate', s, 'two') });
    assert.equal(second.action, 'updated');
    const comments = gh.comments.filter((c) => c.issue === 5);
    assert.equal(comments.length, 1);
    assert.equal(comments[0]!.user.login, 'github-actions[bot]');
  });

  test('on-change creates nothing for a first passing result and skips an unchanged one', async () => {
    const api = client('pat-bot');
    const pass: MarkerState = { verdict: 'pass', digest: '0101' };
    const fail: MarkerState = { verdict: 'fail', digest: '0202' };
    const skipped = await upsertStickyComment(api, {
      repo,
      pullRequest: 6,
      gate: 'perf-gate',
      mode: 'on-change',
      state: pass,
      render: body('perf-gate', pass, 'p'),
    });
    assert.equal(skipped.action, 'skipped');
    assert.equal(gh.comments.filter((c) => c.issue === 6).length, 0);
    assert.equal(
      (await upsertStickyComment(api, { repo, pullRequest: 6, gate: 'perf-gate', mode: 'on-change', state: fail, render: body('perf-gate', fail, 'f') }))
        .action,
      'created',
    );
    assert.equal(
      (await upsertStickyComment(api, { repo, pullRequest: 6, gate: 'perf-gate', mode: 'on-change', state: fail, render: body('perf-gate', fail, 'f2') }))
        .action,
      'skipped',
    );
    assert.equal(
      (await upsertStickyComment(api, { repo, pullRequest: 6, gate: 'perf-gate', mode: 'on-change', state: pass, render: body('perf-gate', pass, 'p2') }))
        .action,
      'updated',
    );
    assert.match(gh.comments.find((c) => c.issue === 6)!.body, /^p2/);
  });

  test('refuses a body that lacks the marker at the end or exceeds 65,536 characters', async () => {
    const api = client('pat-bot');
    const s: MarkerState = { verdict: 'fail', digest: '0303' };
    await assert.rejects(
      upsertStickyComment(api, { repo, pullRequest: 7, gate: 'perf-gate', mode: 'always', state: s, render: () => 'no marker' }),
      /must end with/,
    );
    await assert.rejects(
      upsertStickyComment(api, {
        repo,
        pullRequest: 7,
        gate: 'perf-gate',
        mode: 'always',
        state: s,
        render: () => `${'x'.repeat(65_536)}${stickyMarker('perf-gate', s)}`,
      }),
      /at most 65536/,
    );
    assert.equal(gh.comments.filter((c) => c.issue === 7).length, 0);
  });
});

describe('retries', () => {
  test('a 502 to a PATCH is retried with backoff and the comment is updated once', async () => {
    const api = client('pat-bot');
    const s: MarkerState = { verdict: 'fail', digest: '0404' };
    await upsertStickyComment(api, { repo, pullRequest: 8, gate: 'perf-gate', mode: 'always', state: s, render: body('perf-gate', s, 'x') });
    gh.failNext('issues/update-comment', { status: 502, message: 'Server Error' });
    gh.failNext('issues/update-comment', { status: 502, message: 'Server Error' });
    const before = gh.requests.length;
    const outcome = await upsertStickyComment(api, { repo, pullRequest: 8, gate: 'perf-gate', mode: 'always', state: s, render: body('perf-gate', s, 'y') });
    assert.equal(outcome.action, 'updated');
    const patches = gh.requests.slice(before).filter((r) => r.method === 'PATCH');
    assert.deepEqual(
      patches.map((r) => r.status),
      [502, 502, 200],
    );
    const mine = gh.comments.filter((c) => c.issue === 8);
    assert.equal(mine.length, 1);
    assert.match(mine[0]!.body, /^y\n/);
    assert.deepEqual(delays, [DEFAULT_RETRY_POLICY.baseDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs * 2]);
  });

  test('a POST answered 502 is sent once, not retried (GitHub may have stored it)', async () => {
    gh.failNext('issues/create-comment', { status: 502, message: 'Server Error' });
    gh.failNext('checks/create', { status: 502, message: 'Server Error' });
    const before = gh.requests.length;
    const api = client('pat-bot');
    await assert.rejects(api.createIssueComment(repo, 11, 'x'), (e: Error & { status?: number }) => e.status === 502);
    await assert.rejects(
      api.createCheckRun(repo, { name: 'g', headSha: 'e'.repeat(40), conclusion: 'success', output: { title: 't', summary: 's' } }),
      (e: Error & { status?: number }) => e.status === 502,
    );
    const posts = gh.requests.slice(before).filter((r) => r.method === 'POST');
    assert.deepEqual(
      posts.map((r) => `${r.operationId} ${r.status}`),
      ['issues/create-comment 502', 'checks/create 502'],
    );
    assert.deepEqual(delays, []);
  });

  test('a POST answered with a secondary rate limit is retried (nothing was stored)', async () => {
    gh.failNext('issues/create-comment', { status: 403, message: 'You have exceeded a secondary rate limit', headers: { 'retry-after': '5' } });
    const before = gh.requests.length;
    await client('pat-bot').createIssueComment(repo, 12, 'once');
    assert.deepEqual(
      gh.requests
        .slice(before)
        .filter((r) => r.method === 'POST')
        .map((r) => r.status),
      [403, 201],
    );
    assert.equal(gh.comments.filter((c) => c.issue === 12).length, 1);
    assert.deepEqual(delays, [5000]);
  });

  test('a secondary rate limit waits as long as retry-after says', async () => {
    gh.failNext('issues/list-comments', {
      status: 403,
      message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
      headers: { 'retry-after': '7' },
    });
    gh.failNext('issues/list-comments', { status: 429, message: 'Too many requests', headers: { 'retry-after': '3' } });
    const api = client('pat-bot');
    const comments = await api.listIssueComments(repo, 1);
    assert.equal(comments.length, 1);
    assert.deepEqual(delays, [7000, 3000]);
  });

  test('a secondary rate limit without retry-after waits the fallback minute', async () => {
    gh.failNext('checks/update', { status: 403, message: 'You have exceeded a secondary rate limit' });
    const api = client('pat-bot');
    const run = await api.createCheckRun(repo, { name: 'g', headSha: 'a'.repeat(40), conclusion: 'success', output: { title: 't', summary: 's' } });
    await api.updateCheckRun(repo, run.id, { title: 't', summary: 's2' });
    assert.deepEqual(delays, [60_000]);
  });

  test("gives up after the policy's retries and reports the status", async () => {
    for (let i = 0; i <= DEFAULT_RETRY_POLICY.retries; i++) gh.failNext('pulls/get', { status: 503, message: 'Unavailable' });
    gh.addPull('acme/scanner', { number: 9, headSha: 'b'.repeat(40), headRepo: 'acme/scanner', baseRepo: 'acme/scanner' });
    await assert.rejects(client('pat-bot').getPullRequest(repo, 9), (e: Error & { status?: number }) => e.status === 503);
    assert.equal(delays.length, DEFAULT_RETRY_POLICY.retries);
  });

  test('a plain 403 (missing permission) is not retried', async () => {
    gh.failNext('issues/create-comment', { status: 403, message: 'Resource not accessible by integration' });
    await assert.rejects(client('pat-bot').createIssueComment(repo, 10, 'x'), /403/);
    assert.deepEqual(delays, []);
  });
});

describe('faults', () => {
  const quick = (token: string): GitHubApi => createGitHubClient({ baseUrl: gh.url, token, timeoutMs: 300, sleep: async (ms) => void delays.push(ms) });

  test('a GET that GitHub never answers is given up at the timeout and sent again', async () => {
    gh.failNext('issues/list-comments', { status: 504, message: 'too late', hangMs: 2000 });
    const started = performance.now();
    const comments = await quick('pat-bot').listIssueComments(repo, 40);
    assert.deepEqual(comments, []);
    assert.ok(performance.now() - started < 1500, 'the stalled request did not hold the client');
    assert.equal(delays.length, 1, 'one retry');
  });

  test('a POST that GitHub never answers is given up and not sent again (it may have been stored)', async () => {
    gh.failNext('issues/create-comment', { status: 504, message: 'too late', hangMs: 2000 });
    await assert.rejects(quick('pat-bot').createIssueComment(repo, 41, 'x'), /no answer in 0.3 s/);
    assert.deepEqual(delays, []);
  });

  test('a sticky comment deleted between listing and updating is posted again, once', async () => {
    const api = client('pat-bot');
    const s: MarkerState = { verdict: 'fail', digest: '4242' };
    const first = await upsertStickyComment(api, { repo, pullRequest: 42, gate: 'perf-gate', mode: 'always', state: s, render: body('perf-gate', s, 'first') });
    const id = gh.comments.find((c) => c.issue === 42)!.id;
    gh.beforeNext('issues/update-comment', () =>
      gh.comments.splice(
        gh.comments.findIndex((c) => c.id === id),
        1,
      ),
    );
    const second = await upsertStickyComment(api, {
      repo,
      pullRequest: 42,
      gate: 'perf-gate',
      mode: 'always',
      state: s,
      render: body('perf-gate', s, 'second'),
    });
    assert.equal(first.action, 'created');
    assert.equal(second.action, 'created');
    const left = gh.comments.filter((c) => c.issue === 42);
    assert.equal(left.length, 1, 'exactly one sticky comment');
    assert.match(left[0]!.body, /^second/);
    assert.ok(
      gh.requests.some((r) => r.operationId === 'issues/update-comment' && r.status === 404),
      'the update met the deletion',
    );
  });

  test('an expired token (401) is not retried and names the status', async () => {
    await assert.rejects(
      client('expired-token').listIssueComments(repo, 43),
      (e: Error & { status?: number }) => e.status === 401 && /Bad credentials/.test(e.message),
    );
    assert.deepEqual(delays, []);
  });

  test('a body GitHub refuses as too long (422) is not retried', async () => {
    gh.failNext('issues/create-comment', { status: 422, message: 'Validation Failed: body is too long (maximum is 65536 characters)' });
    await assert.rejects(client('pat-bot').createIssueComment(repo, 44, 'x'), /422.*too long/);
    assert.deepEqual(delays, []);
  });
});

describe('check run', () => {
  test('sends 120 annotations in batches of at most 50', async () => {
    const annotations: CheckRunAnnotation[] = Array.from({ length: 120 }, (_, i) => ({
      path: 'budgets/scan.yml',
      start_line: i + 1,
      end_line: i + 1,
      annotation_level: 'failure',
      message: `row ${i}`,
    }));
    const outcome = await publishCheckRun(client('pat-bot'), {
      repo,
      name: 'perf-gate',
      headSha: 'c'.repeat(40),
      conclusion: 'failure',
      title: 'Fail',
      summary: 'summary',
      annotations,
    });
    assert.equal(outcome.batches, 3);
    const run = gh.checkRuns.find((r) => r.id === outcome.id)!;
    assert.equal(run.conclusion, 'failure');
    assert.equal(run.output.annotations.length, 120);
    assert.deepEqual(
      run.requests.map((r) => (r['output'] as { annotations: unknown[] }).annotations.length),
      [50, 50, 20],
    );
    assert.equal((run.output.annotations[119] as { message: string }).message, 'row 119');
  });
});
