import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeGitHub, type FakeGitHub } from './server.js';

let gh: FakeGitHub;
before(async () => {
  gh = await startFakeGitHub();
  gh.tokens.set('t', { login: 'perf-bot', id: 1, type: 'User' });
});
after(() => gh.close());

async function call(method: string, path: string, body?: unknown): Promise<number> {
  const response = await fetch(`${gh.url}${path}`, {
    method,
    headers: { authorization: 'token t', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await response.arrayBuffer();
  return response.status;
}

test('a request that breaks the OpenAPI description is refused and recorded', async () => {
  gh.violations.length = 0;
  assert.equal(await call('POST', '/repos/o/r/issues/1/comments', { text: 'no body field' }), 422);
  assert.equal(await call('POST', '/repos/o/r/check-runs', { name: 'x', head_sha: 'a', status: 'finished' }), 422);
  assert.equal(await call('PATCH', '/repos/o/r/check-runs/not-a-number', { status: 'completed' }), 422);
  assert.equal(await call('DELETE', '/repos/o/r/issues/comments/1'), 404);
  assert.equal(gh.violations.length, 4);
  assert.match(gh.violations[0]!, /issues\/create-comment.*body/);
  assert.match(gh.violations[1]!, /checks\/create/);
  assert.match(gh.violations[3]!, /no such operation/);
  assert.equal(gh.comments.length, 0, 'nothing invalid is stored');
});

test('valid requests are answered with responses that match the description', async () => {
  gh.violations.length = 0;
  gh.addPull('o/r', { number: 3, headSha: 'd'.repeat(40), headRepo: 'fork/r', baseRepo: 'o/r' });
  assert.equal(await call('POST', '/repos/o/r/issues/3/comments', { body: 'hello' }), 201);
  assert.equal(await call('GET', '/repos/o/r/issues/3/comments?per_page=100'), 200);
  assert.equal(await call('GET', '/repos/o/r/pulls/3'), 200);
  assert.equal(await call('GET', '/user'), 200);
  assert.equal(
    await call('POST', '/repos/o/r/check-runs', {
      name: 'g',
      head_sha: 'd'.repeat(40),
      status: 'completed',
      conclusion: 'success',
      output: { title: 't', summary: 's' },
    }),
    201,
  );
  assert.deepEqual(gh.violations, []);
  const pr = (await (await fetch(`${gh.url}/repos/o/r/pulls/3`, { headers: { authorization: 'token t' } })).json()) as {
    head: { sha: string; repo: { full_name: string } };
  };
  assert.equal(pr.head.sha, 'd'.repeat(40));
  assert.equal(pr.head.repo.full_name, 'fork/r');
});

test('an unknown token gets 401', async () => {
  const response = await fetch(`${gh.url}/user`, { headers: { authorization: 'token nope' } });
  assert.equal(response.status, 401);
});
