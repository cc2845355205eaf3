import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { TestedFacts } from '../../src/gate/types.js';
import { reasonText } from '../../src/report/reason-text.js';
import { warningText } from '../../src/report/warning-text.js';

/**
 * The gate records why (gate/reason.ts, gate/warning.ts); these pin the
 * sentences the reports show. They are the wording the gate wrote itself
 * before reasons became data, kept byte for byte.
 */
const facts: TestedFacts = {
  method: { id: 'mann-whitney', exact: true, drift: 0.02, driftRuns: null },
  p: 0.00002,
  adjusted: true,
  ci: [0.27, 0.355],
  confidence: 0.95,
  change: 0.312,
  tolerance: 0.05,
  noise: 0.01,
  alpha: 0.01,
  notes: [],
};

describe('reason sentences', () => {
  test('a significant change names the method, p, the interval, the noise floor and the tolerance', () => {
    assert.equal(
      reasonText({ code: 'significant-change', ...facts }),
      'Mann–Whitney (exact) with a Hodges–Lehmann interval widened for the configured 2% between-run drift: p < 0.0001 (BH-adjusted) and the 95% interval [+27%, +36%] clears the 1% noise floor, with the +31% estimate beyond the 5% tolerance.',
    );
    const learned = { ...facts, method: { id: 'mann-whitney' as const, exact: true, drift: 0.031, driftRuns: 18 } };
    assert.match(
      reasonText({ code: 'significant-change', ...learned }),
      /^Mann–Whitney \(exact\) with a Hodges–Lehmann interval widened for ±3\.1% between-run drift learned from 18 runs: /,
    );
  });

  test('an undecided paired comparison says how many rounds would decide it, then its notes in order', () => {
    assert.equal(
      reasonText({
        code: 'not-significant',
        ...facts,
        method: { id: 'wilcoxon-signed-rank', rounds: 12, exact: false },
        p: 0.2,
        adjusted: false,
        samplesNeeded: 40,
        ci: [-0.02, 0.09],
        notes: [{ code: 'non-finite-ignored', count: 2 }, { code: 'rounds-not-aligned' }],
      }),
      'Wilcoxon signed-rank on 12 paired rounds (normal approximation) with a Hodges–Lehmann interval: p = 0.2 is not significant at α = 0.01 and the 95% interval [−2%, +9%] still allows a change beyond ±5%; about 40 paired rounds would decide a 5% change (2 non-finite sample(s) ignored; rounds not aligned, compared as independent samples).',
    );
  });

  test('a change whose interval lies beyond the tolerance, held back by α alone, says so rather than "more samples will not decide it"', () => {
    for (const samplesNeeded of [null, 40]) {
      assert.equal(
        reasonText({ code: 'not-significant', ...facts, p: 0.012, adjusted: true, samplesNeeded }),
        "Mann–Whitney (exact) with a Hodges–Lehmann interval widened for the configured 2% between-run drift: p = 0.012 (BH-adjusted) is not significant at α = 0.01 and the 95% interval [+27%, +36%] lies beyond ±5%; only α holds it back (p is adjusted for the suite's other rows), so more samples per side will decide it.",
      );
    }
  });

  test('a count compared without a test states the change against the tolerance', () => {
    assert.equal(
      reasonText({ code: 'tolerance-only', method: { id: 'exact' }, change: -0.03, tolerance: 0.05, beyond: false, notes: [] }),
      'Deterministic count compared directly: the −3% change is within the 5% tolerance.',
    );
  });

  test('a scaling fit beyond its limit gives the exponent, its interval and the skipped points', () => {
    assert.equal(
      reasonText({
        code: 'scaling-beyond-limit',
        fit: { metric: 'time', param: 'n', exponent: 2, ci: [1.97, 2.03], confidence: 0.95, points: 5, skipped: 1 },
        side: 'above',
        bound: 1.1,
      }),
      'time grows as n^2.00 (95 % CI 1.97…2.03, 5 points) (1 point failed or without time, left out): above the maximum exponent 1.1',
    );
  });

  test('rows without a comparison say what is missing or failed', () => {
    assert.equal(reasonText({ code: 'benchmark-failed', message: 'exit 3' }), 'the benchmark failed: exit 3');
    assert.equal(reasonText({ code: 'metric-missing', metric: 'time' }), 'the current run has no time metric for this benchmark');
    assert.equal(reasonText({ code: 'text', text: 'As written.' }), 'As written.');
  });
});

describe('warning sentences', () => {
  test('an unused glob names its file and line; ignored benchmarks are listed up to five', () => {
    assert.equal(
      warningText({ code: 'unused-budget', pattern: 'typo/*', source: { file: 'budgets/t.yml', line: 4 } }),
      'budgets/t.yml:4: the glob "typo/*" matches no benchmark; check it against the benchmark ids in the report.',
    );
    assert.equal(
      warningText({ code: 'ignored-benchmarks', benchmarks: ['a', 'b', 'c', 'd', 'e', 'f'] }),
      '6 benchmark(s) ignored by the budgets: a, b, c, d, e, …',
    );
  });
});
