import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gbenchAdapter } from '../../src/adapters/gbench.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { adapterContract, byId, FIXTURES, parseFile, parseText } from './adapter-contract.js';
import { factorBeyondSpread, gateRow, runHarness } from '../support/compiled-harnesses.js';
import { tempDir } from '../support/temp.js';
import { requireFile, requireTool } from '../support/tools.js';

requireTool('g++');
requireFile('/usr/include/benchmark/benchmark.h', 'Google Benchmark (libbenchmark-dev)');

const DIR = join(FIXTURES, 'gbench');
const SOURCE = new URL('../support/harness-src/gbench.cc', import.meta.url).pathname;

interface Run {
  name: string;
  run_type: string;
  real_time: number;
  cpu_time: number;
  time_unit: string;
  [key: string]: unknown;
}

/** JSON.parse for Google Benchmark output, whose bare NaN/Infinity it rejects (test-side only). */
function rawRuns(text: string): Run[] {
  return (JSON.parse(text.replace(/-?\b(?:NaN|Infinity)\b/g, 'null')) as { benchmarks: Run[] }).benchmarks;
}

describe('gbench adapter on a real Google Benchmark run (libbenchmark-dev)', () => {
  const dir = tempDir('perf-gate-gbench-');
  const reps = join(dir, 'reps.json');
  const aggregates = join(dir, 'aggregates.json');
  let text: string;
  let results: BenchmarkResult[];
  before(() => {
    const binary = join(dir, 'bm');
    runHarness('g++', ['-O2', '-std=c++17', SOURCE, '-lbenchmark', '-lpthread', '-o', binary]);
    const common = ['--benchmark_min_time=0.01', '--benchmark_repetitions=6'];
    runHarness(binary, [...common, `--benchmark_out=${reps}`, '--benchmark_out_format=json']);
    runHarness(binary, [...common, '--benchmark_report_aggregates_only=true', `--benchmark_out=${aggregates}`, '--benchmark_out_format=json']);
    text = readFileSync(reps, 'utf8');
    results = parseFile(gbenchAdapter, reps);
  });

  test('repetitions are the samples; the mean/median/stddev/cv rows are not counted again', () => {
    assert.match(text, /"aggregate_name": "mean"/);
    assert.deepEqual(
      results.map((r) => r.id),
      ['BM_Copy/64', 'BM_Copy/4096', 'BM_StringBuild', 'BM_Error'],
    );
    for (const id of ['BM_Copy/64', 'BM_Copy/4096', 'BM_StringBuild']) {
      assert.equal(byId(results, id).metrics.time!.samples!.length, 6, id);
      assert.equal(byId(results, id).metrics.cpu_time!.samples!.length, 6, id);
    }
  });

  test('time is real_time in seconds (time_unit respected), cpu_time its own metric, both lower is better', () => {
    const raw = rawRuns(text).filter((r) => r.name === 'BM_StringBuild' && r.run_type === 'iteration');
    assert.equal(raw[0]!.time_unit, 'us');
    const m = byId(results, 'BM_StringBuild').metrics;
    assert.equal(m.time!.unit, 's');
    assert.equal(m.time!.direction, 'lower');
    assert.equal(m.time!.sourceUnit, 'us');
    m.time!.samples!.forEach((t, i) => assert.ok(Math.abs(t - raw[i]!.real_time * 1e-6) < 1e-15));
    m.cpu_time!.samples!.forEach((t, i) => assert.ok(Math.abs(t - raw[i]!.cpu_time * 1e-6) < 1e-15));
    // Building a 190-character string: between 10 ns and 1 ms.
    assert.ok(m.time!.samples!.every((t) => t > 1e-8 && t < 1e-3));
  });

  test('bytes and items per second are rates, higher is better, consistent with CPU time', () => {
    const m = byId(results, 'BM_Copy/4096').metrics;
    assert.equal(m.bytes_per_second!.unit, 'B/s');
    assert.equal(m.bytes_per_second!.direction, 'higher');
    assert.equal(m.items_per_second!.unit, '1/s');
    assert.equal(m.items_per_second!.direction, 'higher');
    m.bytes_per_second!.samples!.forEach((rate, i) => assert.ok(Math.abs((rate * m.cpu_time!.samples![i]!) / 4096 - 1) < 0.01));
    m.items_per_second!.samples!.forEach((rate, i) => assert.ok(Math.abs(rate * m.cpu_time!.samples![i]! - 1) < 0.01));
    assert.deepEqual(m.hits!.samples, Array(6).fill(42));
  });

  test('bare NaN and Infinity counters are read without error and left out', () => {
    assert.match(text, /"not_a_number": NaN/);
    assert.match(text, /"infinite": Infinity/);
    const m = byId(results, 'BM_Copy/64').metrics;
    assert.equal(m.not_a_number, undefined);
    assert.equal(m.infinite, undefined);
    // -NaN (printed for a negative NaN) and -Infinity are read the same way.
    const negative = parseText(
      gbenchAdapter,
      text.replace(/"not_a_number": NaN/g, '"not_a_number": -NaN').replace(/"infinite": Infinity/g, '"infinite": -Infinity'),
      'neg.json',
    );
    assert.equal(byId(negative, 'BM_Copy/64').metrics.not_a_number, undefined);
    assert.equal(byId(negative, 'BM_Copy/64').metrics.time!.samples!.length, 6);
  });

  test('SkipWithError makes the benchmark failed with its message, its zero times dropped', () => {
    const failed = byId(results, 'BM_Error');
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error!.message, 'resource unavailable');
    assert.deepEqual(failed.metrics, {});
  });

  test('with --benchmark_report_aggregates_only the aggregates become a summary of n repetitions', () => {
    const aggText = readFileSync(aggregates, 'utf8');
    const agg = parseFile(gbenchAdapter, aggregates);
    const mean = rawRuns(aggText).find((r) => r.name === 'BM_StringBuild_mean')!;
    const time = byId(agg, 'BM_StringBuild').metrics.time!;
    assert.equal(time.samples, undefined);
    assert.equal(time.summary!.n, 6);
    assert.ok(Math.abs(time.summary!.mean - mean.real_time * 1e-6) < 1e-15);
    assert.ok(time.summary!.stddev! >= 0);
  });

  test('items per second that rose beyond their whole spread are improved, and the same drop regressed', () => {
    const base = byId(results, 'BM_Copy/4096');
    const factor = factorBeyondSpread(base.metrics.items_per_second!.samples!);
    const faster = text.replace(/"items_per_second": ([-+.\de]+)/g, (_, v: string) => `"items_per_second": ${Number(v) * factor}`);
    const cur = byId(parseText(gbenchAdapter, faster, 'faster.json'), 'BM_Copy/4096');
    assert.equal(gateRow(base, cur, 'items_per_second').status, 'improved');
    assert.equal(gateRow(cur, base, 'items_per_second').status, 'regressed');
  });
});

