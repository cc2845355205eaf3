import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BisectReport } from '../../src/gate/bisect-steps.js';
import { commitsMeasured } from '../../src/gate/bisect-steps.js';
import { runCli } from '../support/cli.js';
import { gitSync } from '../support/history.js';
import { NAP_BENCHMARK, plantedRepo } from '../support/bisect-repo.js';
import { requireTool } from '../support/tools.js';

/**
 * `perf-gate bisect` on real git repositories of 30 commits, with real
 * worktrees, a real compiler (the build step reads the work from the
 * checked-out commit) and real timing: the issue's requirement is that the
 * planted commit is found in at most 6 steps (the bad end plus ⌈log2 30⌉ = 5
 * midpoints) in at least 9 of 10 seeded runs, and that a range without a
 * change says so (support/bisect-repo.ts says why the program times itself).
 *
 * Slow on a loaded machine: each bisect is about 6 A/B measurements of 8+
 * rounds, two fresh processes per round, and two builds. Measured on the
 * shared 2-core VM at load average 11–14 (2026-11-25): 10/10 found, 6
 * commits measured in every run (6–8 measurements with the re-measured
 * inconclusive steps), 38–169 s per bisect, 935 s for the ten; the A/A
 * range 31–75 s. At load average 7 one bisect took 46 s.
 */
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };
const RUNS = 10;
const MAX_STEPS = 6;

function readReport(dir: string): BisectReport {
  return JSON.parse(readFileSync(join(dir, 'bisect.json'), 'utf8')) as BisectReport;
}

describe('perf-gate bisect (real git, real compiler, real timing)', () => {
  requireTool('git', 'cc');

  test(`finds the planted commit of 30 in at most ${MAX_STEPS} steps in at least 9 of ${RUNS} seeded runs (an undecided one bisected again once); never names another`, async () => {
    const outcomes: string[] = [];
    let found = 0;
    const started = performance.now();
    for (let seed = 1; seed <= RUNS; seed++) {
      const repo = plantedRepo({ seed });
      // Real timing on a shared VM: a seed that ended honestly undecided (no culprit named) is bisected
      // once more, as a user would; a wrong culprit is never acceptable, on either attempt.
      for (let attempt = 1; attempt <= 2; attempt++) {
        const t0 = performance.now();
        const r = await runCli(
          ['bisect', '--good', 'good', '--bad', 'main', '--benchmark', NAP_BENCHMARK, '--json', 'bisect.json', '--markdown', 'bisect.md'],
          repo.dir,
          ENV,
        );
        const seconds = (performance.now() - t0) / 1000;
        assert.ok(r.status === 0 || r.status === 1, `seed ${seed}: exit ${r.status}\n${r.stderr}\n${r.stdout.slice(-2000)}`);
        const report = readReport(repo.dir);
        const steps = commitsMeasured(report);
        const culprit = report.outcome.kind === 'culprit' ? report.outcome.commit.sha : null;
        outcomes.push(
          `seed ${seed}${attempt > 1 ? ' (again)' : ''}: planted ${repo.plantedIndex}, ${report.outcome.kind}${culprit ? ` ${repo.path.indexOf(culprit) + 1}` : ''}, ${steps} commits measured, ${report.steps.length} measurements, ${seconds.toFixed(1)} s`,
        );
        // A wrong culprit is never acceptable; an honest "inconclusive at …" is allowed once in ten.
        if (culprit !== null) assert.equal(culprit, repo.planted, `seed ${seed}: named a commit that did not change anything\n${r.stdout.slice(-3000)}`);
        assert.equal(r.status, culprit !== null ? 0 : 1, `seed ${seed}: exit status`);
        assert.equal(report.steps[0]!.commit.sha, repo.bad, 'step 1 measures the bad end');
        assert.ok(
          report.steps.every((s) => s.rounds >= 8),
          'every step rests on at least the configured 8 rounds',
        );
        assert.equal(gitSync(repo.dir, ['worktree', 'list']).split('\n').length, 1, `seed ${seed}: the worktrees are removed`);
        if (culprit === repo.planted && steps <= MAX_STEPS) {
          found++;
          break;
        }
        if (culprit !== null) break;
      }
    }
    const total = (performance.now() - started) / 1000;
    console.log(`bisect: ${outcomes.join('\n        ')}\n  ${found}/${RUNS} found in ≤ ${MAX_STEPS} steps, ${total.toFixed(1)} s in all`);
    assert.ok(found >= 9, `found in ≤ ${MAX_STEPS} steps in only ${found} of ${RUNS} runs:\n${outcomes.join('\n')}`);
  });

  test('a range without a change (A/A) says "no step found" and exits 0', async () => {
    const repo = plantedRepo({ seed: 1, plant: false });
    const r = await runCli(['bisect', '--good', 'good', '--bad', 'main', '--benchmark', NAP_BENCHMARK, '--json', 'bisect.json'], repo.dir, ENV);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const report = readReport(repo.dir);
    assert.equal(report.outcome.kind, 'no-step', JSON.stringify(report.steps));
    assert.match(r.stdout, new RegExp(`no step found between ${repo.good.slice(0, 7)} and ${repo.bad.slice(0, 7)}`));
    assert.ok(
      report.steps.every((s) => s.commit.sha === repo.bad),
      'only the bad end was measured',
    );
    assert.equal(gitSync(repo.dir, ['worktree', 'list']).split('\n').length, 1);
  });
});
