import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPerfGateConfig } from '../../src/config/perf-gate-config.js';
import { DEFAULT_GATE_OPTIONS } from '../../src/gate/index.js';
import { EMPTY_BUDGETS } from '../../src/model/index.js';
import { defaultDeps, runGate, type ConfirmPlan } from '../../src/pipeline/index.js';
import { resultSet } from '../action/fixtures.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('git');

/**
 * When the second stage must not or cannot run, every suspect says why and
 * nothing is built: the plan refuses it (a fork's pull request), or the
 * baseline names no commit. The suite copies a prepared ResultSet twice as
 * slow as the baseline, so the screen always suspects it.
 */
function project(): string {
  const dir = tempDir('pg-confirm-');
  execFileSync('git', ['init', '-q', '--initial-branch=main', dir]);
  writeFileSync(join(dir, 'perf-gate.yml'), 'version: 1\nsuites:\n  - name: copy\n    run: cp "$PERF_GATE_RESULT" {output}\n    format: resultset\n');
  writeFileSync(join(dir, 'current.json'), JSON.stringify(resultSet('c'.repeat(40), { parse: 0.02 })));
  return dir;
}

/** perf-gate.yml replaced by `yaml` and committed; returns the commit (the second stage's base). */
function commitConfig(dir: string, yaml: string): string {
  writeFileSync(join(dir, 'perf-gate.yml'), yaml);
  execFileSync('git', ['-C', dir, 'add', 'perf-gate.yml']);
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'base']);
  return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
}

async function gateWith(dir: string, baselineCommit: string | undefined, confirm: ConfirmPlan) {
  const baseline = resultSet(baselineCommit ?? 'b'.repeat(40), { 'copy/parse': 0.01 });
  if (baselineCommit === undefined) delete baseline.commit;
  writeFileSync(join(dir, 'baseline.json'), JSON.stringify(baseline));
  let printed = '';
  const outcome = await runGate(
    {
      current: { suites: loadPerfGateConfig('perf-gate.yml', dir), shard: null, outDir: join(dir, 'out') },
      store: null,
      baseline: { paths: [join(dir, 'baseline.json')], read: { cwd: dir, created: '2026-11-21T12:00:00Z' } },
      budgets: EMPTY_BUDGETS,
      options: DEFAULT_GATE_OPTIONS,
      labels: { baselineInput: '--baseline', current: 'this run' },
      record: null,
      confirm,
    },
    {
      env: { ...process.env, PERF_GATE_RESULT: join(dir, 'current.json') },
      write: (t) => void (printed += t),
      now: () => new Date('2026-11-21T12:00:00Z'),
      deps: defaultDeps(),
      cleanups: [],
    },
  );
  return { report: outcome.report, printed };
}

describe('a suspect the second stage cannot measure again', () => {
  test("a fork's pull request: suspected, nothing built, and it passes unless suspects fail", async () => {
    const dir = project();
    const { report, printed } = await gateWith(dir, 'b'.repeat(40), { failSuspected: false, refused: { code: 'fork' } });
    const row = report.rows[0]!;
    assert.equal(row.status, 'suspected');
    assert.equal(row.failsGate, false);
    assert.equal(report.verdict, 'pass');
    assert.deepEqual(row.stage, {
      by: 'screen',
      suspect: true,
      screen: { status: 'regressed', change: row.change, ci: row.ci, why: 'regressed' },
      unconfirmed: { code: 'fork' },
    });
    assert.deepEqual(report.stages?.confirm, { seconds: 0, base: 'b'.repeat(40), suites: [], skipped: { code: 'fork' } });
    assert.doesNotMatch(printed, /confirming/);
    assert.equal(execFileSync('git', ['-C', dir, 'worktree', 'list'], { encoding: 'utf8' }).trim().split('\n').length, 1);
    const strict = await gateWith(dir, 'b'.repeat(40), { failSuspected: true, refused: { code: 'fork' } });
    assert.equal(strict.report.verdict, 'fail');
  });

  test('the time cap: a second stage whose builds outlast it runs no round, and the suspect says the cap stopped it', async () => {
    const dir = project();
    const base = commitConfig(
      dir,
      'version: 1\nconfirm-time-cap: 1s\nsuites:\n  - name: copy\n    build: sleep 1.5\n    run: cp "$PERF_GATE_RESULT" {output}\n    format: resultset\n',
    );
    const { report, printed } = await gateWith(dir, base, { failSuspected: false });
    const row = report.rows[0]!;
    assert.equal(row.status, 'suspected', printed);
    assert.ok(row.stage?.by === 'screen' && row.stage.suspect && row.stage.unconfirmed.code === 'time-cap', JSON.stringify(row.stage));
    assert.match(printed, /confirming 1 suspect benchmark\(s\) in 1 suite\(s\)/);
    assert.deepEqual(report.stages?.confirm.skipped, { code: 'time-cap', message: '1 s' });
    assert.equal(execFileSync('git', ['-C', dir, 'worktree', 'list'], { encoding: 'utf8' }).trim().split('\n').length, 1);
  });

  test("hardening 3.7: a base build that hangs is stopped by a 3 s cap, not by the suite's 10-minute timeout", async () => {
    const dir = project();
    const base = commitConfig(
      dir,
      'version: 1\nconfirm-time-cap: 3s\nsuites:\n  - name: copy\n    build: if [ "$PERF_GATE_SIDE" = base ]; then sleep 60; fi\n    run: cp "$PERF_GATE_RESULT" {output}\n    format: resultset\n',
    );
    const { report, printed } = await gateWith(dir, base, { failSuspected: false });
    const row = report.rows[0]!;
    assert.equal(row.status, 'suspected', printed);
    assert.ok(row.stage?.by === 'screen' && row.stage.suspect && row.stage.unconfirmed.code === 'time-cap', JSON.stringify(row.stage));
    assert.match(printed, /\[base\] build: build \(base\) stopped by the time cap \(confirm-time-cap\)/);
    // The cap is 3 s; the hanging build would take 60 s. Generous bound for a slow machine, far below the hang.
    assert.ok(report.stages!.confirm.seconds < 20, `the second stage took ${report.stages!.confirm.seconds} s`);
  });

  test('a baseline that names no commit: suspected, saying so, when the second stage was asked for by name', async () => {
    const { report } = await gateWith(project(), undefined, { failSuspected: false, asked: true });
    assert.equal(report.rows[0]!.status, 'suspected');
    assert.deepEqual(report.stages?.confirm.skipped, { code: 'no-base-commit' });
  });

  test('left to auto, a baseline that names no commit keeps the one-stage verdict: nothing to build, nothing to clear', async () => {
    const { report } = await gateWith(project(), undefined, { failSuspected: false, asked: false });
    assert.equal(report.rows[0]!.status, 'regressed');
    assert.equal(report.verdict, 'fail');
    assert.equal(report.stages, undefined);
  });
});
