import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { bestSplit, twoLevels, unsharedLevels } from '../../src/stats/index.js';
import { pythonReference } from './python-reference.js';
import { testData } from './random-data.js';

/** n process times: each draws the slow level (`gap` slower) with probability `slowShare`, and scatters by `within` (log-sd). */
function flipping(seed: number, n: number, slowShare: number, gap: number, within = 0.01): number[] {
  const d = testData(seed);
  return Array.from({ length: n }, () => 0.012 * (d.rng.next() < slowShare ? 1 + gap : 1) * Math.exp(within * d.normal()));
}

describe('levels: samples that settle in one of two levels', () => {
  test('the split and its separation agree with a brute-force NumPy reference', () => {
    const cases = [
      flipping(1, 20, 0.4, 0.22),
      flipping(2, 30, 0.1, 0.05, 0.02),
      flipping(3, 12, 0.5, 0.5),
      testData(4).times(25, 0.02, 0.03),
      testData(5).times(60, 0.001, 0.2),
      [1, 1, 1, 2, 2, 2, 2],
      [...flipping(6, 20, 0.3, 0.22), 0.06, 0.07],
    ];
    const ref = pythonReference<{ fast: number; separation: number | null } | null>(cases.map((values) => ({ kind: 'levels', values })));
    cases.forEach((values, i) => {
      const got = bestSplit(values)!;
      assert.equal(got.fast.values.length, ref[i]!.fast, `case ${i}: where the split is`);
      const d = ref[i]!.separation;
      if (d === null) assert.equal(got.separation, Infinity, `case ${i}`);
      else assert.ok(Math.abs(got.separation - d) < 1e-9 * Math.max(1, d), `case ${i}: D ${got.separation} vs ${d}`);
    });
  });

  test('levels only one side drew agree with a NumPy reference: none in A/A, the moved ones after a shift past the gap, none beside a side in one level', () => {
    const shifted = (seed: number, n: number, share: number, gap: number, scale: number): number[] => flipping(seed, n, share, gap).map((v) => v * scale);
    const cases: [number[], number[]][] = [
      [flipping(20, 30, 0.5, 0.11), flipping(21, 30, 0.4, 0.11)],
      [flipping(22, 30, 0.5, 0.11), shifted(23, 30, 0.5, 0.11, 1.15)],
      [flipping(24, 30, 0.3, 0.25), shifted(25, 30, 0.6, 0.25, 1.03)],
      [flipping(26, 30, 0.5, 0.25), flipping(27, 30, 0.5, 0.25).map((v) => (v > 0.0135 ? v * 1.15 : v))],
      [flipping(28, 20, 0, 0.25), flipping(29, 20, 0.4, 0.25)],
      [[...flipping(30, 30, 0.5, 0.11), 0.05], shifted(31, 30, 0.5, 0.11, 0.85)],
    ];
    const ref = pythonReference<{ side: string; rank: string; level: number; nearest: number }[]>(
      cases.map(([baseline, current]) => ({ kind: 'unshared', baseline, current })),
    );
    const got = cases.map(([b, c]) => unsharedLevels(b, c));
    cases.forEach((_, i) => {
      assert.deepEqual(
        got[i]!.map((u) => `${u.side} ${u.rank}`),
        ref[i]!.map((u) => `${u.side} ${u.rank}`),
        `case ${i}`,
      );
      got[i]!.forEach((u, k) =>
        assert.ok(Math.abs(u.level.median / ref[i]![k]!.level - 1) < 1e-12 && Math.abs(u.nearest.median / ref[i]![k]!.nearest - 1) < 1e-12, `case ${i}`),
      );
    });
    // What each case is: A/A, a shift past the gap (the base's fast level and the head's slow one are new ground), a
    // small shift (levels lined up, none), the slow level moved (each side's slow level), a side in one level (none),
    // a stall beside a level and a shift 15 % the other way (every level apart: the head's slow level is 6 % below the
    // base's fast one).
    assert.deepEqual(
      got.map((found) => found.length),
      [0, 2, 0, 2, 0, 4],
    );
  });

  test('two levels 22 % apart are found at every mix from 15 % to 85 % slow, with their medians', () => {
    for (const [seed, share] of [0.15, 0.3, 0.5, 0.7, 0.85].entries()) {
      const split = twoLevels(flipping(10 + seed, 30, share, 0.22));
      assert.ok(split, `a ${share} mix`);
      assert.ok(
        Math.abs(split.fast.median / 0.012 - 1) < 0.01 && Math.abs(split.slow.median / (0.012 * 1.22) - 1) < 0.01,
        `${share}: ${split.fast.median}, ${split.slow.median}`,
      );
    }
  });

  test('one level is one level: normal or skewed noise, an outlier, two stalls, in 2,000 sets', () => {
    let found = 0;
    for (let seed = 0; seed < 500; seed++) {
      const d = testData(1000 + seed);
      const plain = d.times(20 + (seed % 31), 0.01, 0.01 + (seed % 5) * 0.01);
      const outlier = [...d.times(20, 0.01, 0.02), 0.03];
      const stalls = d.times(30, 0.01, 0.01).map((v, i) => (i % 15 === 0 ? v * (1.5 + 1.5 * d.rng.next()) : v));
      const skewed = d.times(30, 0.01, 0.01).map((v) => v * Math.exp(Math.abs(0.05 * d.normal())));
      for (const values of [plain, outlier, stalls, skewed]) if (twoLevels(values)) found++;
    }
    // A one-level set read as two levels is compared level by level, which is still a sound comparison: 1 % is the bound.
    assert.ok(found <= 20, `${found} of 2,000 one-level sets were taken for two levels`);
  });

  test('two levels 10 % and 22 % apart with 1 % scatter: found in at least nine of ten 30-value sets at a 20–80 % mix', () => {
    for (const gap of [0.1, 0.22]) {
      let found = 0;
      for (let seed = 0; seed < 200; seed++) if (twoLevels(flipping(3000 + seed, 30, 0.2 + (seed % 7) * 0.1, gap))) found++;
      assert.ok(found >= 180, `${gap}: ${found} of 200`);
    }
  });

  test('too few values, a non-positive value, or a level of two values: no levels', () => {
    assert.equal(bestSplit([1, 2, 3]), null);
    assert.equal(bestSplit([1, 2, 0, 3]), null);
    assert.equal(twoLevels([...flipping(7, 20, 0, 0.2), 0.02, 0.02]), null, 'two values are a pair of outliers, not a level');
  });
});
