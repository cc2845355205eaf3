import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { pullRequestEvent, runAction, type Scenario } from '../support/action-runner/scenario.js';
import { resultSet } from './fixtures.js';

let gh: FakeGitHub;
let actionPath: string;
let root: string;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-fork-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('ghs-fork', null);
});
after(async () => {
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});

function scenario(runnerEnvironment: 'self-hosted' | 'github-hosted'): Scenario {
  const workspace = join(root, `ws-${runnerEnvironment}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'current.json'), JSON.stringify(resultSet('f'.repeat(40), { 'scan/a': 0.01 })));
  return {
    workspace,
    runnerTemp: join(workspace, '_temp'),
    apiUrl: gh.url,
    token: 'ghs-fork',
    repository: 'acme/scanner',
    eventName: 'pull_request',
    event: pullRequestEvent(12, 'f'.repeat(40), 'mallory/scanner', 'acme/scanner'),
    sha: 'e'.repeat(40),
    runnerEnvironment,
  };
}

test('a fork pull request on a self-hosted runner is refused with the reason and what to do', async () => {
  const s = scenario('self-hosted');
  const before = gh.requests.length;
  const result = await runAction(actionPath, s, { results: 'current.json' });
  assert.equal(result.outcome, 'failure');
  assert.equal(result.outputs['verdict'], 'refused');
  const error = result.annotations.find((a) => a.command === 'error');
  assert.ok(error, 'an error annotation explains the refusal');
  assert.match(error.message, /fork mallory\/scanner/);
  assert.match(error.message, /self-hosted/);
  assert.match(error.message, /two-stage/);
  assert.match(error.message, /allow-fork-pull-requests: true/);
  assert.equal(gh.requests.length, before, 'no API call was made');
  assert.equal(existsSync(join(s.runnerTemp, 'perf-gate', 'report.json')), false, 'nothing ran');
});

test('allow-fork-pull-requests: true lets it run, with a warning', async () => {
  const s = scenario('self-hosted');
  const result = await runAction(actionPath, s, { results: 'current.json', 'allow-fork-pull-requests': 'true', 'check-run': 'false', comment: 'never' });
  assert.equal(result.outcome, 'success', result.steps[0]?.stderr);
  assert.equal(result.outputs['verdict'], 'pass');
  assert.ok(result.annotations.some((a) => a.command === 'warning' && /fork/.test(a.message)));
});

test('on a GitHub-hosted runner a fork runs, and its read-only token cannot hide the verdict', async () => {
  const s = scenario('github-hosted');
  gh.readOnly.add('ghs-fork');
  const result = await runAction(actionPath, s, { results: 'current.json' });
  gh.readOnly.delete('ghs-fork');
  assert.equal(result.outcome, 'success', result.steps[0]?.stderr);
  assert.equal(result.outputs['verdict'], 'pass');
  assert.ok(result.annotations.some((a) => a.command === 'warning' && /could not write the pull request comment/.test(a.message)));
  assert.ok(existsSync(join(s.runnerTemp, 'perf-gate', 'handoff', 'pull-request.json')), 'the two-stage handoff is written');
  assert.deepEqual(gh.violations, []);
});

test('a misspelt enum input stops the action with the accepted values', async () => {
  const s = { ...scenario('github-hosted'), event: {}, eventName: 'push' };
  const result = await runAction(actionPath, s, { results: 'current.json', comment: 'sometimes' });
  assert.equal(result.outcome, 'failure');
  assert.equal(result.steps[0]?.exitCode, 2);
  const error = result.annotations.find((a) => a.command === 'error');
  assert.match(error?.message ?? '', /action input "comment".*sometimes.*always, on-change, never/);
});
