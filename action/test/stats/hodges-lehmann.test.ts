import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { hodgesLehmannShift, kthPairwiseDifference, sortedCopy } from '../../src/stats/index.js';
import { pythonReference } from './python-reference.js';
import { testData } from './random-data.js';

interface Ref {
  estimate: number;
  lower: number;
  upper: number;
  k: number;
}

describe('Hodges–Lehmann shift and Moses interval', () => {
  test('selection returns exactly the k-th sorted pairwise difference, ties included', () => {
    const data = testData(21);
    for (let trial = 0; trial < 300; trial++) {
      const m = data.int(1, 60);
      const n = data.int(1, 60);
      const tied = trial % 3 === 0;
      const draw = (k: number): number[] => Array.from({ length: k }, () => (tied ? data.int(0, 5) : data.normal()));
      const x = sortedCopy(draw(m));
      const y = sortedCopy(draw(n));
      const all: number[] = [];
      for (const xi of x) for (const yj of y) all.push(yj - xi);
      const sorted = sortedCopy(all);
      for (const k of [1, data.int(1, m * n), (m * n + 1) >> 1, m * n]) {
        assert.equal(kthPairwiseDifference(x, y, k), sorted[k - 1], `trial ${trial} k=${k} of ${m}×${n}`);
      }
    }
  });

  test('estimate and interval equal a direct computation (all differences, exact U quantiles) on 150 random samples', () => {
    const data = testData(22);
    const confidences = [0.9, 0.95, 0.99];
    const cases = Array.from({ length: 150 }, (_, i) => {
      const big = i % 10 === 0;
      const m = big ? data.int(51, 90) : data.int(2, 40);
      const n = big ? data.int(51, 90) : data.int(2, 40);
      return {
        kind: 'hl2',
        x: data.times(m, 1, 0.1).map(Math.log),
        y: data.times(n, 1.03, 0.1).map(Math.log),
        confidence: confidences[i % 3] as number,
      };
    });
    const ref = pythonReference<Ref>(cases);
    cases.forEach((c, i) => {
      const r = hodgesLehmannShift(c.x, c.y, { confidence: c.confidence });
      const e = ref[i]!;
      assert.equal(r.k, e.k, `case ${i} (${c.x.length}×${c.y.length} at ${c.confidence}) k`);
      assert.equal(r.estimate, e.estimate, `case ${i} estimate`);
      assert.equal(r.lower, e.lower, `case ${i} lower`);
      assert.equal(r.upper, e.upper, `case ${i} upper`);
      assert.ok(r.lower <= r.estimate && r.estimate <= r.upper);
      if (r.method === 'exact') assert.ok(r.achievedLevel >= c.confidence - 1e-12, `case ${i} coverage ${r.achievedLevel}`);
    });
  });

  test('uses the tabulated critical value: sizes 5 and 10 at 95 % reject for U ≤ 8, so k = 9', () => {
    // Mann–Whitney critical-value tables (two-sided α = 0.05, n1 = 5, n2 = 10): U ≤ 8.
    const x = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
    const y = [1.15, 0.88, 0.9, 0.74, 1.21];
    const r = hodgesLehmannShift(x, y, { confidence: 0.95 });
    const all = sortedCopy(x.flatMap((xi) => y.map((yj) => yj - xi)));
    assert.equal(r.k, 9);
    assert.equal(r.lower, all[8]);
    assert.equal(r.upper, all[all.length - 9]);
    assert.equal(r.estimate, (all[24]! + all[25]!) / 2); // 50 differences: mean of the 25th and 26th
  });
});
