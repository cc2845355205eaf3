import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { gabFlagsSlower } from '../../../../bench/detect/rules/github-action-benchmark.js';
import { bencherFlagsSlower, bencherLimit } from '../../../../bench/detect/rules/bencher.js';
import { benchstatFlagsSlower } from '../../../../bench/detect/rules/benchstat.js';
import { criterionCompare, CRITERION_DEFAULTS } from '../../../../bench/detect/rules/criterion.js';
import { TUNED_BUDGET, perfGateSuiteFlags } from '../../../../bench/detect/rules/perf-gate.js';
import { seededRandom } from '../../../../action/src/stats/prng.js';
import type { TrialSamples } from '../../../../bench/detect/rules/rule.js';

const unpaired = (baseline: number[], current: number[]): TrialSamples => ({ baseline, current, paired: false });

/** Log-normal-ish timings around `level` with coefficient of variation `cv`, seeded. */
function timings(seed: number, n: number, level: number, cv: number): number[] {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const z = Math.sqrt(-2 * Math.log(1 - r.next())) * Math.cos(2 * Math.PI * r.next());
    return level * Math.exp(cv * z);
  });
}

describe('github-action-benchmark rule', () => {
  test('alerts only when the mean ratio is strictly above the threshold', () => {
    assert.equal(gabFlagsSlower(unpaired([1, 1], [2, 2]), 2.0), false, 'exactly 200 % is not above 200 %');
    assert.equal(gabFlagsSlower(unpaired([1, 1], [2, 2.02]), 2.0), true);
    assert.equal(gabFlagsSlower(unpaired([10, 10], [10.9, 11.3]), 1.1), true, 'mean 11.1 / 10 > 1.10');
    assert.equal(gabFlagsSlower(unpaired([10, 10], [10.9, 10.9]), 1.1), false);
  });
});

describe('Bencher t-test threshold', () => {
  test("limit equals Bencher's own reference for mean 0, population sd 1, 5 degrees of freedom", () => {
    // bencher_boundary's test: StudentsT(0, 1, 5).inverse_cdf(0.85) = 1.1557673428942912.
    const history = [-1, 1, -1, 1, -1, 1]; // mean 0, population sd 1, n − 1 = 5
    assert.ok(Math.abs(bencherLimit(history, 0.85) - 1.1557673428942912) < 1e-9);
  });
  test('uses the population standard deviation (divides by n)', () => {
    const history = [9, 11];
    // population sd 1, t(0.99, 1) = 31.820515953773956
    assert.ok(Math.abs(bencherLimit(history, 0.99) - (10 + 31.820515953773956)) < 1e-6);
  });
  test('flags a current mean beyond the limit and not one inside it', () => {
    const history = [10, 10.2, 9.8, 10.1, 9.9, 10, 10.05, 9.95];
    assert.equal(bencherFlagsSlower(unpaired(history, [11, 11.2])), true);
    assert.equal(bencherFlagsSlower(unpaired(history, [10.1, 10.2])), false);
  });
  test('a history without spread never alerts (Bencher returns no boundary)', () => {
    assert.equal(bencherFlagsSlower(unpaired([5, 5, 5], [50])), false);
  });
});

describe('benchstat rule', () => {
  test('flags a significantly slower current side (exact p = 2/252 for separated samples of 5)', () => {
    assert.equal(benchstatFlagsSlower(unpaired([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])), true);
  });
  test('does not flag a significantly faster current side', () => {
    assert.equal(benchstatFlagsSlower(unpaired([6, 7, 8, 9, 10], [1, 2, 3, 4, 5])), false);
  });
  test('does not flag overlapping samples (scipy: p = 0.111)', () => {
    assert.equal(benchstatFlagsSlower(unpaired([1.1, 2.2, 3.3, 4.4], [2.5, 3.6, 5.1, 6, 7.2])), false);
  });
});

describe('criterion.rs rule', () => {
  const base = timings(1, 30, 0.02, 0.01);
  test('a 10 % slowdown with 1 % noise is a regression with an interval above +1 %', () => {
    const r = criterionCompare(unpaired(base, timings(2, 30, 0.022, 0.01)));
    assert.equal(r.regressed, true);
    assert.ok(r.p < 0.05);
    assert.ok(r.ci[0] > 0.05 && r.ci[1] < 0.15, `ci ${r.ci.join(', ')}`);
  });
  test('a significant 0.5 % shift stays within the noise threshold', () => {
    const b = timings(3, 30, 0.02, 0.001);
    const c = timings(4, 30, 0.0201, 0.001);
    const r = criterionCompare(unpaired(b, c));
    assert.ok(r.p < 0.05, `p ${r.p}`);
    assert.equal(r.regressed, false);
  });
  test('the same distribution is not a regression, and the result is reproducible from the seed', () => {
    const t = unpaired(base, timings(5, 30, 0.02, 0.01));
    const r1 = criterionCompare(t);
    const r2 = criterionCompare(t);
    assert.equal(r1.regressed, false);
    assert.deepEqual(r1, r2);
    assert.ok(r1.p > 0.05);
  });
  test("defaults are criterion's: alpha 0.05, noise 1 %, 95 % interval", () => {
    assert.equal(CRITERION_DEFAULTS.significance, 0.05);
    assert.equal(CRITERION_DEFAULTS.noiseThreshold, 0.01);
    assert.equal(CRITERION_DEFAULTS.confidence, 0.95);
  });
});

describe('perf-gate rule through compareMetrics', () => {
  test('flags a clear 10 % interleaved slowdown and not an identical pair of sides', () => {
    const base = timings(6, 20, 0.02, 0.01);
    const slower: TrialSamples = { baseline: base, current: base.map((x) => x * 1.1), paired: true };
    const same: TrialSamples = { baseline: base, current: base.slice(), paired: true };
    assert.deepEqual(perfGateSuiteFlags([slower, same], TUNED_BUDGET), [true, false]);
  });
  test('does not flag a 1 % slowdown, below the 2 % tolerance', () => {
    const base = timings(7, 20, 0.02, 0.002);
    const t: TrialSamples = { baseline: base, current: base.map((x) => x * 1.01), paired: true };
    assert.deepEqual(perfGateSuiteFlags([t], TUNED_BUDGET), [false]);
  });
});
