import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mannWhitney, RANK_TEST_EFFICIENCY, samplesNeeded } from '../../src/stats/index.js';
import { testData } from './random-data.js';

describe('samples needed (power)', () => {
  test('the textbook two-sample t sizes: σ = δ at α = 0.05 and 80 % power needs 16 per side', () => {
    const n = samplesNeeded({ variance: 2, fixedVariance: 0, delta: 1, alpha: 0.05, power: 0.8, efficiency: 1 });
    assert.equal(n, 16); // 2·(1.96 + 0.8416)² = 15.7
  });

  test('at the computed size the Mann–Whitney test detects the shift about 80 % of the time (400 simulated trials)', () => {
    const data = testData(91);
    const sigma = 0.04;
    const delta = Math.log(1.05);
    const n = samplesNeeded({ variance: 2 * sigma * sigma, fixedVariance: 0, delta, alpha: 0.05, power: 0.8, efficiency: RANK_TEST_EFFICIENCY })!;
    let detected = 0;
    const trials = 400;
    for (let t = 0; t < trials; t++) {
      const x = Array.from({ length: n }, () => sigma * data.normal());
      const y = Array.from({ length: n }, () => delta + sigma * data.normal());
      if (mannWhitney(y, x).p < 0.05) detected++;
    }
    const power = detected / trials;
    assert.ok(power > 0.72 && power < 0.9, `simulated power ${power} at n = ${n}`);
  });

  test('a variance that more samples cannot reduce makes small shifts undecidable (null)', () => {
    assert.equal(samplesNeeded({ variance: 0.001, fixedVariance: 0.01, delta: 0.05, alpha: 0.01, power: 0.8, efficiency: 1 }), null);
    assert.ok(samplesNeeded({ variance: 0.001, fixedVariance: 0.00001, delta: 0.05, alpha: 0.01, power: 0.8, efficiency: 1 })! > 2);
  });
});
