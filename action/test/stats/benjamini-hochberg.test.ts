import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { benjaminiHochberg } from '../../src/stats/index.js';
import { pythonReference } from './python-reference.js';
import { testData } from './random-data.js';
import { close } from './mann-whitney.test.js';

describe('Benjamini–Hochberg', () => {
  test('adjusted p-values agree with scipy false_discovery_control on 200 random sets, ties included', () => {
    const data = testData(51);
    const cases = Array.from({ length: 200 }, (_, i) => {
      const m = data.int(1, 60);
      const p = Array.from({ length: m }, () => {
        const u = data.rng.next();
        if (i % 4 === 0) return Math.round(u * 10) / 10; // many ties
        return u < 0.3 ? u ** 4 : u;
      });
      return { kind: 'bh', p };
    });
    const ref = pythonReference<{ adjusted: number[] }>(cases);
    cases.forEach((c, i) => {
      const r = benjaminiHochberg(c.p);
      assert.equal(r.length, c.p.length);
      r.forEach((v, j) => close(v, ref[i]!.adjusted[j]!, `set ${i} entry ${j}`));
    });
  });

  test('rows without a test pass through as NaN and do not count in m', () => {
    const r = benjaminiHochberg([0.01, NaN, 0.04]);
    assert.ok(Number.isNaN(r[1]));
    close(r[0]!, 0.02, 'first');
    close(r[2]!, 0.04, 'last');
  });
});
