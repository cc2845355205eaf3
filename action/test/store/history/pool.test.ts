import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newResultSet, type BenchmarkResult, type ResultSet } from '../../../src/model/index.js';
import { poolRuns } from '../../../src/store/history/index.js';

const run = (created: string, benchmarks: BenchmarkResult[]): ResultSet => ({
  ...newResultSet(created, benchmarks),
  commit: 'a'.repeat(40),
  testbed: { id: 'bed-a' },
});
const timed = (id: string, samples: number[]): BenchmarkResult => ({ id, status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples } } });
const failed = (id: string, message: string): BenchmarkResult => ({ id, status: 'failed', error: { message }, metrics: {} });

test('one run is its own pool', () => {
  const only = run('2026-11-01T00:00:00Z', [timed('x', [1])]);
  assert.equal(poolRuns([only]).set, only);
});

test('re-runs concatenate samples per benchmark and metric, in run order; created is the latest', () => {
  const { set, runs, warnings } = poolRuns([
    run('2026-11-01T00:00:00Z', [timed('x', [1, 2]), timed('y', [5])]),
    run('2026-11-02T00:00:00Z', [timed('x', [3]), timed('z', [9])]),
  ]);
  assert.equal(runs, 2);
  assert.deepEqual(warnings, []);
  assert.equal(set.created, '2026-11-02T00:00:00Z');
  assert.deepEqual(
    set.benchmarks.map((b) => [b.id, b.metrics.time?.samples]),
    [
      ['x', [1, 2, 3]],
      ['y', [5]],
      ['z', [9]],
    ],
  );
});

test('a benchmark is failed only if every run failed it; else its ok runs are pooled', () => {
  const { set } = poolRuns([
    run('2026-11-01T00:00:00Z', [failed('x', 'first'), failed('y', 'one')]),
    run('2026-11-02T00:00:00Z', [timed('x', [4]), failed('y', 'two')]),
  ]);
  const [x, y] = set.benchmarks;
  assert.deepEqual(x, timed('x', [4]));
  assert.equal(y?.status, 'failed');
  assert.equal(y?.error?.message, 'two');
});

test('summaries pool into one summary (pooled standard deviation); a unit mismatch is left out with a warning', () => {
  const sum = (n: number, mean: number, stddev: number): BenchmarkResult => ({
    id: 's',
    status: 'ok',
    metrics: { time: { unit: 's', direction: 'lower', summary: { n, mean, stddev, min: mean - 1, max: mean + 1 } } },
  });
  const { set, warnings } = poolRuns([
    run('2026-11-01T00:00:00Z', [sum(2, 1, Math.SQRT2)]),
    run('2026-11-02T00:00:00Z', [sum(2, 3, Math.SQRT2)]),
    run('2026-11-03T00:00:00Z', [{ id: 's', status: 'ok', metrics: { time: { unit: 'B', direction: 'lower', value: 7 } } }]),
  ]);
  // Samples {0, 2} and {2, 4}: mean 2, sample variance (4 + 0 + 0 + 4) / 3.
  const summary = set.benchmarks[0]!.metrics.time!.summary!;
  assert.equal(summary.n, 4);
  assert.equal(summary.mean, 2);
  assert.ok(Math.abs(summary.stddev! - Math.sqrt(8 / 3)) < 1e-12);
  assert.deepEqual([summary.min, summary.max], [0, 4]);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /another unit than s/);
});
