import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  hodgesLehmannCenter,
  hodgesLehmannShift,
  kthPairwiseDifference,
  kthWalshAverage,
  mannWhitney,
  sortedCopy,
  walshCountAtMost,
  wilcoxonSignedRank,
} from '../../src/stats/index.js';
import { compareMetrics, type ComparisonInput } from '../../src/gate/compare/index.js';
import { testData } from './random-data.js';

/**
 * Counts beyond 32 bits: m·n passes 2³¹ at about 46,341 samples a side, and
 * pytest-benchmark writes that many for a fast function. Every method must
 * give the same kind of answer there as at 40 samples.
 */

/** How many y[j] − x[i] are below and at most `v` (x, y ascending): an independent check of a selection. */
function countDifferences(x: Float64Array, y: Float64Array, v: number): { below: number; atMost: number } {
  let below = 0;
  let atMost = 0;
  let a = 0;
  let b = 0;
  // A larger x[i] moves row i's differences down, so both cut-offs only move right.
  for (let i = 0; i < x.length; i++) {
    const xi = x[i] as number;
    while (a < y.length && (y[a] as number) - xi < v) a++;
    while (b < y.length && (y[b] as number) - xi <= v) b++;
    below += a;
    atMost += b;
  }
  return { below, atMost };
}

function lognormalSide(n: number, scale: number, seed: number): number[] {
  return testData(seed).times(n, scale, 0.05);
}

describe('statistics at sample counts past 2³¹ pairs', () => {
  test('the k-th pairwise difference at 60,000 × 60,000 is the k-th by an independent count', () => {
    const x = sortedCopy(lognormalSide(60_000, 1, 1).map(Math.log));
    const y = sortedCopy(lognormalSide(60_000, 1.1, 2).map(Math.log));
    const total = 60_000 * 60_000;
    assert.ok(total > 2 ** 31);
    for (const k of [1, Math.floor(total / 2), Math.floor(total / 2) + 1, total - 17, total]) {
      const v = kthPairwiseDifference(x, y, k);
      const { below, atMost } = countDifferences(x, y, v);
      assert.ok(below < k && k <= atMost, `k=${k}: ${below} below and ${atMost} at most ${v}`);
    }
  });

  test('a real 10 % shift at 60,000 samples a side is found, with an interval around it', () => {
    const base = sortedCopy(lognormalSide(60_000, 1, 3).map(Math.log));
    const cur = sortedCopy(lognormalSide(60_000, 1.1, 4).map(Math.log));
    const hl = hodgesLehmannShift(base, cur, { presorted: true });
    assert.ok(Math.abs(Math.expm1(hl.estimate) - 0.1) < 0.005, `estimate ${Math.expm1(hl.estimate)}`);
    assert.ok(hl.lower < hl.estimate && hl.estimate < hl.upper);
    assert.ok(hl.upper - hl.lower < 0.01, `interval [${hl.lower}, ${hl.upper}]`);
    const mw = mannWhitney(cur, base, { presorted: true });
    assert.ok(mw.p < 1e-100, `p ${mw.p}`);
  });

  for (const n of [100_000, 1_000_000]) {
    test(`identical samples at ${n.toLocaleString('en')} a side: shift 0, a symmetric interval, p = 1`, () => {
      const side = sortedCopy(lognormalSide(n, 1, 5).map(Math.log));
      const hl = hodgesLehmannShift(side, side, { presorted: true });
      assert.equal(hl.estimate, 0);
      assert.equal(hl.lower, -hl.upper);
      assert.ok(hl.upper > 0 && hl.upper < 0.01, `upper ${hl.upper}`);
      const mw = mannWhitney(side, side, { presorted: true });
      assert.ok(mw.p > 0.99, `p ${mw.p}`);
    });
  }

  test('through the gate: 60,000 samples a side 10 % slower regress, identical ones are unchanged', () => {
    const base = lognormalSide(60_000, 1, 6);
    const row = (current: number[]): ComparisonInput => ({
      baseline: { unit: 's', direction: 'lower', samples: base },
      current: { unit: 's', direction: 'lower', samples: current },
      exact: false,
      paired: false,
      regression: 0.05,
      noise: 0.01,
      alpha: 0.01,
    });
    const [slower, same] = compareMetrics([row(base.map((v) => v * 1.1)), row(base)]);
    assert.equal(slower!.status, 'regressed');
    assert.ok(Math.abs(slower!.change! - 0.1) < 1e-9, `change ${slower!.change}`);
    assert.equal(same!.status, 'unchanged');
    assert.equal(same!.change, 0);
  });
});

describe('Walsh averages selected without materialising them', () => {
  test('the k-th Walsh average equals the sorted materialised one, ties and negatives included', () => {
    const data = testData(31);
    for (let trial = 0; trial < 200; trial++) {
      const n = data.int(1, 120);
      const tied = trial % 3 === 0;
      const s = sortedCopy(Array.from({ length: n }, () => (tied ? data.int(-3, 3) : data.normal())));
      const all: number[] = [];
      for (let i = 0; i < n; i++) for (let j = i; j < n; j++) all.push(((s[i] as number) + (s[j] as number)) / 2);
      const sorted = sortedCopy(all);
      for (const k of [1, data.int(1, all.length), Math.ceil(all.length / 2), all.length]) {
        assert.equal(kthWalshAverage(s, k), sorted[k - 1], `trial ${trial} k=${k} of ${all.length}`);
      }
      assert.ok(Number.isNaN(kthWalshAverage(s, all.length + 1)));
    }
  });

  test('the centre of 3,000 rounds (selected) equals the centre from all 4.5 M averages', () => {
    const d = testData(32)
      .times(3000, 1, 0.02)
      .map((v) => Math.log(v) + 0.03);
    const s = sortedCopy(d);
    const all = new Float64Array((3000 * 3001) / 2);
    let c = 0;
    for (let i = 0; i < 3000; i++) for (let j = i; j < 3000; j++) all[c++] = ((s[i] as number) + (s[j] as number)) / 2;
    all.sort();
    const r = hodgesLehmannCenter(d);
    const half = all.length / 2;
    assert.equal(r.estimate, ((all[half - 1] as number) + (all[half] as number)) / 2);
    assert.equal(r.lower, all[r.k - 1]);
    assert.equal(r.upper, all[all.length - r.k]);
    assert.equal(walshCountAtMost(s, r.upper), all.length - r.k + 1 + countEqualAbove(all, all.length - r.k));
  });

  test('100,000 paired rounds 10 % slower: the signed-rank test and the centre find it', () => {
    const d = testData(33).times(100_000, 1.1, 0.02).map(Math.log);
    const r = hodgesLehmannCenter(d);
    assert.ok(Math.abs(Math.expm1(r.estimate) - 0.1) < 0.002, `estimate ${Math.expm1(r.estimate)}`);
    assert.ok(r.lower < r.estimate && r.estimate < r.upper);
    assert.ok(wilcoxonSignedRank(d).p < 1e-100);
  });
});

/** Copies of all[index] after it (ties at the upper limit). */
function countEqualAbove(all: Float64Array, index: number): number {
  let c = 0;
  for (let i = index + 1; i < all.length && all[i] === all[index]; i++) c++;
  return c;
}
