import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { libtestAdapter } from '../../src/adapters/libtest.js';
import { newResultSet, type BenchmarkResult } from '../../src/model/index.js';
import { toBmf } from '../../src/store/bmf.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';
import { gateRow, runHarness } from '../support/compiled-harnesses.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('cargo');

const DIR = join(FIXTURES, 'libtest');

/** A crate with three #[bench] functions: one sets b.bytes, one panics. Same source as the committed fixtures. */
function writeCrate(dir: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'benches'), { recursive: true });
  writeFileSync(join(dir, 'Cargo.toml'), '[package]\nname = "libtest-bench"\nversion = "0.1.0"\nedition = "2021"\n');
  writeFileSync(join(dir, 'src/lib.rs'), 'pub fn fib(n: u64) -> u64 { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }\n');
  writeFileSync(join(dir, 'benches/b.rs'), readFileSync(new URL('../support/harness-src/libtest-benches.rs', import.meta.url), 'utf8'));
}

function checkRun(results: BenchmarkResult[]): void {
  assert.deepEqual(results.map((r) => r.id).sort(), ['copy_4k', 'fib_10', 'panics']);
  const fib = byId(results, 'fib_10');
  assert.equal(fib.status, 'ok');
  const time = fib.metrics.time!;
  assert.equal(time.unit, 's');
  assert.equal(time.direction, 'lower');
  assert.equal(time.samples, undefined);
  // fib(10) is 177 calls: more than a nanosecond, far less than 100 µs.
  assert.ok(time.value! > 1e-9 && time.value! < 1e-4, String(time.value));
  const copy = byId(results, 'copy_4k');
  const rate = copy.metrics.bytes_per_second!;
  assert.equal(rate.unit, 'B/s');
  assert.equal(rate.direction, 'higher');
  // libtest computes MB/s from a whole number of ns/iter (4096 bytes per iteration), which
  // can differ from the printed decimal ns/iter by up to a nanosecond: at ~45 ns that is 2 %.
  const ns = copy.metrics.time!.value! * 1e9;
  const [low, high] = [4096 / ((ns + 1) * 1e-9), 4096 / (Math.max(ns - 1, 1) * 1e-9)];
  assert.ok(rate.value! >= low * 0.999 && rate.value! <= high * 1.001, `${rate.value} B/s for ${ns} ns/iter: expected ${low}…${high}`);
  const failed = byId(results, 'panics');
  assert.equal(failed.status, 'failed');
  assert.deepEqual(failed.metrics, {});
  assert.match(failed.error!.message, /boom/);
}

