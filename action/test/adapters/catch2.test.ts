import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { catch2Adapter } from '../../src/adapters/catch2.js';
import { parsePerfGateConfig } from '../../src/config/perf-gate-config.js';
import { selectBenchmarks } from '../../src/runner/select-benchmarks.js';
import { readInputs } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';
import { gateRow, runHarness } from '../support/compiled-harnesses.js';
import { tempDir } from '../support/temp.js';
import { requireFile, requireTool } from '../support/tools.js';

requireTool('g++');
requireFile('/usr/include/catch2/catch.hpp', 'Catch2 (Debian package catch2)');

const DIR = join(FIXTURES, 'catch2');
const SOURCE = new URL('../support/harness-src/catch2-bench.cpp', import.meta.url).pathname;
const SAMPLES = 15;
const SECONDS: Record<string, number> = { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1 };
const WRAPPED = 'vector sum of 1000 ints, built fresh each time so the name is long enough to wrap';
const OK_IDS = ['fib 10', 'fib 20', WRAPPED, 'string append 100', 'checked fib 5', 'sum 100'];
/** The test case whose name holds every character a Catch2 test spec treats as syntax (harness-src/catch2-bench.cpp). */
const SPECIAL = 'Sums, [not a tag] *2 ~"q" \\ end';

/** The console's mean and std dev of one benchmark, read straight from the text: the row's next two lines. */
function consoleStats(text: string, lastNamePart: string): { samples: number; mean: number; stddev: number } {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith(lastNamePart) && /\d+\s+\d+\s+[\d.]+ \w+\s*$/.test(l));
  assert.ok(at >= 0, `no row for ${lastNamePart}`);
  const value = (l: string): number => {
    const m = /^\s+([\d.e+-]+) (\w+)/.exec(l)!;
    return Number(m[1]) * SECONDS[m[2]!]!;
  };
  return { samples: Number(/(\d+)\s+\d+\s+[\d.]+ \w+\s*$/.exec(lines[at]!)![1]), mean: value(lines[at + 1]!), stddev: value(lines[at + 2]!) };
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.abs(b) * 1e-12;
}

