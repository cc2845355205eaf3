import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mannWhitney, minSamplesPerSide, smallestExactP, type Alternative } from '../../src/stats/index.js';
import { pythonReference } from './python-reference.js';
import { testData } from './random-data.js';

/** Agreement to 1e-9, relative for small values (tail p-values). */
export function close(actual: number, expected: number, what: string, tol = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tol * Math.max(Math.abs(expected), 1e-6), `${what}: ${actual} vs reference ${expected}`);
}

const ALTERNATIVES: Alternative[] = ['two-sided', 'greater', 'less'];

describe('Mann–Whitney U', () => {
  test('reproduces the published scipy example (exact, U = 17, p = 1/9)', () => {
    const males = [19, 22, 16, 29, 24];
    const females = [20, 11, 17, 12];
    const r = mannWhitney(males, females);
    assert.equal(r.u, 17);
    assert.equal(r.method, 'exact');
    close(r.p, 0.1111111111111111, 'p');
  });

  test('exact p-values agree with scipy on 240 random untied samples up to 50 per side', () => {
    const data = testData(11);
    const cases = Array.from({ length: 240 }, (_, i) => {
      const big = i % 12 === 0;
      const m = big ? data.int(30, 50) : data.int(2, 20);
      const n = big ? data.int(30, 50) : data.int(2, 20);
      const shift = data.normal() * 0.05;
      return {
        kind: 'mannwhitneyu',
        x: data.times(m, 1, 0.05),
        y: data.times(n, Math.exp(shift), 0.05),
        alternative: ALTERNATIVES[i % 3] as Alternative,
        method: 'exact',
      };
    });
    const ref = pythonReference<{ u: number; p: number }>(cases);
    cases.forEach((c, i) => {
      const r = mannWhitney(c.x, c.y, { alternative: c.alternative });
      assert.equal(r.method, 'exact', `case ${i} should be exact`);
      assert.equal(r.u, ref[i]!.u, `case ${i} U`);
      close(r.p, ref[i]!.p, `case ${i} (${c.x.length}×${c.y.length}, ${c.alternative}) p`);
    });
  });

  test('the normal approximation with tie and continuity correction agrees with scipy on tied and large samples', () => {
    const data = testData(12);
    const cases = Array.from({ length: 240 }, (_, i) => {
      const m = data.int(3, 90);
      const n = data.int(3, 90);
      const tied = i % 2 === 0;
      const draw = (k: number, s: number): number[] =>
        tied ? Array.from({ length: k }, () => Math.round(4 * data.rng.next() + s)) : data.times(k, 1 + s / 10, 0.1);
      return {
        kind: 'mannwhitneyu',
        x: draw(m, 0),
        y: draw(n, data.rng.next()),
        alternative: ALTERNATIVES[i % 3] as Alternative,
        method: 'asymptotic',
      };
    });
    const ref = pythonReference<{ u: number; p: number }>(cases);
    let tiedAuto = 0;
    cases.forEach((c, i) => {
      const forced = mannWhitney(c.x, c.y, { alternative: c.alternative, method: 'asymptotic' });
      assert.equal(forced.u, ref[i]!.u, `case ${i} U`);
      close(forced.p, ref[i]!.p, `case ${i} p`);
      const auto = mannWhitney(c.x, c.y, { alternative: c.alternative });
      if (auto.hasTies) {
        tiedAuto++;
        assert.equal(auto.method, 'asymptotic', 'ties switch to the normal approximation');
        assert.equal(auto.p, forced.p);
      }
    });
    assert.ok(tiedAuto > 100, `expected many tied cases, got ${tiedAuto}`);
  });

  test('all values equal gives p = 1, not NaN', () => {
    const r = mannWhitney([2, 2, 2, 2, 2, 2], [2, 2, 2, 2, 2, 2, 2]);
    assert.equal(r.p, 1);
  });

  test('the smallest reachable p sets the minimum samples per side', () => {
    close(smallestExactP(5, 5), 2 / 252, 'p(5,5)');
    close(smallestExactP(3, 4), 2 / 35, 'p(3,4)');
    assert.equal(minSamplesPerSide(0.05), 4);
    assert.equal(minSamplesPerSide(0.01), 5);
    assert.equal(minSamplesPerSide(0.001), 7);
    // Complete separation at the minimum really reaches it.
    assert.ok(mannWhitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]).p < 0.01);
    assert.ok(mannWhitney([1, 2, 3, 4], [6, 7, 8, 9]).p >= 0.01);
  });
});
