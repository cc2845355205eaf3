import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maxOf, minOf, newResultSet, pickScale, pushAll } from '../../src/model/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pytestBenchmarkAdapter } from '../../src/adapters/pytest-benchmark.js';
import { fileInput } from '../../src/adapters/index.js';
import { toBmf } from '../../src/store/bmf.js';
import { FIXTURES } from '../adapters/adapter-contract.js';
import { poolRuns } from '../../src/store/history/index.js';

const MILLION = 1_000_000;

/** A million samples, the smallest and largest in the middle so neither end gives them away. */
function millionSamples(): number[] {
  const samples = Array.from({ length: MILLION }, (_, i) => 1e-3 + (i % 1000) * 1e-6);
  samples[400_000] = 5e-4;
  samples[600_000] = 9e-3;
  return samples;
}

test('a spread of a million values overflows the stack: the reason these helpers exist', () => {
  assert.throws(() => Math.min(...millionSamples()), RangeError);
});

test('minOf and maxOf read a million values and agree with Math.min and Math.max on small input', () => {
  const samples = millionSamples();
  assert.equal(minOf(samples), 5e-4);
  assert.equal(maxOf(samples), 9e-3);
  for (const small of [[3, 1, 2], [-0.5], [2, Number.NaN, 1], [], [Number.POSITIVE_INFINITY, 4]]) {
    assert.equal(minOf(small), Math.min(...small), JSON.stringify(small));
    assert.equal(maxOf(small), Math.max(...small), JSON.stringify(small));
  }
});

test('pushAll appends a million items in order', () => {
  const target = [-1];
  pushAll(target, millionSamples());
  assert.equal(target.length, MILLION + 1);
  assert.equal(target[0], -1);
  assert.equal(target[400_001], 5e-4);
});

test('convert to BMF, history pooling and display scaling take a million samples', () => {
  const samples = millionSamples();
  const set = newResultSet('2026-11-25T00:00:00Z', [{ id: 'big', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples } } }]);
  const bmf = toBmf(set);
  assert.equal(bmf.big!.latency!.lower_value, 500_000);
  assert.equal(bmf.big!.latency!.upper_value, 9_000_000);
  const summaryOnly = newResultSet('2026-11-25T00:00:00Z', [
    { id: 'big', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', summary: { n: 2, mean: 1, stddev: 0, min: 1, max: 1 } } } },
  ]);
  const pooled = poolRuns([
    { ...set, commit: 'a'.repeat(40) },
    { ...summaryOnly, commit: 'a'.repeat(40) },
  ]).set.benchmarks[0]!.metrics.time!;
  assert.equal(pooled.summary!.min, 5e-4);
  assert.equal(pooled.summary!.max, 1);
  assert.equal(pickScale('s', samples).symbol, 'µs');
});

test('convert --to bmf on a pytest-benchmark file with a million rounds (the reported RangeError)', () => {
  const file = JSON.parse(readFileSync(join(FIXTURES, 'pytest-benchmark', 'pedantic-six-rounds.json'), 'utf8')) as {
    benchmarks: { stats: { data: number[]; rounds: number; min: number; max: number } }[];
  };
  const stats = file.benchmarks[0]!.stats;
  stats.data = millionSamples();
  Object.assign(stats, { rounds: MILLION, min: 5e-4, max: 9e-3 });
  const results = pytestBenchmarkAdapter.parse(fileInput('big.json', JSON.stringify(file)));
  assert.equal(results[0]!.metrics.time!.samples!.length, MILLION);
  const bmf = toBmf(newResultSet('2026-11-25T00:00:00Z', results));
  const measure = bmf[results[0]!.id]!.latency!;
  assert.deepEqual([measure.lower_value, measure.upper_value], [500_000, 9_000_000]);
});
