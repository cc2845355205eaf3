import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { criterionConsoleAdapter } from '../../src/adapters/criterion-console.js';
import { readInputs } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';
import { EXAMPLES, gateRow, runHarness } from '../support/compiled-harnesses.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('cargo');

const DIR = join(FIXTURES, 'criterion-console');
const IDS = ['sum/split/100', 'sum/bytes/100', 'sum/split/1000', 'sum/bytes/1000', 'make_input_100'];
const BENCH_ARGS = ['bench', '--quiet', '--bench', 'parse', '--', '--warm-up-time', '0.05', '--measurement-time', '0.1', '--sample-size', '10', '--noplot'];

/** criterion's typical estimate of a benchmark (ns): the slope when it sampled linearly, else the mean. */
function typicalNs(home: string, id: string): number {
  const e = JSON.parse(readFileSync(join(home, id, 'new/estimates.json'), 'utf8')) as Record<string, { point_estimate: number } | null>;
  return (e.slope ?? e.mean)!.point_estimate;
}

/** Bytes of make_input(n) in the example crate: "0,1,…,n-1". */
function inputBytes(n: number): number {
  return Array.from({ length: n }, (_, i) => String(i)).join(',').length;
}

/** The console rounds to 5 significant digits. */
function near(a: number, b: number, rel = 6e-5): boolean {
  return Math.abs(a - b) <= Math.abs(b) * rel;
}

describe('criterion-console adapter on a real cargo bench run (examples/rust-criterion)', () => {
  const stdoutHome = tempDir('perf-gate-crit-console-');
  const mergedHome = tempDir('perf-gate-crit-console-merged-');
  const dir = tempDir('perf-gate-crit-console-out-');
  let stdoutOnly: BenchmarkResult[];
  let merged: BenchmarkResult[];
  let stdoutText: string;
  before(() => {
    stdoutText = runHarness('cargo', BENCH_ARGS, { cwd: EXAMPLES.rustCriterion, env: { CRITERION_HOME: stdoutHome }, timeoutMs: 170_000 }).stdout;
    writeFileSync(join(dir, 'stdout.txt'), stdoutText);
    stdoutOnly = parseFile(criterionConsoleAdapter, join(dir, 'stdout.txt'));
    const both = runHarness('bash', ['-c', 'cargo "$@" 2>&1', 'cargo', ...BENCH_ARGS], {
      cwd: EXAMPLES.rustCriterion,
      env: { CRITERION_HOME: mergedHome },
      timeoutMs: 170_000,
    }).stdout;
    writeFileSync(join(dir, 'merged.txt'), both);
    merged = parseFile(criterionConsoleAdapter, join(dir, 'merged.txt'));
  });

  test('stdout is detected as criterion-console; every benchmark is read once, in order', () => {
    assert.equal(readInputs([join(dir, 'stdout.txt')], { cwd: '/', created: 'now' }).files[0]!.format, 'criterion-console');
    assert.deepEqual(
      stdoutOnly.map((r) => r.id),
      IDS,
    );
    assert.deepEqual(
      merged.map((r) => r.id),
      IDS,
    );
  });

  test("stdout only: time is the estimate in seconds, one value, equal to target/criterion's typical estimate", () => {
    for (const id of IDS) {
      const time = byId(stdoutOnly, id).metrics.time!;
      assert.equal(time.unit, 's');
      assert.equal(time.direction, 'lower');
      assert.equal(time.summary, undefined);
      assert.ok(near(time.value!, typicalNs(stdoutHome, id) * 1e-9), `${id}: ${time.value} vs ${typicalNs(stdoutHome, id)} ns`);
    }
  });

  test('Throughput::Bytes (MiB/s, GiB/s) becomes bytes_per_second in B/s, higher is better, bytes / time', () => {
    for (const [id, n] of [
      ['sum/bytes/100', 100],
      ['sum/split/1000', 1000],
    ] as const) {
      const m = byId(stdoutOnly, id).metrics;
      assert.equal(m.bytes_per_second!.unit, 'B/s');
      assert.equal(m.bytes_per_second!.direction, 'higher');
      assert.ok(near(m.bytes_per_second!.value!, inputBytes(n) / (typicalNs(stdoutHome, id) * 1e-9), 2e-4), id);
    }
    assert.equal(byId(stdoutOnly, 'make_input_100').metrics.bytes_per_second, undefined);
  });

  test('with stderr merged: a summary of n = the samples collected, sd from the interval', () => {
    for (const id of IDS) {
      const time = byId(merged, id).metrics.time!;
      assert.equal(time.summary!.n, 10);
      assert.ok(near(time.summary!.mean, typicalNs(mergedHome, id) * 1e-9), id);
      const e = JSON.parse(readFileSync(join(mergedHome, id, 'new/estimates.json'), 'utf8')) as Record<
        string,
        { confidence_interval: { lower_bound: number; upper_bound: number } } | null
      >;
      const ci = (e.slope ?? e.mean)!.confidence_interval;
      const expected = (((ci.upper_bound - ci.lower_bound) * 1e-9) / 2 / 1.96) * Math.sqrt(10);
      // Each printed bound is rounded to 5 significant digits; their difference carries both roundings.
      const rounding = ((5e-5 * (ci.upper_bound + ci.lower_bound) * 1e-9) / 2 / 1.96) * Math.sqrt(10);
      assert.ok(Math.abs(time.summary!.stddev! - expected) <= rounding, `${id}: ${time.summary!.stddev} vs ${expected}`);
    }
  });

  test('a time ten times lower is improved in time and throughput, never regressed', () => {
    const measured = byId(merged, 'sum/bytes/1000');
    // What is tested is the direction the adapter gave each metric, not this run's noise: a stalled run's spread
    // can make even a tenfold change undecidable, so both sides get a spread of 1 % of their mean.
    const steady = (m: BenchmarkResult['metrics'][string]) => ({ ...m, summary: { ...m.summary!, stddev: m.summary!.mean * 0.01 } });
    const scale = (m: BenchmarkResult['metrics'][string], f: number) => steady({ ...m, summary: { ...m.summary!, mean: m.summary!.mean * f } });
    const base = { ...measured, metrics: { time: steady(measured.metrics.time!), bytes_per_second: steady(measured.metrics.bytes_per_second!) } };
    const faster: BenchmarkResult = { ...base, metrics: { time: scale(base.metrics.time, 0.1), bytes_per_second: scale(base.metrics.bytes_per_second, 10) } };
    assert.equal(gateRow(base, faster, 'time').status, 'improved');
    assert.equal(gateRow(base, faster, 'bytes_per_second').status, 'improved');
    assert.equal(gateRow(faster, base, 'bytes_per_second').status, 'regressed');
  });

  test('a benchmark that started and panicked is failed with the panic message', () => {
    const text = readFileSync(join(dir, 'merged.txt'), 'utf8').replace(
      /^Benchmarking make_input_100\n[\s\S]*$/m,
      "Benchmarking make_input_100\nBenchmarking make_input_100: Warming up for 50.000 ms\nthread 'main' panicked at benches/parse.rs:20:9:\ninput too large\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\nerror: bench failed, to rerun pass `--bench parse`\n",
    );
    const r = parseText(criterionConsoleAdapter, text, 'panic.txt');
    const failed = byId(r, 'make_input_100');
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error!.message, 'panicked at benches/parse.rs:20:9: input too large');
    assert.equal(byId(r, 'sum/bytes/1000').status, 'ok');
  });
});

