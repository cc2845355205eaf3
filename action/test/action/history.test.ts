import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { runAction, type Scenario } from '../support/action-runner/scenario.js';
import { requireTool } from '../support/tools.js';
import { resultSet } from './fixtures.js';

requireTool('git');

/**
 * The action with history: { branch: perf-gate-data }, end to end: the
 * bundled action against the OpenAPI-checked fake GitHub, a real bare
 * repository standing in for the remote. A push to main appends its run to
 * the data branch; a pull request reads it, gates against its merge base's
 * run and writes nothing to the branch; a main run pushing while a pull
 * request reads changes neither's outcome.
 */
let gh: FakeGitHub;
let actionPath: string;
let root: string;
let remote: string;
let ws: string;
let mainSha: string;

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' },
  }).trim();
const dataTip = (): string => git(root, '--git-dir', remote, 'rev-parse', '--verify', '--quiet', 'perf-gate-data');

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-action-history-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('ghs', null);
  remote = join(root, 'remote.git');
  ws = join(root, 'ws');
  git(root, 'init', '-q', '--bare', '--initial-branch=main', remote);
  git(root, 'clone', '-q', remote, ws);
  writeFileSync(join(ws, '.gitignore'), '*.json\n');
  // The suite copies a prepared ResultSet, so the base measured again would read the same file:
  // these tests of the data branch gate in one stage (confirm: off).
  writeFileSync(
    join(ws, 'perf-gate.yml'),
    'version: 1\nconfirm: off\nhistory:\n  branch: perf-gate-data\nsuites:\n  - name: scan\n    run: cp "$GITHUB_WORKSPACE/measured.json" {output}\n    format: resultset\n',
  );
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'main');
  git(ws, 'push', '-q', 'origin', 'main');
  mainSha = git(ws, 'rev-parse', 'HEAD');
});
after(async () => {
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

function scenario(eventName: string, event: Record<string, unknown>, sha: string, ref: string, workspace = ws): Scenario {
  return {
    workspace,
    runnerTemp: join(root, `temp-${eventName}-${workspace === ws ? 'ws' : 'other'}`),
    apiUrl: gh.url,
    token: 'ghs',
    repository: 'acme/x',
    eventName,
    event,
    sha,
    ref,
  };
}

test('mode main appends the run to the data branch; a pull request gates against it and writes nothing', async () => {
  writeFileSync(join(ws, 'measured.json'), JSON.stringify(resultSet(mainSha, { a: 0.01, b: 0.02 })));
  const main = await runAction(actionPath, scenario('push', { ref: 'refs/heads/main' }, mainSha, 'refs/heads/main'), { mode: 'main', 'fail-on': 'never' });
  assert.equal(main.outcome, 'success', JSON.stringify(main.annotations));
  assert.match(main.outputs['baseline-file'] ?? '', /^branch perf-gate-data of origin \(\S+\/[0-9a-f]{40}-\S+\.json\.gz\)$/);
  const tip = dataTip();
  assert.match(tip, /^[0-9a-f]{40}$/);
  assert.equal(git(ws, 'status', '--porcelain'), '', 'the checkout is untouched');

  git(ws, 'switch', '-q', '-c', 'feature');
  git(ws, 'commit', '-q', '--allow-empty', '-m', 'feature');
  const head = git(ws, 'rev-parse', 'HEAD');
  writeFileSync(join(ws, 'measured.json'), JSON.stringify(resultSet(head, { a: 0.02, b: 0.02 })));
  const event = { pull_request: { number: 5, head: { sha: head, repo: { full_name: 'acme/x' } }, base: { sha: mainSha, repo: { full_name: 'acme/x' } } } };
  const pr = await runAction(actionPath, scenario('pull_request', event, head, 'refs/pull/5/merge'), { mode: 'pr' });
  assert.equal(pr.outcome, 'failure');
  assert.equal(pr.outputs['regressed'], '1', JSON.stringify(pr.outputs));
  assert.match(pr.summary, /regressed/);
  assert.equal(dataTip(), tip, 'a pull request run never writes the data branch');
});

test('a main run appending while a pull request reads: both finish as they would alone, and the branch keeps every main run', async () => {
  // A second push to main, measured in its own checkout while the pull request of the first test runs again.
  const other = join(root, 'ws-main');
  git(root, 'clone', '-q', remote, other);
  git(other, 'commit', '-q', '--allow-empty', '-m', 'main 2');
  git(other, 'push', '-q', 'origin', 'main');
  const main2 = git(other, 'rev-parse', 'HEAD');
  writeFileSync(join(other, 'measured.json'), JSON.stringify(resultSet(main2, { a: 0.05, b: 0.05 })));
  const head = git(ws, 'rev-parse', 'HEAD');
  const before = git(root, '--git-dir', remote, 'ls-tree', '-r', '--name-only', 'perf-gate-data').split('\n');
  const event = { pull_request: { number: 5, head: { sha: head, repo: { full_name: 'acme/x' } }, base: { sha: mainSha, repo: { full_name: 'acme/x' } } } };

  const [main, pr] = await Promise.all([
    runAction(actionPath, scenario('push', { ref: 'refs/heads/main' }, main2, 'refs/heads/main', other), { mode: 'main', 'fail-on': 'never' }),
    runAction(actionPath, scenario('pull_request', event, head, 'refs/pull/5/merge'), { mode: 'pr' }),
  ]);

  assert.equal(main.outcome, 'success', JSON.stringify(main.annotations));
  // The pull request still gates against its merge base's run (a: 10 ms → 20 ms), not main's newer, slower one.
  assert.equal(pr.outcome, 'failure', JSON.stringify(pr.annotations));
  assert.equal(pr.outputs['regressed'], '1', JSON.stringify(pr.outputs));
  assert.match(pr.summary, new RegExp(`Baseline <code>${mainSha.slice(0, 7)}</code>`));
  const after = git(root, '--git-dir', remote, 'ls-tree', '-r', '--name-only', 'perf-gate-data').split('\n');
  assert.equal(after.length, before.length + 1, `one run added: ${after.join(', ')}`);
  assert.ok(
    before.every((f) => after.includes(f)),
    'no run was lost',
  );
  assert.ok(
    after.some((f) => f.includes(main2)),
    `the new run is under commit ${main2}: ${after.join(', ')}`,
  );
});

test('mode main whose data branch cannot be written stops before any suite runs, naming the remote', async () => {
  const other = join(root, 'unreachable');
  git(root, 'clone', '-q', remote, other);
  git(other, 'remote', 'set-url', 'origin', join(root, 'no-such-remote.git'));
  const marker = join(root, 'suite-ran');
  writeFileSync(
    join(other, 'perf-gate.yml'),
    `version: 1\nhistory:\n  branch: perf-gate-data\nsuites:\n  - name: scan\n    run: touch '${marker}'; cp "$GITHUB_WORKSPACE/measured.json" {output}\n    format: resultset\n`,
  );
  writeFileSync(join(other, 'measured.json'), JSON.stringify(resultSet(mainSha, { a: 0.01, b: 0.02 })));
  const run = await runAction(actionPath, scenario('push', { ref: 'refs/heads/main' }, mainSha, 'refs/heads/main', other), {
    mode: 'main',
    'fail-on': 'never',
  });
  assert.equal(run.outcome, 'failure');
  assert.match(JSON.stringify(run.annotations), /the data branch perf-gate-data cannot be written: the remote \\"origin\\" of .* does not answer/);
  assert.equal(existsSync(marker), false, 'no suite ran');
});
