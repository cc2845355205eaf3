/**
 * The github-token never reaches benchmark code: not in the suite's own
 * environment, and not in node's startup environment, which a benchmark can
 * read from /proc/$PPID/environ (run-action.sh hands the token over on a file
 * descriptor instead). The runner's file commands are withheld too, so a
 * suite cannot forge step outputs or the job summary.
 */
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { runAction } from '../support/action-runner/scenario.js';
import { requireTool } from '../support/tools.js';

const TOKEN = 'ghs-secret-token-4f9c2e7a1b';

let gh: FakeGitHub;
let actionPath: string;
let root: string;

before(async () => {
  requireTool('hyperfine');
  root = mkdtempSync(join(tmpdir(), 'perf-gate-token-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set(TOKEN, null);
});
after(async () => {
  await gh?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

/**
 * The action in mode main on a workspace whose suite writes what it can see:
 * its parent node process's startup environment and its own.
 */
async function snoopingRun(name: string, extraEnv?: Record<string, string>) {
  const ws = join(root, name);
  mkdirSync(ws, { recursive: true });
  writeFileSync(
    join(ws, 'perf-gate.yml'),
    [
      'version: 1',
      'baselines: baselines/',
      'suites:',
      '  - name: snoop',
      // $PPID of the build's bash is the perf-gate node process.
      "    build: tr '\\0' '\\n' < /proc/$PPID/environ > parent-env.txt; env > suite-env.txt; echo forged=1 >> \"${GITHUB_OUTPUT:-/dev/null}\"",
      "    run: hyperfine --runs 2 --export-json {output} 'true'",
      '    format: hyperfine',
      '    timeout: 1m',
      '',
    ].join('\n'),
  );
  const r = await runAction(
    actionPath,
    {
      workspace: ws,
      runnerTemp: join(root, `temp-${name}`),
      apiUrl: gh.url,
      token: TOKEN,
      repository: 'acme/x',
      eventName: 'push',
      event: { ref: 'refs/heads/main' },
      sha: '7'.repeat(40),
      ...(extraEnv ? { extraEnv } : {}),
    },
    { mode: 'main' },
  );
  return { r, parentEnv: readFileSync(join(ws, 'parent-env.txt'), 'utf8'), suiteEnv: readFileSync(join(ws, 'suite-env.txt'), 'utf8') };
}

test('a suite finds the token neither in its environment nor in its parent node process', async () => {
  const { r, parentEnv, suiteEnv } = await snoopingRun('ws');
  assert.equal(r.outcome, 'success', r.steps.map((s) => s.stderr).join('\n'));
  // The fake answers 401 to any other token: requests that pass show the handoff on fd 3 delivered it.
  assert.ok(gh.requests.length > 0, 'the action talked to GitHub');
  assert.deepEqual(
    gh.requests.filter((q) => q.status === 401),
    [],
    'every request carried the real token',
  );

  assert.match(parentEnv, /^GITHUB_REPOSITORY=acme\/x$/m, 'the parent environment was really read');
  assert.match(suiteEnv, /^PERF_GATE_SUITE=snoop$/m, 'the suite environment was really written');
  assert.ok(!parentEnv.includes(TOKEN), "node's startup environment holds no token");
  assert.ok(!suiteEnv.includes(TOKEN), "the suite's environment holds no token");
  assert.doesNotMatch(parentEnv, /^INPUT_GITHUB_TOKEN=/m);
  for (const name of ['GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STATE', 'GITHUB_STEP_SUMMARY', 'PERF_GATE_TOKEN_FD', 'GH_TOKEN']) {
    assert.doesNotMatch(suiteEnv, new RegExp(`^${name}=`, 'm'), `${name} is withheld from the suite`);
  }
  assert.equal(r.outputs['forged'], undefined, 'the suite could not set a step output');
});

test('hardening 3.13: a runner that also exports the input as INPUT_GITHUB-TOKEN leaks neither spelling to node or the suite', async () => {
  const { r, parentEnv, suiteEnv } = await snoopingRun('ws-hyphen', { 'INPUT_GITHUB-TOKEN': TOKEN });
  assert.equal(r.outcome, 'success', r.steps.map((s) => s.stderr).join('\n'));
  assert.match(parentEnv, /^GITHUB_REPOSITORY=acme\/x$/m, 'the parent environment was really read');
  assert.ok(!parentEnv.includes(TOKEN), "node's startup environment holds neither spelling");
  assert.ok(!suiteEnv.includes(TOKEN), "the suite's environment holds neither spelling");
});
