import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapMedianRatio, seededRandom } from '../../src/stats/index.js';
import { pythonReference } from './python-reference.js';
import { testData } from './random-data.js';

describe('bootstrap of the median ratio', () => {
  test('percentile interval agrees with scipy.stats.bootstrap within Monte-Carlo error on 30 samples', () => {
    const data = testData(81);
    const cases = Array.from({ length: 30 }, (_, i) => ({
      kind: 'bootstrap',
      baseline: data.times(data.int(15, 40), 1, 0.05),
      current: data.times(data.int(15, 40), 1.04, 0.05),
      resamples: 20000,
      confidence: 0.95,
      seed: i,
    }));
    const ref = pythonReference<{ lower: number; upper: number }>(cases);
    cases.forEach((c, i) => {
      const r = bootstrapMedianRatio(c.baseline, c.current, { resamples: c.resamples, seed: i + 1 });
      // Two independent resampling streams: endpoints agree to a fraction of the interval's width.
      const width = ref[i]!.upper - ref[i]!.lower;
      assert.ok(Math.abs(r.lower - ref[i]!.lower) <= 0.1 * width + 1e-12, `case ${i} lower ${r.lower} vs ${ref[i]!.lower}`);
      assert.ok(Math.abs(r.upper - ref[i]!.upper) <= 0.1 * width + 1e-12, `case ${i} upper ${r.upper} vs ${ref[i]!.upper}`);
    });
  });

  test('the same seed gives the same interval, another seed a different one', () => {
    const data = testData(82);
    const b = data.times(20, 1, 0.05);
    const c = data.times(20, 1.02, 0.05);
    assert.deepEqual(bootstrapMedianRatio(b, c, { seed: 7 }), bootstrapMedianRatio(b, c, { seed: 7 }));
    assert.notDeepEqual(bootstrapMedianRatio(b, c, { seed: 7 }), bootstrapMedianRatio(b, c, { seed: 8 }));
  });

  test('the seeded generator is uniform enough: 10 bins of 100,000 draws within 2 %', () => {
    const rng = seededRandom(123);
    const bins = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) bins[rng.int(10)]!++;
    for (const b of bins) assert.ok(Math.abs(b - 10_000) < 200, `bin count ${b}`);
  });
});
