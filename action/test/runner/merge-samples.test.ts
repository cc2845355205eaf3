import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { invocationValue, mergeMetrics } from '../../src/runner/merge-samples.js';

describe('merging repeated invocations', () => {
  test('samples are concatenated in order and single values become samples', () => {
    const m = mergeMetrics([
      { unit: 's', direction: 'lower', samples: [3, 1], summary: { n: 2, mean: 2 } },
      { unit: 's', direction: 'lower', value: 5 },
    ]);
    assert.deepEqual(m, { unit: 's', direction: 'lower', samples: [3, 1, 5] });
  });

  test('summaries are pooled: total n, weighted mean, spread including the difference of means', () => {
    const m = mergeMetrics([
      { unit: 's', direction: 'lower', summary: { n: 2, mean: 1, stddev: 0 } },
      { unit: 's', direction: 'lower', samples: [3, 3] },
    ]);
    // Pooled data {1,1,3,3}: mean 2, sample stddev sqrt(4/3).
    assert.equal(m.summary?.n, 4);
    assert.equal(m.summary?.mean, 2);
    assert.ok(Math.abs(m.summary!.stddev! - Math.sqrt(4 / 3)) < 1e-12);
    assert.equal(m.samples, undefined);
  });

  test('one value per invocation for interleaved rounds: median of samples, else summary, else value', () => {
    assert.equal(invocationValue({ unit: 's', direction: 'lower', samples: [5, 1, 3] }), 3);
    assert.equal(invocationValue({ unit: 's', direction: 'lower', samples: [4, 1, 3, 2] }), 2.5);
    assert.equal(invocationValue({ unit: 's', direction: 'lower', summary: { n: 3, mean: 2, median: 1.5 } }), 1.5);
    assert.equal(invocationValue({ unit: 's', direction: 'lower', summary: { n: 3, mean: 2 } }), 2);
    assert.equal(invocationValue({ unit: 's', direction: 'lower', value: 7 }), 7);
  });
});
