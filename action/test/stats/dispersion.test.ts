import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { tailExcess, widerSpread } from '../../src/stats/index.js';
import { pythonReference } from './python-reference.js';
import { close } from './mann-whitney.test.js';
import { testData } from './random-data.js';

describe('rank Brown–Forsythe spread test', () => {
  test('a pure shift of location does not look like a wider spread', () => {
    const data = testData(101);
    const x = data.times(30, 1, 0.03).map(Math.log);
    const r = widerSpread(
      x,
      x.map((v) => v + 0.5),
    );
    assert.ok(r.p > 0.4, `p ${r.p}`);
    assert.ok(Math.abs(r.ratio - 1) < 1e-9);
  });

  test('three times the spread is detected at n = 20 per side in about three trials of four, and its false alarms stay near alpha', () => {
    const data = testData(102);
    let hits = 0;
    let alarms = 0;
    const trials = 300;
    for (let t = 0; t < trials; t++) {
      const x = Array.from({ length: 20 }, () => 0.03 * data.normal());
      const y = Array.from({ length: 20 }, () => 0.09 * data.normal());
      const same = Array.from({ length: 20 }, () => 0.03 * data.normal());
      if (widerSpread(x, y).p < 0.01) hits++;
      if (widerSpread(x, same).p < 0.01) alarms++;
    }
    assert.ok(hits / trials > 0.65, `detection ${hits}/${trials}`);
    assert.ok(alarms / trials < 0.03, `false alarms ${alarms}/${trials} at α = 0.01`);
  });

  test('the tail-excess p-value is the binomial upper tail at the baseline rate, as scipy binom.sf computes it', () => {
    const data = testData(103);
    const cases = Array.from({ length: 100 }, () => {
      const nb = data.int(3, 80);
      const nc = data.int(3, 80);
      return { kind: 'tail', nb, nc, kb: data.int(0, Math.min(5, nb)), kc: data.int(1, Math.min(12, nc)) };
    });
    const ref = pythonReference<{ p: number }>(cases);
    cases.forEach((c, i) => close(tailExcess(c.kb, c.nb, c.kc, c.nc), ref[i]!.p, `case ${i}`));
    // 3 slow runs of 10 against none of 10 is an excess at 1 %; 3 of 20 against none of 20 is not yet.
    assert.ok(tailExcess(0, 10, 3, 10) < 0.01);
    assert.ok(tailExcess(0, 20, 3, 20) > 0.01 && tailExcess(0, 20, 4, 20) < 0.01);
  });
});
