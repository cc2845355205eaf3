import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { betweenRunDrift, levelOfSamples, type RunLevel } from '../../src/stats/index.js';
import { pythonReference } from './python-reference.js';
import { testData } from './random-data.js';

/** `count` runs of `samples` times each: every run's level moves by `drift` (log-sd), samples scatter by `within`. */
function history(seed: number, count: number, samples: number, drift: number, within: number, step?: { at: number; by: number }): number[][] {
  const d = testData(seed);
  return Array.from({ length: count }, (_, i) => {
    const level = 0.02 * Math.exp(drift * d.normal()) * (step && i >= step.at ? 1 + step.by : 1);
    return d.times(samples, level, within);
  });
}

const levels = (runs: number[][]): RunLevel[] => runs.map((r) => levelOfSamples(r)!);

describe('betweenRunDrift', () => {
  test('agrees with numpy/scipy on the same runs', () => {
    const cases = [history(1, 6, 5, 0.02, 0.01), history(2, 20, 10, 0.005, 0.03), history(3, 40, 30, 0.05, 0.02)];
    const ref = pythonReference<{ sigma: number; sigmaTotal: number }>(cases.map((runs) => ({ kind: 'run-drift', runs })));
    cases.forEach((runs, i) => {
      const got = betweenRunDrift(levels(runs))!;
      assert.ok(Math.abs(got.sigmaTotal - ref[i]!.sigmaTotal) < 1e-12, `case ${i}: total ${got.sigmaTotal} vs ${ref[i]!.sigmaTotal}`);
      assert.ok(Math.abs(got.sigma - ref[i]!.sigma) < 1e-12, `case ${i}: ${got.sigma} vs ${ref[i]!.sigma}`);
      assert.equal(got.runs, runs.length);
    });
  });

  test('recovers a known run-to-run drift beside the within-run scatter', () => {
    const got = betweenRunDrift(levels(history(4, 400, 10, 0.03, 0.02)))!;
    assert.ok(got.sigma > 0.025 && got.sigma < 0.035, `estimated ${got.sigma}`);
    // The within-run part is taken out: the raw differences say more.
    assert.ok(got.sigmaTotal > got.sigma, `${got.sigmaTotal} vs ${got.sigma}`);
  });

  test('is near zero when runs do not drift, whatever the scatter within them', () => {
    const got = betweenRunDrift(levels(history(5, 400, 10, 0, 0.05)))!;
    assert.ok(got.sigma < 0.006, `estimated ${got.sigma}`);
  });

  test('a real 30 % step in the window is not counted as drift; the spread of the levels would be', () => {
    const steady = betweenRunDrift(levels(history(6, 20, 10, 0.01, 0.01)))!;
    const stepped = betweenRunDrift(levels(history(6, 20, 10, 0.01, 0.01, { at: 10, by: 0.3 })))!;
    assert.ok(Math.abs(stepped.sigma - steady.sigma) < 0.005, `steady ${steady.sigma}, with a step ${stepped.sigma}`);
    const ls = levels(history(6, 20, 10, 0.01, 0.01, { at: 10, by: 0.3 })).map((l) => l.level);
    const mean = ls.reduce((a, b) => a + b, 0) / ls.length;
    const sd = Math.sqrt(ls.reduce((a, b) => a + (b - mean) ** 2, 0) / (ls.length - 1));
    assert.ok(sd > 0.1, `the levels' standard deviation ${sd} counts the step`);
  });

  test('fewer than two usable levels give nothing; non-finite levels are skipped', () => {
    assert.equal(betweenRunDrift([]), null);
    assert.equal(betweenRunDrift([{ level: 1, variance: 0 }]), null);
    assert.equal(
      betweenRunDrift([
        { level: 1, variance: 0 },
        { level: NaN, variance: 0 },
      ]),
      null,
    );
    assert.equal(
      betweenRunDrift([
        { level: 0, variance: 0 },
        { level: Math.log(1.1), variance: 0 },
        { level: NaN, variance: 0 },
      ])!.runs,
      2,
    );
  });
});

describe('levelOfSamples', () => {
  test('the median of the logs; no level without positive samples', () => {
    assert.ok(Math.abs(levelOfSamples([1, 2, 4])!.level - Math.log(2)) < 1e-15);
    assert.equal(levelOfSamples([1, 0, 2]), null);
    assert.equal(levelOfSamples([]), null);
    assert.equal(levelOfSamples([3, 3, 3])!.variance, 0);
  });
});
