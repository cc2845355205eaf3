import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { absoluteDeviations, describe as describeValues, quantileOfSorted, sortedAbsoluteDeviations, sortedCopy, sortNumbers } from '../../src/stats/index.js';
import { pythonReference } from './python-reference.js';
import { testData } from './random-data.js';
import { close } from './mann-whitney.test.js';

describe('descriptive statistics', () => {
  test('mean, median, standard deviation and quantiles agree with numpy on 100 random samples', () => {
    const data = testData(61);
    const cases = Array.from({ length: 100 }, () => ({
      kind: 'describe',
      x: data.times(data.int(2, 80), 0.01, 0.3),
      q: data.rng.next(),
    }));
    const ref = pythonReference<{ mean: number; median: number; stddev: number; q: number }>(cases);
    cases.forEach((c, i) => {
      const d = describeValues(c.x);
      const e = ref[i]!;
      close(d.mean, e.mean, `case ${i} mean`);
      assert.equal(d.median, e.median, `case ${i} median`);
      close(d.stddev, e.stddev, `case ${i} stddev`);
      close(quantileOfSorted(sortedCopy(c.x), c.q), e.q, `case ${i} quantile ${c.q}`);
      assert.equal(d.min, Math.min(...c.x));
      assert.equal(d.max, Math.max(...c.x));
    });
  });

  test('never modifies its input and answers NaN for an empty sample', () => {
    const x = [3, 1, 2];
    describeValues(x);
    assert.deepEqual(x, [3, 1, 2]);
    assert.ok(Number.isNaN(describeValues([]).median));
  });

  test('absolute deviations from the median come out sorted without sorting, for odd, even and tied samples', () => {
    const data = testData(62);
    for (let t = 0; t < 200; t++) {
      const x = sortedCopy(Array.from({ length: data.int(0, 40) }, () => (t % 2 ? data.int(0, 4) : data.normal())));
      assert.deepEqual(sortedAbsoluteDeviations(x), sortedCopy(absoluteDeviations(x)), `trial ${t}`);
    }
  });

  test('the numeric sort agrees with the built-in typed-array sort, ties and NaN included', () => {
    const data = testData(63);
    for (let t = 0; t < 300; t++) {
      const n = data.int(0, 300);
      const a = Float64Array.from({ length: n }, () => (t % 3 === 0 ? data.int(-3, 3) : data.normal()));
      if (t % 50 === 7 && n > 0) a[0] = NaN;
      assert.deepEqual(sortNumbers(a.slice()), a.slice().sort(), `trial ${t} (n=${n})`);
    }
  });
});
