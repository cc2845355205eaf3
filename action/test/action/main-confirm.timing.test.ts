import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultSet } from '../../src/model/index.js';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { runAction, type Scenario } from '../support/action-runner/scenario.js';
import { runCli } from '../support/cli.js';
import { busyLoopSource } from '../support/programs.js';
import { gitSync } from '../support/history.js';
import { requireTool } from '../support/tools.js';

requireTool('git', 'cc', 'hyperfine');

/**
 * The two stages on main, end to end: the bundled action in mode main with
 * `alert: issue`, against the OpenAPI-checked fake GitHub, on a real program
 * whose runs on main are real measurements. A run that one stall made three times
 * as slow (its real samples doubled, as a loaded machine gives them) looks
 * like a step to the change points; measured again interleaved between its
 * two commits it is gone, so no issue opens. A real step (the loop made twice
 * as long) is confirmed and opens one.
 */
let gh: FakeGitHub;
let actionPath: string;
let root: string;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-main-confirm-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('ghs', null);
});
after(async () => {
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

/** Commits dated a day back: the history looks for a commit's runs from its date on, and runCli's clock is fixed. */
const DATED = { GIT_AUTHOR_DATE: '2026-11-20T12:00:00Z', GIT_COMMITTER_DATE: '2026-11-20T12:00:00Z' };

/** A repository whose main has `runs` commits, each measured for real once and recorded in the history folder. */
async function mainWithRealRuns(name: string, runs: number): Promise<string> {
  const ws = join(root, name);
  gitSync(root, ['init', '--quiet', '-b', 'main', ws]);
  writeFileSync(
    join(ws, 'perf-gate.yml'),
    'version: 1\nhistory:\n  folder: history\nsuites:\n  - name: work\n    build: cc -O2 -o busy busy.c\n    commands:\n      loop: ./busy\n    runs: 10\n',
  );
  writeFileSync(join(ws, 'busy.c'), busyLoopSource(6_000_000));
  writeFileSync(join(ws, '.gitignore'), 'busy\nhistory/\nout/\n*.json\n');
  gitSync(ws, ['add', '.'], DATED);
  gitSync(ws, ['commit', '-q', '-m', 'main'], DATED);
  for (let i = 0; i < runs; i++) await recordRun(ws, `commit ${i}`);
  return ws;
}

/** An empty commit on main (or `change` applied), measured once and recorded with --mode main. */
async function recordRun(ws: string, message: string, change?: () => void): Promise<void> {
  change?.();
  gitSync(ws, ['add', '.'], DATED);
  gitSync(ws, ['commit', '-q', '--allow-empty', '-m', message], DATED);
  const r = await runCli(['run', '--mode', 'main', '--out', 'out'], ws, { PATH: process.env.PATH, HOME: process.env.HOME });
  assert.match(r.stdout, /baseline written to/, r.stdout + r.stderr);
}

/** The next commit on main measured for real, its samples multiplied by `stall` (3: a run a loaded machine slowed down). */
async function measuredRun(ws: string, message: string, stall: number): Promise<string> {
  gitSync(ws, ['commit', '-q', '--allow-empty', '-m', message], DATED);
  const r = await runCli(['run', '--out', 'measured'], ws, { PATH: process.env.PATH, HOME: process.env.HOME });
  assert.ok(r.status <= 1, r.stdout + r.stderr);
  const set = JSON.parse(readFileSync(join(ws, 'measured', 'results.json'), 'utf8')) as ResultSet;
  for (const b of set.benchmarks) for (const m of Object.values(b.metrics)) if (m.samples) m.samples = m.samples.map((v) => v * stall);
  writeFileSync(join(ws, 'measured.json'), JSON.stringify(set));
  return gitSync(ws, ['rev-parse', 'HEAD']);
}

function actionOnMain(ws: string, sha: string, name: string) {
  const scenario: Scenario = {
    workspace: ws,
    runnerTemp: join(root, `temp-${name}`),
    apiUrl: gh.url,
    token: 'ghs',
    repository: `acme/${name}`,
    eventName: 'push',
    event: { ref: 'refs/heads/main' },
    sha,
    ref: 'refs/heads/main',
  };
  return runAction(actionPath, scenario, {
    mode: 'main',
    results: 'measured.json',
    alert: 'issue',
    'check-run': 'false',
    'fail-on': 'never',
    preflight: 'off',
  });
}

test('one stalled run (three times as slow, the code unchanged) opens no issue: measured again, the step is gone', async () => {
  const ws = await mainWithRealRuns('stall', 10);
  // Three times, not twice: one real run of ten that a busy CI machine made 1.5× slower widens the history's
  // spread enough that a lone 2× run at its end is no change point at p ≤ 0.001 (seen once on CI).
  const sha = await measuredRun(ws, 'docs only', 3);
  const result = await actionOnMain(ws, sha, 'stall');
  assert.equal(result.outcome, 'success', JSON.stringify(result.annotations));
  // The change points do see the stall as a step...
  assert.equal(result.outputs['alerts'], '1', `${result.summary}\n${result.stdout.slice(-3000)}`);
  // ...but the two commits side by side do not: no issue.
  assert.deepEqual(
    gh.issues.filter((i) => i.repo === 'acme/stall'),
    [],
  );
  assert.match(result.summary, /\*\*Not confirmed\*\* \(1 step measured again; no issue opened\)/);
  assert.match(result.summary, /work\/loop\*\* time \+\d+(\.\d+)? % at <code>[0-9a-f]{7}<\/code>: not confirmed: one run's outlier/);
});

test('a real step (the loop twice as long) is measured again, confirmed, and opens one issue', async () => {
  const ws = await mainWithRealRuns('step', 10);
  // The loop twice as long, recorded on main three times; the action's run is the fourth at the new level. A step
  // at the very end of a series is a change point at p < 0.001 only when its few runs stand clear of the earlier
  // runs' spread: with two, one slow run among the ten before (a busy CI machine) was enough to hide it.
  await recordRun(ws, 'twice the work', () => writeFileSync(join(ws, 'busy.c'), busyLoopSource(12_000_000)));
  await recordRun(ws, 'after the step');
  await recordRun(ws, 'after the step, again');
  const slow = await measuredRun(ws, 'after the step, once more', 1);
  const result = await actionOnMain(ws, slow, 'step');
  assert.equal(result.outcome, 'success', JSON.stringify(result.annotations));
  const issues = gh.issues.filter((i) => i.repo === 'acme/step');
  assert.equal(issues.length, 1, `alerts: ${result.outputs['alerts']}\n${result.summary}\n${result.stdout.slice(-3000)}`);
  assert.match(issues[0]!.title, /work\/loop time \+\d+(\.\d+)? % on [0-9a-f]+/);
  assert.doesNotMatch(result.summary, /Not confirmed/);
});