describe('criterion-console adapter on committed outputs', () => {
  test("Bencher's outputs: a name on its own line, Melem/s, ps, change blocks ignored, a name with spaces", () => {
    const thrpt = parseFile(criterionConsoleAdapter, join(DIR, 'bencher-throughput-external.txt'));
    assert.deepEqual(
      thrpt.map((r) => r.id),
      ['execution/naive/select_1_column/10', 'execution/naive/select_1_column/100'],
    );
    const m = byId(thrpt, 'execution/naive/select_1_column/10').metrics;
    assert.ok(near(m.time!.summary!.mean, 7.7152e-6, 1e-12));
    assert.equal(m.time!.summary!.n, 100);
    assert.equal(m.throughput!.unit, '1/s');
    assert.equal(m.throughput!.direction, 'higher');
    assert.ok(near(m.throughput!.summary!.mean, 1.2961e6, 1e-12));
    const many = parseFile(criterionConsoleAdapter, join(DIR, 'bencher-many-external.txt'));
    assert.deepEqual(
      many.map((r) => r.id),
      ['file', 'rolling_file', 'tracing_file', 'tracing_rolling_file', 'benchmark: name with spaces'],
    );
    assert.ok(near(byId(many, 'file').metrics.time!.summary!.mean, 323.9e-12, 1e-12));
    assert.ok(near(byId(many, 'benchmark: name with spaces').metrics.time!.summary!.mean, 20.93e-9, 1e-12));
  });

  test("a panic after the last benchmark fails the bench target, named from cargo's Running line", () => {
    const r = parseFile(criterionConsoleAdapter, join(DIR, 'bencher-failed-external.txt'));
    assert.equal(r.length, 5);
    const failed = byId(r, 'trace4rs_bench (bench target)');
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error!.message, 'panicked at trace4rs/benches/trace4rs_bench.rs:42:5: explicit panic');
  });

  test('decimal bytes, bits and mixed units in one interval are converted value by value', () => {
    const text = 'a                       time:   [999.10 ns 1.0001 µs 1.0010 µs]\n                        thrpt:  [990.0 KB/s 1.0000 MB/s 8.0000 Mb/s]\n';
    const m = byId(parseText(criterionConsoleAdapter, text, 'units.txt'), 'a').metrics;
    assert.ok(near(m.time!.value!, 1.0001e-6, 1e-12));
    assert.ok(near(m.bytes_per_second!.value!, 1e6, 1e-12));
    assert.equal(m.bytes_per_second!.sourceUnit, 'MB/s');
  });
});

const real = readFileSync(join(DIR, 'cargo-bench-merged.txt'), 'utf8');
describe('criterion-console adapter on unusable input', () => {
  test('output cut off after a benchmark started is truncated, at the last line', () => {
    const cut = real.slice(0, real.indexOf('Benchmarking make_input_100: Collecting'));
    const error = inputErrorOf(() => parseText(criterionConsoleAdapter, cut, '/r/cut.txt'));
    assert.match(error.message, /"make_input_100" started .*truncated/);
    assert.equal(error.line, cut.split('\n').length);
  });

  test('a time: line cut short names its line', () => {
    const lines = real.split('\n');
    const at = lines.findIndex((l) => l.startsWith('sum/bytes/100 '));
    lines[at] = lines[at]!.replace(/\]\s*$/, '').replace(/ [\d.]+ \S+$/, '');
    const error = inputErrorOf(() => parseText(criterionConsoleAdapter, lines.join('\n'), '/r/bad.txt'));
    assert.equal(error.line, at + 1);
  });
});

adapterContract(criterionConsoleAdapter, 'criterion-console', [
  { name: 'truncated', text: real.slice(0, real.indexOf('Benchmarking sum/bytes/100: Warming')), line: true },
  { name: 'unknown time unit', text: real.replace(/time:   \[([\d.]+) ns/, 'time:   [$1 fortnights'), line: true },
]);
