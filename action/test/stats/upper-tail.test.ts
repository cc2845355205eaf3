import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sortedCopy, upperTailExcess } from '../../src/stats/index.js';
import { pythonReference } from './python-reference.js';
import { close } from './mann-whitney.test.js';
import { testData } from './random-data.js';

/** n log values of a steady benchmark (log-sd sigma) with some runs slowed by factors drawn from [lo, hi]. */
function logRuns(data: ReturnType<typeof testData>, n: number, sigma: number, slowRate: number, lo: number, hi: number): number[] {
  return Array.from({ length: n }, () => sigma * data.normal() + (data.rng.next() < slowRate ? Math.log(lo + (hi - lo) * data.rng.next()) : 0));
}

describe('upper-tail excess', () => {
  test('counts, excess and p-value equal numpy counts and scipy binom.sf at the baseline rate (kb + ½)/(nb + 1)', () => {
    const data = testData(111);
    const cases = Array.from({ length: 200 }, () => {
      const factor = [1.5, 2, 1.3][data.int(0, 2)]!;
      return {
        kind: 'upper-tail',
        factor,
        baseline: logRuns(data, data.int(3, 60), 0.05 + 0.1 * data.rng.next(), 0.1 * data.rng.next(), 1.1, 3),
        current: logRuns(data, data.int(3, 60), 0.05 + 0.1 * data.rng.next(), 0.3 * data.rng.next(), 1.1, 3),
      };
    });
    const ref = pythonReference<{ kb: number; kc: number; p: number; excess: number }>(cases);
    cases.forEach((c, i) => {
      const r = upperTailExcess(c.baseline, c.current, { factor: c.factor });
      assert.equal(r.baselineCount, ref[i]!.kb, `case ${i} baseline count`);
      assert.equal(r.currentCount, ref[i]!.kc, `case ${i} current count`);
      assert.equal(r.baselineN, c.baseline.length);
      assert.equal(r.currentN, c.current.length);
      close(r.excess, ref[i]!.excess, `case ${i} excess`);
      close(r.p, ref[i]!.p, `case ${i} p`);
    });
    // Both outcomes occur in the reference cases, so the comparison is not vacuous.
    assert.ok(ref.some((r) => r.kc >= 3 && r.p < 0.02) && ref.some((r) => r.kb > 0));
  });

  test('a baseline run halfway to the bar (√factor) counts against the current, one below it does not', () => {
    const base = [0, 0.01, -0.01, 0.02, -0.02, 0.03, -0.03, 0.04, -0.04, 0.05];
    const current = [0, 0.01, -0.01, 0.02, -0.02, 0.03, -0.03, Math.log(2), Math.log(2.2), Math.log(2.4)];
    const quiet = upperTailExcess(base, current, { factor: 1.5 });
    const shoulder = upperTailExcess([...base.slice(0, 9), Math.log(1.3)], current, { factor: 1.5 });
    assert.equal(quiet.baselineCount, 0);
    assert.equal(shoulder.baselineCount, 1);
    assert.equal(quiet.currentCount, 3);
    assert.ok(shoulder.p > quiet.p);
    assert.ok(Math.abs(quiet.excess - 0.3) < 1e-12 && Math.abs(shoulder.excess - 0.2) < 1e-12);
  });

  test('properties: blind to a change of unit or location on either side and to the order of the runs; presorted input gives the same answer', () => {
    const data = testData(112);
    for (let t = 0; t < 200; t++) {
      const b = logRuns(data, data.int(3, 40), 0.05, 0.05, 1.2, 3);
      const c = logRuns(data, data.int(3, 40), 0.05, 0.2, 1.2, 3);
      const r = upperTailExcess(b, c, { factor: 1.5 });
      const shifted = upperTailExcess(
        b.map((v) => v + 3.7),
        c.map((v) => v - 1.25),
        { factor: 1.5 },
      );
      const reversed = upperTailExcess([...b].reverse(), [...c].reverse(), { factor: 1.5 });
      const presorted = upperTailExcess(sortedCopy(b), sortedCopy(c), { factor: 1.5, presorted: true });
      for (const other of [shifted, reversed, presorted]) {
        assert.equal(other.baselineCount, r.baselineCount);
        assert.equal(other.currentCount, r.currentCount);
        assert.equal(other.p, r.p);
      }
    }
  });

  test('no tail runs in the current side gives p = 1 and an empty side counts none', () => {
    assert.equal(upperTailExcess([0, 0.1, 0.2], [0, 0.01, 0.02], { factor: 1.5 }).p, 1);
    const empty = upperTailExcess([], [0, 0, Math.log(3)], { factor: 1.5 });
    assert.equal(empty.baselineCount, 0);
    assert.equal(empty.currentCount, 1);
  });
});