describe('libtest adapter on a real RUSTC_BOOTSTRAP=1 cargo bench run', () => {
  const dir = tempDir('perf-gate-libtest-');
  let text: string;
  let quiet: string;
  let json: string;
  before(() => {
    writeCrate(dir);
    const env = { RUSTC_BOOTSTRAP: '1', CARGO_TARGET_DIR: join(dir, 'target') };
    // The panicking bench makes cargo exit 101, as it would in a user's CI.
    text = runHarness('cargo', ['bench', '--bench', 'b'], { cwd: dir, env, allowFailure: true, timeoutMs: 150_000 }).stdout;
    quiet = runHarness('cargo', ['bench', '--quiet', '--bench', 'b'], { cwd: dir, env, allowFailure: true }).stdout;
    json = runHarness('cargo', ['bench', '--quiet', '--bench', 'b', '--', '-Z', 'unstable-options', '--format', 'json'], {
      cwd: dir,
      env,
      allowFailure: true,
    }).stdout;
  });

  test('text output: decimal ns/iter in seconds, MB/s as bytes per second, the panicking bench failed', () => {
    assert.match(text, /ns\/iter \(\+\/- /);
    checkRun(parseText(libtestAdapter, text, '/work/out/bench.txt'));
  });

  test('--quiet output (failures as "name --- FAILED") gives the same benchmarks', () => {
    assert.match(quiet, /^panics --- FAILED$/m);
    checkRun(parseText(libtestAdapter, quiet, '/work/out/bench-quiet.txt'));
  });

  test('--format json output gives the same benchmarks', () => {
    assert.deepEqual(libtestAdapter.detect({ path: 'x', text: json, readRelated: () => undefined }), { match: true });
    checkRun(parseText(libtestAdapter, json, '/work/out/bench.jsonl'));
  });
});

describe('libtest adapter on committed captures', () => {
  test('the old integer form and the new decimal form, with thousands separators', () => {
    const old = parseFile(libtestAdapter, join(DIR, 'old-integer-external.txt'));
    assert.ok(Math.abs(byId(old, 'bench_fib_20').metrics.time!.value! - 18149e-9) < 1e-15);
    const decimal = parseFile(libtestAdapter, join(DIR, 'decimal.txt'));
    assert.ok(Math.abs(byId(decimal, 'bench_fib_20').metrics.time!.value! - 20820.91e-9) < 1e-15);
    assert.ok(Math.abs(byId(decimal, 'bench_copy_4k').metrics.bytes_per_second!.value! - 83591e6) < 1);
  });

  test('criterion --output-format bencher lines keep names with spaces', () => {
    const results = parseFile(libtestAdapter, join(DIR, 'criterion-bencher-old-external.txt'));
    assert.deepEqual(
      results.map((r) => r.id),
      ['Create Realm', 'Symbols (Execution)', 'For loop (Execution)', 'Fibonacci (Execution)'],
    );
    assert.ok(Math.abs(byId(results, 'Fibonacci (Execution)').metrics.time!.value! - 1672496e-9) < 1e-12);
  });

  test('a faster median is improved and a slower one regressed, on the tolerance alone (one value per side)', () => {
    const base = byId(parseFile(libtestAdapter, join(DIR, 'decimal.txt')), 'bench_copy_4k');
    const cur = byId(
      parseText(
        libtestAdapter,
        readFileSync(join(DIR, 'decimal.txt'), 'utf8').replace('49.43 ns/iter (+/- 15.43) = 83591 MB/s', '24.71 ns/iter (+/- 7.10) = 167180 MB/s'),
        'cur.txt',
      ),
      'bench_copy_4k',
    );
    assert.equal(gateRow(base, cur, 'bytes_per_second').status, 'improved');
    assert.equal(gateRow(cur, base, 'bytes_per_second').status, 'regressed');
  });
});

describe('libtest adapter on units other than ns and older panics', () => {
  test('µs, ms and s per iteration are time in seconds, exactly as printed', () => {
    const results = parseFile(libtestAdapter, join(DIR, 'time-units-external.txt'));
    assert.deepEqual(
      results.map((r) => r.id),
      ['tests::benchmark', 'tests::other_benchmark', 'tests::last_benchmark', 'tests::one_digit', 'tests::two_digit', 'tests::three_digit'],
    );
    const expected: [string, number, string][] = [
      ['tests::benchmark', 3161e-9, 'ns/iter'],
      ['tests::one_digit', 1e-6, '\u03bcs/iter'],
      ['tests::two_digit', 22e-3, 'ms/iter'],
      ['tests::three_digit', 333, 's/iter'],
    ];
    for (const [id, seconds, sourceUnit] of expected) {
      const result = byId(results, id);
      assert.deepEqual(Object.keys(result.metrics), ['time'], id);
      assert.deepEqual(result.metrics.time, { unit: 's', direction: 'lower', sourceUnit, value: seconds }, id);
    }
  });

  test('the micro sign (U+00B5) and "us" read the same as the Greek mu', () => {
    const text = readFileSync(join(DIR, 'time-units-external.txt'), 'utf8');
    for (const micro of ['\u00b5s', 'us']) {
      const results = parseText(libtestAdapter, text.replace('\u03bcs/iter', `${micro}/iter`), 'micro.txt');
      assert.equal(byId(results, 'tests::one_digit').metrics.time!.value, 1e-6, micro);
    }
  });

  test("cycles/iter is a lower-is-better count and a fork's MS/s a higher-is-better rate", () => {
    const results = parseFile(libtestAdapter, join(DIR, 'cycles-and-rate-units-external.txt'));
    assert.deepEqual(
      results.map((r) => r.id),
      ['cmov', 'cmov2', 'mov', 'upload', 'download'],
    );
    assert.deepEqual(byId(results, 'cmov').metrics, { cycles: { unit: 'count', direction: 'lower', sourceUnit: 'cycles/iter', value: 2835 } });
    assert.deepEqual(byId(results, 'download').metrics, { 'MS/s': { unit: 'MS/s', direction: 'higher', sourceUnit: 'MS/s', value: 9001 } });
  });

  test('a unit that is neither <unit>/iter nor a per-second rate is an error naming what is accepted', () => {
    const text = readFileSync(join(DIR, 'cycles-and-rate-units-external.txt'), 'utf8').replace('1508 cycles/iter', '1508 cycles');
    const error = inputErrorOf(() => parseText(libtestAdapter, text, '/work/out/units.txt'));
    assert.equal(error.file, '/work/out/units.txt');
    assert.equal(error.line, 5);
    assert.match(
      error.message,
      /unknown unit "cycles" for mov; expected <time>\/iter with time ns, µs, μs, us, ms or s, another <unit>\/iter \(cycles\/iter\), or a per-second rate \(MS\/s\)/,
    );
  });

  test('an older Rust panic (message quoted on the "panicked at" line) gives that message, not the backtrace hint', () => {
    const results = parseFile(libtestAdapter, join(DIR, 'old-panic-message-external.txt'));
    const failed = byId(results, 'tests::benchmark_b');
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error!.message, 'panicked: explicit panic');
    assert.equal(byId(results, 'tests::benchmark_c').metrics.time!.value, 3215e-9);
  });

  test('a newer Rust panic (message on the line after "panicked at file:line:col:") gives that message', () => {
    const failed = byId(parseFile(libtestAdapter, join(DIR, 'decimal-with-failed-bench.txt')), 'panics');
    assert.match(failed.error!.message, /^panicked: .*boom/);
  });

  test('exact ns inputs stay exact: 18,149 ns is 18149e-9 s and 18149 ns again in BMF', () => {
    const results = parseFile(libtestAdapter, join(DIR, 'old-integer-external.txt'));
    assert.equal(byId(results, 'bench_fib_20').metrics.time!.value, 18149e-9);
    const bmf = toBmf(newResultSet('2026-11-25T00:00:00Z', results));
    assert.equal(bmf.bench_fib_20!.latency!.value, 18149);
    assert.equal(bmf.bench_fib_10!.latency!.value, 135);
  });
});