describe('gbench adapter on committed captures', () => {
  test('BigO and RMS rows are not benchmarks; labels and threads become params', () => {
    const basic = parseFile(gbenchAdapter, join(DIR, 'bigo-rms-counters.json'));
    assert.ok(basic.every((r) => !/_BigO|_RMS/.test(r.id)));
    assert.equal(byId(basic, 'BM_Vec/1024').metrics.time!.samples!.length, 1);
    const labeled = byId(parseFile(gbenchAdapter, join(DIR, 'error-label-threads.json')), 'BM_Labeled/threads:2');
    assert.deepEqual(labeled.params, { threads: '2', label: 'dataset=small' });
  });

  test('a 2019 file without family_index or run_type reads the same way', () => {
    const old = parseFile(gbenchAdapter, join(DIR, 'old-schema-2019-external.json'));
    assert.deepEqual(
      old.map((r) => r.id),
      ['fib_10', 'fib_20'],
    );
    assert.ok(old[1]!.metrics.time!.samples![0]! > old[0]!.metrics.time!.samples![0]!);
  });
});

const real = readFileSync(join(DIR, 'repetitions-nan-error.json'), 'utf8');
adapterContract(gbenchAdapter, 'gbench', [
  { name: 'truncated', text: real.slice(0, Math.floor(real.length * 0.7)), line: true },
  { name: 'corrupt', text: real.replace('"run_type": "iteration",', '"run_type": "iteration"'), line: true },
  { name: 'unknown time unit', text: real.replace('"time_unit": "ns"', '"time_unit": "fortnights"'), line: true },
  { name: 'no benchmarks', text: real.replace(/"benchmarks": \[[\s\S]*\]\s*\}\s*$/, '"benchmarks": []\n}\n'), line: true },
]);
