import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileInput, parseInput, type Adapter } from '../../src/adapters/index.js';
import { quoteNonFinite } from '../../src/adapters/json-text.js';
import { rubyErrorIn } from '../../src/adapters/ruby-output.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { inputErrorOf } from './adapter-contract.js';

/**
 * What fuzzing found (docs/reliability.md), one test per finding, each
 * reduced to the smallest input that showed it. Every one of these was an
 * internal error, a hang or a non-finite number in a report before its fix.
 */
const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

function errorOf(text: string, path: string, format: string | Adapter): string {
  const error = inputErrorOf(() => parseInput(fileInput(path, text), format));
  assert.equal(error.file, path);
  return error.message;
}

/** An adapter returning fixed results, to test the registry's own checks apart from any format. */
function returning(results: BenchmarkResult[]): Adapter {
  return { name: 'fixed', detect: () => ({ match: true }), parse: () => results };
}

const ok = (metrics: BenchmarkResult['metrics'], id = 'b'): BenchmarkResult => ({ id, status: 'ok', metrics });

test('an unclosed XML processing instruction, which the validator passes and the parser throws on, is an InputError', () => {
  const text = '<?x"l version="1.0"?>\n<testsuites><testsuite name="s" tests="1"><testcase name="t" time="1"/></testsuite></testsuites>\n';
  assert.match(errorOf(text, '/r/junit.xml', 'junit'), /invalid XML: Pi Tag is not closed/);
});

test('a number past 1.8e308 in a harness file is refused, naming the benchmark and metric, never read as Infinity', () => {
  const message = errorOf('-1e309,msec,task-clock,15.97%,730679,100.00,0.600,CPUs utilized\n', '/r/perf.csv', 'perf-stat');
  assert.match(message, /benchmark "perf", metric "task-clock": its value \(-Infinity\) is not a finite number; expected finite msec values/);
});

test('the registry refuses non-finite samples, summaries and values, whatever the adapter', () => {
  assert.match(
    errorOf('x', '/r/a', returning([ok({ time: { unit: 's', direction: 'lower', samples: [1, Number.NaN] } })])),
    /sample 2 \(NaN\) is not a finite number/,
  );
  assert.match(
    errorOf('x', '/r/a', returning([ok({ time: { unit: 's', direction: 'lower', summary: { n: 3, mean: Infinity } } })])),
    /its mean \(Infinity\) is not a finite number/,
  );
  assert.match(errorOf('x', '/r/a', returning([ok({ rps: { unit: '1/s', direction: 'higher', value: -Infinity } })])), /its value \(-Infinity\)/);
});

test('a sample count that is not a whole number, or a negative spread, is refused', () => {
  assert.match(
    errorOf('x', '/r/a', returning([ok({ time: { unit: 's', direction: 'lower', summary: { n: 1e-320, mean: 1 } } })])),
    /its sample count \(1e-320\) is not a whole number of at least 1/,
  );
  assert.match(
    errorOf('x', '/r/a', returning([ok({ time: { unit: 's', direction: 'lower', summary: { n: 5, mean: 1, stddev: -1 } } })])),
    /its standard deviation \(-1\) is negative/,
  );
});

test('a criterion estimate with a negative standard deviation is refused', () => {
  const path = `${FIXTURES}criterion/target-criterion/sum/split/100/new/estimates.json`;
  const data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, { point_estimate: number }>;
  data.std_dev!.point_estimate = -1;
  assert.match(errorOf(JSON.stringify(data), path, 'criterion'), /metric "time": its standard deviation \(-1e-9\) is negative/);
});

const HYPERFINE_RESULT = { command: 'a', mean: 1, stddev: 0.1, median: 1, user: 1, system: 0, min: 0.9, max: 1.1, times: [1, 1.1, 0.9], exit_codes: [0, 0, 0] };

test('the same benchmark twice in one file is refused with a message that says so', () => {
  const message = errorOf(JSON.stringify({ results: [HYPERFINE_RESULT, HYPERFINE_RESULT] }), '/r/h.json', 'hyperfine');
  assert.match(message, /benchmark "a" appears twice in this hyperfine file/);
});

test('a benchmark with an empty name is refused', () => {
  assert.match(errorOf(JSON.stringify({ results: [{ ...HYPERFINE_RESULT, command: '' }] }), '/r/h.json', 'hyperfine'), /has an empty name/);
});

test('an exit code that is not a whole number is no exit code (hyperfine)', () => {
  const [b] = parseInput(fileInput('/r/h.json', JSON.stringify({ results: [{ ...HYPERFINE_RESULT, exit_codes: [1e-320, 0, 0] }] })), 'hyperfine');
  assert.equal(b!.status, 'failed');
  assert.equal(b!.error!.exitCode, null);
});

test('JSON nested 100,000 deep is an InputError, not a stack overflow in the adapter', () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  for (const format of ['tinybench', 'benchmarkjs', 'jmh', 'benchmark-ips', 'custom-smaller', 'resultset']) {
    assert.match(errorOf(deep, '/r/deep.json', format), /nested more than 256 levels deep|expected/, format);
  }
});

test('a 10 MB string in Google Benchmark JSON is read in one pass (the NaN quoting used to overflow the stack)', () => {
  const text = `{"a": "${'x'.repeat(10 * 1024 * 1024)}", "b": NaN, "c": "\\"NaN\\""}`;
  assert.ok(quoteNonFinite(text).endsWith(`"b": "NaN", "c": "\\"NaN\\""}`));
});

test('a 10 MB line is searched for a Ruby error report in linear time (it was quadratic: hours)', () => {
  const started = performance.now();
  assert.equal(rubyErrorIn('x'.repeat(10 * 1024 * 1024)), undefined);
  assert.ok(performance.now() - started < 5000, `${performance.now() - started} ms`);
  assert.deepEqual(rubyErrorIn("times:  bench.rb:23:in `block (2 levels) in <main>': boom (RuntimeError)"), { at: 8, message: 'boom (RuntimeError)' });
  assert.deepEqual(rubyErrorIn("label -e:1:in '<main>': boom (RuntimeError)"), { at: 6, message: 'boom (RuntimeError)' });
});
