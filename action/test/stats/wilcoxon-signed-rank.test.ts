import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { hodgesLehmannCenter, minRounds, wilcoxonSignedRank, type Alternative } from '../../src/stats/index.js';
import { pythonReference } from './python-reference.js';
import { testData } from './random-data.js';
import { close } from './mann-whitney.test.js';

const ALTERNATIVES: Alternative[] = ['two-sided', 'greater', 'less'];

describe('Wilcoxon signed-rank', () => {
  test('exact p-values agree with scipy on 200 random untied differences (n ≤ 50)', () => {
    const data = testData(31);
    const cases = Array.from({ length: 200 }, (_, i) => {
      const n = i % 10 === 0 ? data.int(30, 50) : data.int(1, 25);
      const shift = data.normal() * 0.03;
      return {
        kind: 'wilcoxon',
        d: Array.from({ length: n }, () => shift + 0.03 * data.normal()),
        alternative: ALTERNATIVES[i % 3] as Alternative,
        method: 'exact',
        correction: false,
      };
    });
    const ref = pythonReference<{ p: number }>(cases);
    cases.forEach((c, i) => {
      const r = wilcoxonSignedRank(c.d, { alternative: c.alternative });
      assert.equal(r.method, 'exact');
      close(r.p, ref[i]!.p, `case ${i} (n=${c.d.length}, ${c.alternative}) p`);
    });
  });

  test('the normal approximation with zeros dropped, tie and continuity correction agrees with scipy', () => {
    const data = testData(32);
    const cases = Array.from({ length: 200 }, (_, i) => {
      const n = data.int(5, 120);
      const tied = i % 2 === 0;
      const d = Array.from({ length: n }, () => (tied ? data.int(-3, 4) : 0.01 + 0.03 * data.normal()));
      return { kind: 'wilcoxon', d, alternative: ALTERNATIVES[i % 3] as Alternative, method: 'approx', correction: i % 4 < 2 };
    });
    const ref = pythonReference<{ p: number }>(cases);
    cases.forEach((c, i) => {
      if (c.d.every((v) => v === 0)) return;
      const r = wilcoxonSignedRank(c.d, { alternative: c.alternative, method: 'asymptotic', continuity: c.correction });
      close(r.p, ref[i]!.p, `case ${i} (n=${c.d.length}, ${c.alternative}, correction ${c.correction}) p`);
    });
  });

  test('rounds needed for the alpha: 2/2ⁿ must be below it', () => {
    assert.equal(minRounds(0.05), 6);
    assert.equal(minRounds(0.01), 8);
    const allUp = Array.from({ length: 8 }, (_, i) => 0.01 * (i + 1));
    assert.ok(wilcoxonSignedRank(allUp).p < 0.01);
    assert.ok(wilcoxonSignedRank(allUp.slice(0, 7)).p >= 0.01);
  });

  test('Walsh-average centre and interval equal a direct computation on 120 random samples', () => {
    const data = testData(33);
    const confidences = [0.9, 0.95, 0.99];
    const cases = Array.from({ length: 120 }, (_, i) => ({
      kind: 'hl1',
      d: Array.from({ length: i % 12 === 0 ? data.int(51, 80) : data.int(1, 40) }, () => 0.02 + 0.05 * data.normal()),
      confidence: confidences[i % 3] as number,
    }));
    const ref = pythonReference<{ estimate: number; lower: number; upper: number; k: number }>(cases);
    cases.forEach((c, i) => {
      const r = hodgesLehmannCenter(c.d, { confidence: c.confidence });
      const e = ref[i]!;
      assert.equal(r.k, e.k, `case ${i} k (n=${c.d.length})`);
      assert.equal(r.estimate, e.estimate, `case ${i} estimate`);
      assert.equal(r.lower, e.lower, `case ${i} lower`);
      assert.equal(r.upper, e.upper, `case ${i} upper`);
    });
  });
});
