import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultSet } from '../../src/model/index.js';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { runAction, type Scenario } from '../support/action-runner/scenario.js';
import { NAP_BENCHMARK, plantedRepo, type PlantedRepo } from '../support/bisect-repo.js';
import { gitSync, openFolder } from '../support/history.js';
import { requireTool } from '../support/tools.js';

requireTool('git', 'cc');

/**
 * `alert-bisect: true` end to end: the bundled action in mode main, `alert:
 * issue`, against the OpenAPI-checked fake GitHub, on a real repository of
 * 12 commits one of which makes the benchmark 4× slower (support/bisect-repo.ts).
 * The history has nightly-style runs only at the range's ends (ten at `good`,
 * five at the last commit), so the change point's range is the whole path;
 * the new issue gets a comment naming the planted commit, measured for real
 * (real builds in worktrees, interleaved A/B rounds). The next run updates
 * the issue and does not bisect again. Timing: real measurements, so it runs
 * in the timing pass, alone.
 */
let gh: FakeGitHub;
let actionPath: string;
let root: string;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-alert-bisect-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('ghs', null);
});
after(async () => {
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

const T0 = Date.now();

/** A run of the nap benchmark at `level` ms, `minute` minutes after T0. */
function run(commit: string, minute: number, level: number): ResultSet {
  return {
    schema: 'perf-gate/results@1',
    commit,
    ref: 'refs/heads/main',
    created: new Date(T0 + minute * 60_000).toISOString(),
    testbed: { id: 'bench-1' },
    benchmarks: [
      {
        id: NAP_BENCHMARK,
        status: 'ok',
        metrics: {
          time: { unit: 's', direction: 'lower', samples: [0.995, 1, 1.005, 0.998, 1.002].map((f) => f * level * 1e-3 * (1 + ((minute * 7) % 5) / 500)) },
        },
      },
    ],
  };
}

function mainRun(repo: PlantedRepo, minute: number, inputs: Record<string, string> = {}) {
  writeFileSync(join(repo.dir, 'measured.json'), JSON.stringify(run(repo.bad, minute, 4)));
  const scenario: Scenario = {
    workspace: repo.dir,
    runnerTemp: join(root, `temp-${minute}`),
    apiUrl: gh.url,
    token: 'ghs',
    repository: 'acme/nap',
    eventName: 'push',
    event: { ref: 'refs/heads/main' },
    sha: repo.bad,
    ref: 'refs/heads/main',
  };
  return runAction(actionPath, scenario, {
    mode: 'main',
    results: 'measured.json',
    alert: 'issue',
    'alert-bisect': 'true',
    'check-run': 'false',
    'fail-on': 'never',
    ...inputs,
  });
}

test('a new alert issue gets the commit that caused it, found by bisect; the next run does not bisect again', async () => {
  const repo = plantedRepo({ seed: 4, commits: 12 });
  // The history lives beside the checkout's files (untracked), as a folder store.
  appendFileSync(join(repo.dir, 'perf-gate.yml'), 'history:\n  folder: history\n');
  const store = openFolder(join(repo.dir, 'history'));
  for (let i = 0; i < 10; i++) await store.append(run(repo.good, i, 1), { commit: repo.good, testbed: 'bench-1' });
  for (let i = 10; i < 15; i++) await store.append(run(repo.bad, i, 4), { commit: repo.bad, testbed: 'bench-1' });

  const first = await mainRun(repo, 15);
  assert.equal(first.outcome, 'success', `${JSON.stringify(first.annotations)}\n${first.stdout.slice(-3000)}`);
  assert.equal(first.outputs['alerts'], '1', first.stdout.slice(-3000));
  const issues = gh.issues.filter((i) => i.repo === 'acme/nap');
  assert.equal(issues.length, 1);
  const comments = () => gh.comments.filter((c) => c.issue === issues[0]!.number);
  assert.equal(comments().length, 1, `one bisect comment: ${first.stdout.slice(-3000)}`);
  const comment = comments()[0]!.body;
  const planted = repo.planted!.slice(0, 7);
  assert.match(comment, /^perf-gate bisected this range/);
  assert.match(
    comment,
    new RegExp(`\\*\\*[^*]*${planted}[^*]*\\*\\*`),
    `the outcome names the planted commit ${planted} (commit ${repo.plantedIndex} of 12):\n${comment}`,
  );
  assert.ok(comment.includes('retune the work'), 'the culprit subject is shown');
  assert.ok(first.summary.includes(planted), 'and the job summary has it too');
  assert.equal(gitSync(repo.dir, ['worktree', 'list']).split('\n').length, 1, 'the worktrees are removed');

  const second = await mainRun(repo, 16);
  assert.equal(second.outcome, 'success');
  assert.equal(gh.issues.filter((i) => i.repo === 'acme/nap').length, 1, 'the same issue');
  assert.equal(comments().length, 1, 'no second bisect: the issue was only updated');
  assert.ok(!second.stdout.includes('perf-gate: bisect:'), 'bisect did not run');
});

test('alert-bisect without alert: issue stops the action naming the input', async () => {
  const repo = plantedRepo({ seed: 1, commits: 2, plant: false });
  const result = await mainRun(repo, 0, { alert: 'summary' });
  assert.equal(result.outcome, 'failure');
  assert.ok(
    result.annotations.some((a) => a.command === 'error' && /alert-bisect.*needs mode: main and alert: issue/.test(a.message)),
    JSON.stringify(result.annotations),
  );
});