const decimal = readFileSync(join(DIR, 'decimal.txt'), 'utf8');

describe('libtest adapter on two bench targets in one file', () => {
  test('the same name in two targets is an error naming the second line, never one silently replacing the other', () => {
    // What `cargo bench` prints for two bench targets that each have the same benchmark names.
    const two = decimal + decimal.replace('49.43 ns/iter (+/- 15.43) = 83591 MB/s', '98.86 ns/iter (+/- 15.43) = 41795 MB/s');
    const error = inputErrorOf(() => parseText(libtestAdapter, two, '/work/out/cargo-bench.txt'));
    assert.equal(error.file, '/work/out/cargo-bench.txt');
    assert.equal(error.line, decimal.split('\n').length + 2, 'the second "test bench_copy_4k" line');
    assert.match(error.message, /"bench_copy_4k" appears twice \(two bench targets\?\)/);
  });

  test('two targets with distinct names are read together', () => {
    const two = decimal + decimal.replace(/test bench_/g, 'test other_');
    assert.equal(parseText(libtestAdapter, two, 'two.txt').length, 6);
  });
});

adapterContract(libtestAdapter, 'libtest', [
  { name: 'cut mid-line', text: decimal.slice(0, decimal.indexOf('20,820') + 4), line: true },
  { name: 'cut before the result line', text: decimal.slice(0, decimal.indexOf('test bench_fib_10')), line: true },
  { name: 'corrupt number', text: decimal.replace('132.18 ns/iter', '13x.18 ns/iter'), line: true },
  { name: 'truncated json', text: readFileSync(join(DIR, 'format-json.jsonl'), 'utf8').slice(0, 300), line: true },
]);
