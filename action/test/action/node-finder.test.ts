/**
 * A self-hosted runner has no `node` on PATH; the runner's own Node lives in
 * <runner>/externals/node20 (or node24). These tests run action.yml with a PATH
 * that holds no node and a fake runner installation around RUNNER_TEMP.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { bundleAction } from '../support/action-runner/bundle.js';
import { runAction, type Scenario } from '../support/action-runner/scenario.js';
import { resultSet } from './fixtures.js';

let root: string;
let actionPath: string;
let noNodePath: string;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-node-'));
  actionPath = await bundleAction(join(root, 'action'));
  // A PATH with the few tools the launcher uses, and no node.
  noNodePath = join(root, 'bin');
  mkdirSync(noNodePath);
  for (const tool of ['bash', 'dirname', 'readlink', 'cat']) {
    symlinkSync(execFileSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(), join(noNodePath, tool));
  }
});

after(() => rmSync(root, { recursive: true, force: true }));

/** A fake runner installation with the given externals; returns a scenario whose RUNNER_TEMP lies inside it. */
function runnerWith(name: string, externals: Record<string, 'real' | string>): Scenario {
  const runner = join(root, name);
  const workspace = join(runner, '_work', 'repo', 'repo');
  mkdirSync(workspace, { recursive: true });
  for (const [dir, kind] of Object.entries(externals)) {
    const bin = join(runner, 'externals', dir, 'bin');
    mkdirSync(bin, { recursive: true });
    if (kind === 'real') symlinkSync(process.execPath, join(bin, 'node'));
    else {
      writeFileSync(join(bin, 'node'), `#!/bin/bash\necho ${kind}\n`);
      chmodSync(join(bin, 'node'), 0o755);
    }
  }
  writeFileSync(join(workspace, 'current.json'), JSON.stringify(resultSet('a'.repeat(40), { 'b/x': 0.01 })));
  return {
    workspace,
    runnerTemp: join(runner, '_work', '_temp'),
    apiUrl: 'http://127.0.0.1:9',
    token: '',
    repository: 'acme/x',
    eventName: 'push',
    event: {},
    sha: 'a'.repeat(40),
    path: noNodePath,
  };
}

const inputs = { results: 'current.json', 'github-token': '' };

test("without node on PATH, the runner's externals/node20 runs the action", async () => {
  const result = await runAction(actionPath, runnerWith('r20', { node16: '16.20.2', node20: 'real' }), inputs);
  assert.equal(result.outcome, 'success', result.steps[0]?.stderr);
  assert.equal(result.outputs['verdict'], 'pass');
});

test('only an old Node available: a clear error that says where it looked and what to do', async () => {
  const result = await runAction(actionPath, runnerWith('r16', { node16: '16.20.2' }), inputs);
  assert.equal(result.outcome, 'failure');
  assert.equal(result.steps[0]?.exitCode, 2);
  const stderr = result.steps[0]?.stderr ?? '';
  assert.match(stderr, /no Node\.js 20 or newer found/);
  assert.match(stderr, /externals\/node16\/bin\/node \(older than 20/);
  assert.match(stderr, /node-path/);
});

test('node-path pointing at something that is not Node 20+ is refused by name', async () => {
  const s = runnerWith('rbad', { node20: 'real' });
  const result = await runAction(actionPath, s, { ...inputs, 'node-path': '/bin/true' });
  assert.equal(result.steps[0]?.exitCode, 2);
  assert.match(result.steps[0]?.stderr ?? '', /node-path is set to '\/bin\/true'/);
});

test('node-path pointing at a real Node is used', async () => {
  const s = runnerWith('rexplicit', {});
  const result = await runAction(actionPath, s, { ...inputs, 'node-path': process.execPath });
  assert.equal(result.outcome, 'success', result.steps[0]?.stderr);
});

test('the runner installation is also found from the Runner.Worker process that started the step', async () => {
  const runner = join(root, 'rworker');
  mkdirSync(join(runner, 'bin'), { recursive: true });
  mkdirSync(join(runner, 'externals', 'node20', 'bin'), { recursive: true });
  symlinkSync(process.execPath, join(runner, 'externals', 'node20', 'bin', 'node'));
  // A stand-in worker: a copy of bash under the runner's binary name, so /proc/<pid>/exe ends in bin/Runner.Worker.
  const worker = join(runner, 'bin', 'Runner.Worker');
  writeFileSync(worker, readFileSync(execFileSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).trim()));
  chmodSync(worker, 0o755);
  const workspace = join(root, 'rworker-ws');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'current.json'), JSON.stringify(resultSet('a'.repeat(40), { 'b/x': 0.01 })));
  const script = join(actionPath, 'action', 'bin', 'run-action.sh');
  const r = spawnSync(worker, ['-c', `bash "${script}"; exit $?`], {
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: noNodePath,
      HOME: process.env['HOME'] ?? '/root',
      GITHUB_WORKSPACE: workspace,
      INPUT_RESULTS: 'current.json',
      INPUT_GITHUB_TOKEN: '',
      INPUT_OUTPUT_DIR: join(workspace, 'out'),
      GITHUB_EVENT_NAME: 'push',
    },
  });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /verdict: pass/);
});
