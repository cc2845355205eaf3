import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { pullRequestEvent, runAction, type Scenario } from '../support/action-runner/scenario.js';
import { resultSet } from './fixtures.js';

const HEAD = 'a1'.repeat(20);
const OTHER_HEAD = 'b2'.repeat(20);
let gh: FakeGitHub;
let actionPath: string;
let root: string;
let handoff: string;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-two-stage-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('ghs-read', null);
  gh.readOnly.add('ghs-read');
  gh.tokens.set('ghs-write', null);
  gh.addPull('acme/scanner', { number: 21, headSha: HEAD, headRepo: 'mallory/scanner', baseRepo: 'acme/scanner' });
  gh.addPull('acme/scanner', { number: 22, headSha: OTHER_HEAD, headRepo: 'eve/scanner', baseRepo: 'acme/scanner' });
});
after(async () => {
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

function workspace(name: string): string {
  const ws = join(root, name);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'baseline.json'), JSON.stringify(resultSet('0'.repeat(40), { 'scan/ports-1000': 0.01, 'scan/ports-10000': 0.1 })));
  return ws;
}

function reportScenario(ws: string, runHeadSha = HEAD): Scenario {
  return {
    workspace: ws,
    runnerTemp: join(ws, '_temp'),
    apiUrl: gh.url,
    token: 'ghs-write',
    repository: 'acme/scanner',
    eventName: 'workflow_run',
    event: {
      action: 'completed',
      workflow_run: { id: 77, head_sha: runHeadSha, event: 'pull_request', head_repository: { full_name: 'mallory/scanner' }, pull_requests: [] },
    },
    sha: 'c3'.repeat(20),
    runnerEnvironment: 'github-hosted',
  };
}

test('stage one (pr, read-only token) saves results, pull request number and head SHA', async () => {
  const ws = workspace('stage-one');
  // The fork's head is 40 % slower on one benchmark.
  writeFileSync(join(ws, 'current.json'), JSON.stringify(resultSet(HEAD, { 'scan/ports-1000': 0.014, 'scan/ports-10000': 0.1 })));
  const result = await runAction(
    actionPath,
    {
      workspace: ws,
      runnerTemp: join(ws, '_temp'),
      apiUrl: gh.url,
      token: 'ghs-read',
      repository: 'acme/scanner',
      eventName: 'pull_request',
      event: pullRequestEvent(21, HEAD, 'mallory/scanner', 'acme/scanner'),
      sha: 'd4'.repeat(20),
      runnerEnvironment: 'github-hosted',
    },
    { results: 'current.json', baseline: 'baseline.json' },
  );
  assert.equal(result.outputs['verdict'], 'fail');
  handoff = result.outputs['handoff-dir']!;
  const claim = JSON.parse(readFileSync(join(handoff, 'pull-request.json'), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(claim, { schema: 'perf-gate/handoff@1', pullRequest: 21, headSha: HEAD, gate: 'perf-gate' });
  assert.equal(gh.comments.length, 0, 'the read-only token could not comment');
  assert.ok(result.annotations.some((a) => a.command === 'warning' && /two-stage/.test(a.message)));
});

test('stage two (report) verifies the pull request and posts the comment and check run', async () => {
  const ws = workspace('stage-two');
  const result = await runAction(actionPath, reportScenario(ws), { mode: 'report', 'report-from': handoff, baseline: 'baseline.json' });
  assert.equal(result.outputs['verdict'], 'fail', result.steps[0]?.stderr);
  const comments = gh.comments.filter((c) => c.issue === 21);
  assert.equal(comments.length, 1);
  assert.match(comments[0]!.body, /scan\/ports-1000/);
  assert.match(comments[0]!.body, /regress/i);
  const run = gh.checkRuns.at(-1)!;
  assert.equal(run.head_sha, HEAD);
  assert.equal(run.conclusion, 'failure');
});

test('a forged pull request number is rejected and nothing is posted', async () => {
  const ws = workspace('forged');
  const forged = join(ws, 'forged-handoff');
  cpSync(handoff, forged, { recursive: true });
  const claimFile = join(forged, 'pull-request.json');
  const claim = JSON.parse(readFileSync(claimFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(claimFile, JSON.stringify({ ...claim, pullRequest: 22 }));
  const commentsBefore = gh.comments.length;
  const checksBefore = gh.checkRuns.length;
  const result = await runAction(actionPath, reportScenario(ws), { mode: 'report', 'report-from': forged, baseline: 'baseline.json' });
  assert.equal(result.outcome, 'failure');
  assert.equal(result.steps[0]?.exitCode, 2);
  const error = result.annotations.find((a) => a.command === 'error');
  assert.match(error?.message ?? '', /#22 has head b2b2.*forged/);
  assert.equal(gh.comments.length, commentsBefore);
  assert.equal(gh.checkRuns.length, checksBefore);
});

test('an artifact claiming another commit than the workflow run ran on is rejected', async () => {
  const ws = workspace('other-commit');
  const result = await runAction(actionPath, reportScenario(ws, 'e5'.repeat(20)), { mode: 'report', 'report-from': handoff, baseline: 'baseline.json' });
  assert.equal(result.steps[0]?.exitCode, 2);
  assert.match(result.annotations.find((a) => a.command === 'error')?.message ?? '', /workflow run that produced it ran on e5e5/);
});

test('tampered results are refused as unusable input, naming the file', async () => {
  const ws = workspace('tampered');
  const tampered = join(ws, 'tampered-handoff');
  cpSync(handoff, tampered, { recursive: true });
  writeFileSync(join(tampered, 'results.json'), JSON.stringify({ schema: 'perf-gate/results@1', created: 'x', benchmarks: [{ id: 1 }], extra: '<script>' }));
  const result = await runAction(actionPath, reportScenario(ws), { mode: 'report', 'report-from': tampered, baseline: 'baseline.json' });
  assert.equal(result.steps[0]?.exitCode, 2);
  assert.match(result.annotations.find((a) => a.command === 'error')?.message ?? '', /tampered-handoff\/results\.json/);
});

test('stage two downloads the artifact through the API and updates the same comment', async () => {
  const ws = workspace('download');
  gh.artifacts.push({
    id: 9001,
    runId: 77,
    name: 'perf-gate-handoff',
    zip: zipSync({
      'pull-request.json': strToU8(readFileSync(join(handoff, 'pull-request.json'), 'utf8')),
      'results.json': strToU8(readFileSync(join(handoff, 'results.json'), 'utf8')),
      '../../escape.txt': strToU8('ignored'),
      [`${root}/absolute-escape.txt`]: strToU8('ignored'),
    }),
  });
  const result = await runAction(actionPath, reportScenario(ws), { mode: 'report', baseline: 'baseline.json' });
  // Entries named outside the archive (path traversal, an absolute path) have nowhere to go: nothing is extracted to disk.
  for (const path of [join(ws, '..', '..', 'escape.txt'), join(ws, '..', 'escape.txt'), join(root, 'absolute-escape.txt'), join(ws, '_temp', 'escape.txt')])
    assert.equal(existsSync(path), false, path);
  assert.equal(result.outputs['verdict'], 'fail', result.steps[0]?.stderr);
  assert.equal(gh.comments.filter((c) => c.issue === 21).length, 1, 'the sticky comment was updated, not duplicated');
  assert.ok(gh.requests.some((r) => r.operationId === 'actions/download-artifact' && r.status === 302));
  assert.ok(gh.requests.some((r) => r.path === '/_archives/9001.zip' && r.status === 200));
});
