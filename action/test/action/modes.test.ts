import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { runAction, type Scenario } from '../support/action-runner/scenario.js';
import { resultSet } from './fixtures.js';

let gh: FakeGitHub;
let actionPath: string;
let root: string;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-modes-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('ghs', null);
});
after(async () => {
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

function scenario(name: string, eventName: string, ref: string): Scenario {
  const ws = join(root, name);
  mkdirSync(join(ws, 'budgets'), { recursive: true });
  writeFileSync(join(ws, 'release.json'), JSON.stringify(resultSet('1'.repeat(40), { 'scan/a': 0.01, 'scan/b': 0.02 })));
  writeFileSync(join(ws, 'budgets', 'scan.yml'), 'version: 1\nbenchmarks:\n  "scan/b":\n    time: { max: 25ms }\n');
  return {
    workspace: ws,
    runnerTemp: join(ws, '_temp'),
    apiUrl: gh.url,
    token: 'ghs',
    repository: 'acme/x',
    eventName,
    event: { ref },
    sha: '9'.repeat(40),
    ref,
  };
}

test('release: a regression blocks the release, with the release report', async () => {
  const s = scenario('release-fail', 'push', 'refs/tags/v1.4.0');
  writeFileSync(join(s.workspace, 'current.json'), JSON.stringify(resultSet('2'.repeat(40), { 'scan/a': 0.015, 'scan/b': 0.02 })));
  const r = await runAction(actionPath, s, {
    mode: 'release',
    baseline: 'release.json',
    budgets: 'budgets',
    results: 'current.json',
    'gate-name': 'perf-gate-release',
  });
  assert.equal(r.outcome, 'failure');
  assert.equal(r.steps[0]?.exitCode, 1);
  const report = readFileSync(r.outputs['release-report']!, 'utf8');
  assert.match(report, /v1\.4\.0/);
  assert.match(report, /Do not release/);
  assert.match(r.summary, /Do not release/);
  const run = gh.checkRuns.at(-1)!;
  assert.equal(run.name, 'perf-gate-release');
  assert.equal(run.head_sha, '9'.repeat(40));
  assert.equal(run.conclusion, 'failure');
  assert.equal(gh.comments.length, 0, 'no pull request, no comment');
});

test('release: an exceeded budget blocks it too; within budget and baseline it passes', async () => {
  const over = scenario('release-budget', 'push', 'refs/tags/v1.4.1');
  writeFileSync(join(over.workspace, 'current.json'), JSON.stringify(resultSet('2'.repeat(40), { 'scan/a': 0.01, 'scan/b': 0.03 })));
  const r1 = await runAction(actionPath, over, { mode: 'release', baseline: 'release.json', budgets: 'budgets', results: 'current.json' });
  assert.equal(r1.outcome, 'failure');
  assert.equal(r1.outputs['budget-failed'], '1');
  const budgetNote = gh.checkRuns.at(-1)!.output.annotations.find((a) => /budget/.test(String(a['title'])));
  assert.equal(budgetNote?.['path'], 'budgets/scan.yml', 'the annotation points at the budget file');
  assert.equal(budgetNote?.['start_line'], 4);
  assert.equal(budgetNote?.['annotation_level'], 'failure');

  const fine = scenario('release-pass', 'push', 'refs/tags/v1.4.2');
  writeFileSync(join(fine.workspace, 'current.json'), JSON.stringify(resultSet('2'.repeat(40), { 'scan/a': 0.01, 'scan/b': 0.02 })));
  const r2 = await runAction(actionPath, fine, { mode: 'release', baseline: 'release.json', budgets: 'budgets', results: 'current.json' });
  assert.equal(r2.outcome, 'success', r2.steps[0]?.stderr);
  assert.match(readFileSync(r2.outputs['release-report']!, 'utf8'), /Nothing blocks this release/);
});

test('fail-on: never reports a failing verdict without failing the step; the check run is neutral', async () => {
  const s = scenario('never', 'push', 'refs/heads/main');
  writeFileSync(join(s.workspace, 'current.json'), JSON.stringify(resultSet('2'.repeat(40), { 'scan/a': 0.02, 'scan/b': 0.02 })));
  const r = await runAction(actionPath, s, { baseline: 'release.json', results: 'current.json', 'fail-on': 'never' });
  assert.equal(r.outcome, 'success');
  assert.equal(r.outputs['verdict'], 'fail');
  assert.equal(gh.checkRuns.at(-1)!.conclusion, 'neutral');
  const counts = JSON.parse(r.outputs['counts']!) as Record<string, number>;
  assert.equal(counts['regressed'], 1);
  assert.ok(existsSync(r.outputs['report-json']!));
  assert.ok(existsSync(r.outputs['report-markdown']!));
});

test('no token: reports and outputs only, no API call', async () => {
  const s = scenario('no-token', 'push', 'refs/heads/main');
  writeFileSync(join(s.workspace, 'current.json'), JSON.stringify(resultSet('2'.repeat(40), { 'scan/a': 0.01 })));
  const before = gh.requests.length;
  const r = await runAction(actionPath, s, { baseline: 'release.json', results: 'current.json', 'github-token': '' });
  assert.equal(r.outcome, 'success', r.steps[0]?.stderr);
  assert.equal(gh.requests.length, before);
});

test('GitHub failing after every retry is a warning; the verdict and exit status stand', async () => {
  const s = scenario('api-down', 'push', 'refs/heads/main');
  writeFileSync(join(s.workspace, 'current.json'), JSON.stringify(resultSet('2'.repeat(40), { 'scan/a': 0.01 })));
  gh.failNext('checks/create', { status: 422, message: 'Unprocessable' });
  const r = await runAction(actionPath, s, { baseline: 'release.json', results: 'current.json' });
  assert.equal(r.outcome, 'success');
  assert.equal(r.outputs['verdict'], 'pass');
  assert.ok(r.annotations.some((a) => a.command === 'warning' && /could not create the check run/.test(a.message)));
});
