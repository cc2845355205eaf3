import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeGitHub, type FakeGitHub, type Fault } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { pullRequestEvent, runAction, type Scenario } from '../support/action-runner/scenario.js';
import { resultSet } from './fixtures.js';

/**
 * GitHub misbehaving while the action reports (docs/reliability.md): the
 * bundled action in mode pr against the OpenAPI-checked fake GitHub, one
 * injected fault per test. Whatever GitHub does, the step's exit status is
 * the gate's (1 for the regression here, 0 for a pass), the job summary
 * carries the whole report, and the pull request ends with at most one
 * sticky comment: exactly one when GitHub recovers.
 */
let gh: FakeGitHub;
let actionPath: string;
let root: string;
let pr = 100;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-faults-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('pat-bot', { login: 'perf-bot', id: 7, type: 'User' });
});
after(async () => {
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

/** A pull request whose `parse` benchmark got twice as slow (or not, with `regressed: false`). */
function scenario(token = 'pat-bot', regressed = true): { s: Scenario; number: number } {
  const number = ++pr;
  const ws = join(root, `pr-${number}`);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'baseline.json'), JSON.stringify(resultSet('1'.repeat(40), { parse: 0.01, stable: 0.02 })));
  writeFileSync(join(ws, 'current.json'), JSON.stringify(resultSet('2'.repeat(40), { parse: regressed ? 0.02 : 0.01, stable: 0.02 })));
  return {
    number,
    s: {
      workspace: ws,
      runnerTemp: join(ws, '_temp'),
      apiUrl: gh.url,
      token,
      repository: 'acme/scanner',
      eventName: 'pull_request',
      event: pullRequestEvent(number, 'ab'.repeat(20), 'acme/scanner', 'acme/scanner'),
      sha: 'cd'.repeat(20),
    },
  };
}

const INPUTS = { results: 'current.json', baseline: 'baseline.json', 'check-run': 'false' };

async function runWith(faults: [string, Fault][], options: { token?: string; regressed?: boolean } = {}) {
  const { s, number } = scenario(options.token, options.regressed);
  for (const [operation, fault] of faults) gh.failNext(operation, fault);
  const result = await runAction(actionPath, s, INPUTS);
  const comments = gh.comments.filter((c) => c.issue === number);
  return { result, comments, number, s };
}

/** What must hold whatever GitHub did. */
function assertReportKept(result: Awaited<ReturnType<typeof runAction>>, regressed = true): void {
  assert.equal(result.steps[0]?.exitCode, regressed ? 1 : 0, `exit status: ${result.steps[0]?.stderr}`);
  assert.equal(result.outputs['verdict'], regressed ? 'fail' : 'pass');
  assert.match(result.summary, /\| parse \|/, 'the job summary carries the report');
}

for (const status of [500, 502, 503]) {
  test(`a ${status} on listing the comments is retried; one comment, the gate's exit status`, async () => {
    const { result, comments } = await runWith([['issues/list-comments', { status, message: 'Server Error' }]]);
    assertReportKept(result);
    assert.equal(comments.length, 1);
  });
}

test('a 502 answering the POST of the comment is not retried (GitHub may have stored it): a warning, no duplicate', async () => {
  const { result, comments } = await runWith([['issues/create-comment', { status: 502, message: 'Server Error' }]]);
  assertReportKept(result);
  assert.equal(comments.length, 0, 'the fake stored nothing, and the action did not post twice');
  assert.ok(
    result.annotations.some((a) => a.command === 'warning' && /comment/.test(a.message)),
    JSON.stringify(result.annotations),
  );
});

test('a secondary rate limit with retry-after is waited out, and the comment posted once', async () => {
  const { result, comments } = await runWith([
    ['issues/create-comment', { status: 403, message: 'You have exceeded a secondary rate limit', headers: { 'retry-after': '1' } }],
  ]);
  assertReportKept(result);
  assert.equal(comments.length, 1);
});

test('422 "body is too long" leaves the report in the job summary and fails nothing else', async () => {
  const { result, comments } = await runWith([
    ['issues/create-comment', { status: 422, message: 'Validation Failed: body is too long (maximum is 65536 characters)' }],
  ]);
  assertReportKept(result);
  assert.equal(comments.length, 0);
  assert.ok(
    result.annotations.some((a) => a.command === 'warning' && /422|too long/.test(a.message)),
    JSON.stringify(result.annotations),
  );
});

test('a sticky comment deleted while the next run updates it is posted again: still one comment', async () => {
  const { s, number } = scenario();
  await runAction(actionPath, s, INPUTS);
  const id = gh.comments.find((c) => c.issue === number)!.id;
  gh.beforeNext('issues/update-comment', () =>
    gh.comments.splice(
      gh.comments.findIndex((c) => c.id === id),
      1,
    ),
  );
  const second = await runAction(actionPath, s, INPUTS);
  assertReportKept(second);
  const comments = gh.comments.filter((c) => c.issue === number);
  assert.equal(comments.length, 1);
  assert.notEqual(comments[0]!.id, id, 'a new comment replaced the deleted one');
});

test('an expired token (401) is a warning; a failing gate still fails, a passing one still passes', async () => {
  const failing = await runWith([], { token: 'expired' });
  assertReportKept(failing.result);
  assert.ok(
    failing.result.annotations.some((a) => a.command === 'warning' && /401|Bad credentials/.test(a.message)),
    JSON.stringify(failing.result.annotations),
  );
  const passing = await runWith([], { token: 'expired', regressed: false });
  assertReportKept(passing.result, false);
  assert.equal(failing.comments.length + passing.comments.length, 0);
});