describe('catch2 adapter on a real Catch2 2.13 program (console and -r xml)', () => {
  const dir = tempDir('perf-gate-catch2-');
  const consoleFile = join(dir, 'console.txt');
  const xmlFile = join(dir, 'results.xml');
  let consoleText: string;
  let xmlText: string;
  let fromConsole: BenchmarkResult[];
  let fromXml: BenchmarkResult[];
  before(() => {
    const binary = join(dir, 'bench');
    runHarness('g++', ['-O2', '-std=c++17', SOURCE, '-o', binary], { timeoutMs: 400_000 });
    // The REQUIRE that fails makes both runs exit 1; the output is what is read.
    const run = (args: string[]): string => runHarness(binary, ['--benchmark-samples', String(SAMPLES), ...args], { allowFailure: true }).stdout;
    consoleText = run([]);
    xmlText = run(['-r', 'xml']);
    writeFileSync(consoleFile, consoleText);
    writeFileSync(xmlFile, xmlText);
    fromConsole = parseFile(catch2Adapter, consoleFile);
    fromXml = parseFile(catch2Adapter, xmlFile);
  });

  test('both reporters are detected and yield the same benchmarks, in program order', () => {
    for (const file of [consoleFile, xmlFile]) assert.equal(readInputs([file], { cwd: '/', created: 'now' }).files[0]!.format, 'catch2', file);
    const ids = ['fib 10', 'fib 20', WRAPPED, 'string append 100', 'throws', 'checked fib 5', 'Validated', 'sum 100'];
    assert.deepEqual(
      fromConsole.map((r) => r.id),
      ids,
    );
    assert.deepEqual(
      fromXml.map((r) => r.id),
      ids,
    );
  });

  test('each benchmark names its test case (Catch2 selects test cases), in both reporters', () => {
    for (const results of [fromConsole, fromXml]) {
      assert.equal(byId(results, 'fib 20').params?.['test case'], 'Fibonacci');
      assert.equal(byId(results, WRAPPED).params?.['test case'], 'Containers');
      assert.equal(byId(results, 'sum 100').params?.['test case'], SPECIAL);
      assert.equal(byId(results, 'Validated').params?.['test case'], 'Validated');
    }
  });

  test("the second stage's round runs exactly the suspects' test cases, their names escaped, at 10 samples", () => {
    const suite = parsePerfGateConfig(
      `version: 1\nsuites:\n  - name: c2\n    run: ./bench --benchmark-samples ${SAMPLES} -r xml -o {output}\n    format: catch2\n`,
      'perf-gate.yml',
      dir,
    ).suites[0]!;
    const testCases = new Map(fromXml.map((b) => [`c2/${b.id}`, b.params!['test case']!]));
    const selection = selectBenchmarks(suite, ['c2/sum 100', 'c2/fib 20'], testCases);
    assert.ok(selection.run !== null, JSON.stringify(selection));
    const output = join(dir, 'selected.xml');
    execFileSync('bash', ['-c', selection.run.replaceAll('{output}', output)], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    const selected = parseFile(catch2Adapter, output);
    // Fibonacci's other benchmark runs too: Catch2 cannot run one benchmark of a test case alone.
    assert.deepEqual(selected.map((b) => b.id).sort(), ['fib 10', 'fib 20', 'sum 100']);
    for (const b of selected) assert.equal(b.metrics['time']!.summary!.n, 10, b.id);
    // Without the test case of a suspect (results from elsewhere) the suite cannot be narrowed, and says so.
    assert.match((selectBenchmarks(suite, ['c2/sum 100']) as { why: string }).why, /Catch2 selects test cases, and the test case of c2\/sum 100 is not known/);
  });

  test('console: each benchmark is a summary in seconds: n = samples, mean and std dev as printed, lower is better', () => {
    assert.match(consoleText, /is a Catch v2\.13/);
    for (const id of OK_IDS) {
      const time = byId(fromConsole, id).metrics.time!;
      const printed = consoleStats(consoleText, id === WRAPPED ? 'enough to wrap' : id);
      assert.equal(printed.samples, SAMPLES);
      assert.equal(time.unit, 's');
      assert.equal(time.direction, 'lower');
      assert.equal(time.samples, undefined);
      assert.equal(time.summary!.n, SAMPLES);
      assert.ok(close(time.summary!.mean, printed.mean), `${id}: ${time.summary!.mean} vs ${printed.mean}`);
      assert.ok(close(time.summary!.stddev!, printed.stddev), `${id}: ${time.summary!.stddev} vs ${printed.stddev}`);
    }
  });

  test('console: a name too long for its column is wrapped over lines and read whole', () => {
    assert.ok(!consoleText.split('\n').some((l) => l.includes(WRAPPED)), 'Catch2 wrapped the long name');
    assert.equal(byId(fromConsole, WRAPPED).status, 'ok');
  });

  test('xml: mean and standardDeviation (ns) become seconds, n = samples', () => {
    for (const id of OK_IDS) {
      const element = new RegExp(
        `<BenchmarkResults name="${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" samples="(\\d+)"[^>]*>\\s*<!--[^>]*-->\\s*<mean value="([^"]+)"[^>]*/>\\s*<standardDeviation value="([^"]+)"`,
      ).exec(xmlText);
      assert.ok(element, id);
      const time = byId(fromXml, id).metrics.time!;
      assert.equal(time.summary!.n, Number(element[1]));
      assert.equal(time.summary!.n, SAMPLES);
      assert.ok(close(time.summary!.mean, Number(element[2]) * 1e-9), id);
      assert.ok(close(time.summary!.stddev!, Number(element[3]) * 1e-9), id);
      assert.equal(time.sourceUnit, 'ns');
    }
  });

  test('fib 20 costs more than fib 10 (about 120 times the calls), in both reporters', () => {
    // Only the order is asserted: on this shared 2-core machine a stall can inflate fib 10's mean many times over.
    for (const results of [fromConsole, fromXml]) {
      const ratio = byId(results, 'fib 20').metrics.time!.summary!.mean / byId(results, 'fib 10').metrics.time!.summary!.mean;
      assert.ok(ratio > 1, `ratio ${ratio}`);
    }
  });

  test('a benchmark that throws is failed with its message; a failed REQUIRE fails its test case', () => {
    for (const results of [fromConsole, fromXml]) {
      const thrown = byId(results, 'throws');
      assert.equal(thrown.status, 'failed');
      assert.equal(thrown.error!.message, 'Benchmark failed (resource unavailable)');
      assert.deepEqual(thrown.metrics, {});
      const validated = byId(results, 'Validated');
      assert.equal(validated.status, 'failed');
      assert.match(validated.error!.message, /catch2-bench\.cpp:\d+: FAILED: REQUIRE\( fib\(5\) == 6 \) with expansion: 5 == 6/);
      assert.ok(!results.some((r) => r.id === 'never reached'));
      assert.equal(byId(results, 'checked fib 5').status, 'ok');
    }
  });

  test('a mean ten times lower is improved, ten times higher regressed', () => {
    const base = byId(fromConsole, 'fib 20');
    const scaled = (factor: number): BenchmarkResult => {
      const time = base.metrics.time!;
      return {
        ...base,
        metrics: { time: { ...time, summary: { ...time.summary!, mean: time.summary!.mean * factor, stddev: time.summary!.stddev! * factor } } },
      };
    };
    assert.equal(gateRow(base, scaled(0.1), 'time').status, 'improved');
    assert.equal(gateRow(base, scaled(10), 'time').status, 'regressed');
  });
});

describe('catch2 adapter on committed outputs', () => {
  test("github-action-benchmark's Catch2 2.11 outputs ('estimated' and 'est run time' headers)", () => {
    for (const file of ['catch2_output-gab-external.txt', 'catch2_output_v3-gab-external.txt']) {
      const results = parseFile(catch2Adapter, join(DIR, file));
      assert.deepEqual(
        results.map((r) => r.id),
        ['Fibonacci 10', 'Fibonacci 20', 'Fibonacci~ 5!', 'Fibonacci-15_bench'],
        file,
      );
      const fib20 = byId(results, 'Fibonacci 20').metrics.time!.summary!;
      assert.equal(fib20.n, 100);
      assert.ok(close(fib20.mean, 41.731e-6));
      assert.ok(close(fib20.stddev!, 3.256e-6));
      assert.ok(close(byId(results, 'Fibonacci 10').metrics.time!.summary!.mean, 344e-9));
    }
  });

  test('Catch2 v3.5.3 output with trailing blanks stripped and a Windows file(line) header', () => {
    const results = parseFile(catch2Adapter, join(DIR, 'v3.5.3-pyincpp-external.txt'));
    assert.equal(results.length, 12);
    assert.deepEqual(
      results.slice(0, 2).map((r) => r.id),
      ['std::vector constructor', 'pyincpp::List constructor'],
    );
    const append = byId(results, 'pyincpp::List append').metrics.time!.summary!;
    assert.ok(close(append.mean, 8.87775e-6));
    assert.ok(close(append.stddev!, 5.06282e-6));
    assert.ok(close(byId(results, 'pyincpp::Set find').metrics.time!.summary!.mean, 2.75e-9));
  });
});

describe('catch2 adapter on unusable input', () => {
  const real = readFileSync(join(DIR, 'v2.13.10-console.txt'), 'utf8');
  const xml = readFileSync(join(DIR, 'v2.13.10-xml.xml'), 'utf8');

  test('console output cut off inside a benchmark names the line where it stops', () => {
    const lines = real.split('\n');
    const row = lines.findIndex((l) => l.startsWith('fib 20'));
    const cut = lines.slice(0, row + 2).join('\n');
    const error = inputErrorOf(() => parseText(catch2Adapter, cut, '/r/cut.txt'));
    assert.equal(error.file, '/r/cut.txt');
    assert.equal(error.line, row + 2);
    assert.match(error.message, /truncated/);
  });

  test('console output cut off between benchmarks (no closing totals) is truncated', () => {
    const lines = real.split('\n');
    const cut = lines
      .slice(
        0,
        lines.findIndex((l) => l.startsWith('Containers')),
      )
      .join('\n');
    const error = inputErrorOf(() => parseText(catch2Adapter, cut, '/r/cut2.txt'));
    assert.match(error.message, /no closing "=====" totals line/);
    assert.equal(error.line, cut.split('\n').length);
  });

  test('a corrupt mean line names its line', () => {
    const lines = real.split('\n');
    const row = lines.findIndex((l) => l.startsWith('fib 10'));
    lines[row + 1] = lines[row + 1]!.replace(/ ns/, ' parsecs');
    const error = inputErrorOf(() => parseText(catch2Adapter, lines.join('\n'), '/r/bad.txt'));
    assert.equal(error.line, row + 2);
  });

  test('truncated XML names the file and a line', () => {
    const error = inputErrorOf(() => parseText(catch2Adapter, xml.slice(0, xml.length >> 1), '/r/cut.xml'));
    assert.equal(error.file, '/r/cut.xml');
    assert.ok(error.line !== undefined && error.line >= 1);
    assert.match(error.message, /truncated|invalid XML/);
  });

  test('two benchmarks of one name are an error naming the second', () => {
    const twice = real.replace(/^fib 20(?= )/m, 'fib 10');
    const error = inputErrorOf(() => parseText(catch2Adapter, twice, '/r/twice.txt'));
    assert.match(error.message, /"fib 10" appears twice/);
    assert.equal(error.line, real.split('\n').findIndex((l) => l.startsWith('fib 20')) + 1);
  });
});

adapterContract(catch2Adapter, 'catch2', [
  { name: 'truncated xml', text: readFileSync(join(DIR, 'v2.13.10-xml.xml'), 'utf8').slice(0, 900), line: true },
  { name: 'xml without a mean', text: readFileSync(join(DIR, 'v2.13.10-xml.xml'), 'utf8').replace(/<mean [^>]*\/>/, ''), line: true },
  { name: 'truncated console', text: readFileSync(join(DIR, 'v2.13.10-console.txt'), 'utf8').slice(0, 1200), line: true },
]);
