import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { logMoments, mean, variance, welch, varianceRatioTest } from '../../src/stats/index.js';
import { pythonReference } from './python-reference.js';
import { testData } from './random-data.js';
import { close } from './mann-whitney.test.js';

describe("Welch's t-test from summaries", () => {
  test('t, df, p and the interval agree with scipy ttest_ind(equal_var=False) on 200 random samples', () => {
    const data = testData(41);
    const cases = Array.from({ length: 200 }, (_, i) => ({
      kind: 'welch',
      x: data.times(data.int(2, 60), 1, 0.02 + 0.2 * data.rng.next()),
      y: data.times(data.int(2, 60), 1 + 0.1 * data.normal(), 0.02 + 0.2 * data.rng.next()),
      confidence: [0.9, 0.95, 0.99][i % 3] as number,
    }));
    const ref = pythonReference<{ t: number; df: number; p: number; lower: number; upper: number }>(cases);
    cases.forEach((c, i) => {
      const m = (v: number[]) => ({ mean: mean(v), variance: variance(v), n: v.length });
      const r = welch(m(c.x), m(c.y), c.confidence);
      const e = ref[i]!;
      close(r.t, e.t, `case ${i} t`);
      close(r.df, e.df, `case ${i} df`);
      close(r.p, e.p, `case ${i} p`);
      close(r.lower, e.lower, `case ${i} lower`);
      close(r.upper, e.upper, `case ${i} upper`);
    });
  });

  test('log moments invert the log-normal mean and standard deviation', () => {
    for (const [mu, s2] of [
      [-3, 0.01],
      [0, 0.25],
      [2, 1],
    ] as const) {
      const m = Math.exp(mu + s2 / 2);
      const sd = m * Math.sqrt(Math.expm1(s2));
      const r = logMoments(m, sd, 10);
      assert.ok(Math.abs(r.mean - mu) < 1e-12, `mean for μ=${mu}: ${r.mean}`);
      close(r.variance, s2, `variance for σ²=${s2}`);
    }
  });

  test('one-sided F test on variances agrees with scipy f.sf', () => {
    const data = testData(42);
    const cases = Array.from({ length: 100 }, () => ({
      kind: 'fsf',
      nx: data.int(2, 60),
      ny: data.int(2, 60),
      vx: 0.01 + data.rng.next(),
      vy: 0.01 + 3 * data.rng.next(),
    })).map((c) => ({ ...c, ratio: c.vy / c.vx, dfn: c.ny - 1, dfd: c.nx - 1 }));
    const ref = pythonReference<{ p: number }>(cases);
    cases.forEach((c, i) => {
      const r = varianceRatioTest({ variance: c.vx, n: c.nx }, { variance: c.vy, n: c.ny });
      close(r.p, ref[i]!.p, `case ${i} p`);
    });
  });
});
