import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jmhAdapter } from '../../src/adapters/jmh.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { reasonText } from '../../src/report/reason-text.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';
import { EXAMPLES, factorBeyondSpread, gateRow, runHarness } from '../support/compiled-harnesses.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('mvn', 'java');

const DIR = join(FIXTURES, 'jmh');
const PKG = 'example.jmh';

interface RawEntry {
  benchmark: string;
  mode: string;
  params?: Record<string, string>;
  primaryMetric: { rawData?: number[][]; scoreUnit: string };
  secondaryMetrics: Record<string, { rawData: number[][] }>;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

describe('jmh adapter on a real JMH run (-prof gc, every mode, @Param)', () => {
  const dir = tempDir('perf-gate-jmh-');
  const out = join(dir, 'jmh.json');
  let raw: RawEntry[];
  let results: BenchmarkResult[];
  before(() => {
    // Build a private copy of the example: the examples test rebuilds the example's own jar meanwhile.
    const project = join(dir, 'project');
    cpSync(join(EXAMPLES.javaJmh, 'pom.xml'), join(project, 'pom.xml'));
    cpSync(join(EXAMPLES.javaJmh, 'src'), join(project, 'src'), { recursive: true });
    runHarness('mvn', ['-q', '-B', '-Dstyle.color=never', 'package', '-DskipTests'], { cwd: project, timeoutMs: 170_000 });
    const jar = join(project, 'target/benchmarks.jar');
    runHarness('java', ['-jar', jar, '-f', '1', '-wi', '3', '-i', '8', '-w', '100ms', '-r', '100ms', '-prof', 'gc', '-rf', 'json', '-rff', out], {
      timeoutMs: 120_000,
    });
    raw = JSON.parse(readFileSync(out, 'utf8')) as RawEntry[];
    results = parseFile(jmhAdapter, out);
  });

  test('ids are the method with its params in brackets', () => {
    assert.deepEqual(
      results.map((r) => r.id).sort(),
      [
        `${PKG}.JoinBench.builder[size=100]`,
        `${PKG}.JoinBench.builder[size=10]`,
        `${PKG}.JoinBench.join[size=100]`,
        `${PKG}.JoinBench.join[size=10]`,
        `${PKG}.ParseBench.parseSample`,
        `${PKG}.ParseBench.parseSingleShot`,
      ].sort(),
    );
    assert.deepEqual(byId(results, `${PKG}.JoinBench.join[size=10]`).params, { size: '10', mode: 'avgt', threads: '1' });
  });

  test('thrpt is throughput in 1/s, higher is better, rawData (ops/ms) × 1000 as samples', () => {
    const entry = raw.find((e) => e.mode === 'thrpt' && e.params?.size === '10')!;
    assert.equal(entry.primaryMetric.scoreUnit, 'ops/ms');
    const m = byId(results, `${PKG}.JoinBench.builder[size=10]`).metrics.throughput!;
    assert.equal(m.unit, '1/s');
    assert.equal(m.direction, 'higher');
    assert.equal(m.sourceUnit, 'ops/ms');
    // Converted decimally: each sample is the double nearest the printed ops/ms × 1000, with no binary noise.
    assert.deepEqual(
      m.samples,
      entry.primaryMetric.rawData!.flat().map((v) => Number(`${v}e3`)),
    );
    assert.equal(m.samples!.length, 8);
    // Appending 10 short strings: between a thousand and a billion times a second.
    assert.ok(m.samples!.every((v) => v > 1e3 && v < 1e9));
    const big = byId(results, `${PKG}.JoinBench.builder[size=100]`).metrics.throughput!;
    assert.ok(median(big.samples!) < median(m.samples!), 'joining 100 parts is slower than 10');
  });

  test('avgt, sample and ss are time in seconds per operation, lower is better', () => {
    const join10 = byId(results, `${PKG}.JoinBench.join[size=10]`).metrics.time!;
    assert.equal(join10.unit, 's');
    assert.equal(join10.direction, 'lower');
    assert.equal(join10.sourceUnit, 'ns/op');
    const entry = raw.find((e) => e.mode === 'avgt' && e.params?.size === '10')!;
    join10.samples!.forEach((v, i) => assert.ok(Math.abs(v - entry.primaryMetric.rawData!.flat()[i]! * 1e-9) < 1e-18));
    assert.ok(join10.samples!.every((v) => v > 1e-9 && v < 1e-3));
    const sample = byId(results, `${PKG}.ParseBench.parseSample`).metrics;
    assert.equal(sample.time!.samples!.length, 8, 'one sample per measurement iteration, from the histogram');
    assert.ok(sample.time!.samples!.every((v) => v > 1e-9 && v < 1e-3));
    assert.ok(median(sample.latency_p99!.samples!) >= median(sample.latency_p50!.samples!));
    assert.equal(sample.latency_p50!.unit, 's');
    assert.equal(sample.latency_p50!.direction, 'lower');
    const ss = byId(results, `${PKG}.ParseBench.parseSingleShot`).metrics.time!;
    assert.equal(ss.samples!.length, 8);
    assert.ok(
      ss.samples!.every((v) => v > 1e-7 && v < 1),
      'one cold call parsing 1000 numbers',
    );
  });

  test('-prof gc secondaries are their own metrics with base units and the right direction', () => {
    const small = byId(results, `${PKG}.JoinBench.join[size=10]`).metrics;
    const big = byId(results, `${PKG}.JoinBench.join[size=100]`).metrics;
    const norm = small['gc.alloc.rate.norm']!;
    assert.equal(norm.unit, 'B');
    assert.equal(norm.direction, 'lower');
    assert.equal(norm.samples!.length, 8);
    // A joined string of 10 short numbers: tens to thousands of bytes per operation, and more for 100.
    assert.ok(norm.samples!.every((v) => v > 16 && v < 100_000));
    assert.ok(median(big['gc.alloc.rate.norm']!.samples!) > median(norm.samples!));
    const rate = small['gc.alloc.rate']!;
    assert.equal(rate.unit, 'B/s');
    assert.equal(rate.direction, 'lower', 'allocating faster is worse, although the unit is a rate');
    const entry = raw.find((e) => e.mode === 'avgt' && e.params?.size === '10')!;
    assert.ok(Math.abs(rate.samples![0]! - entry.secondaryMetrics['gc.alloc.rate']!.rawData[0]![0]! * 1024 * 1024) < 1e-3);
    assert.equal(small['gc.count']!.unit, 'count');
  });

  test('a throughput that rose beyond its whole spread is improved, and the same drop regressed', () => {
    // JMH's short iterations on a shared 2-core machine spread over 4× (see docs/harnesses-compiled.md).
    const entry = raw.findIndex((e) => e.mode === 'thrpt' && e.params?.size === '10');
    const id = `${PKG}.JoinBench.builder[size=10]`;
    const base = byId(results, id);
    const factor = factorBeyondSpread(base.metrics.throughput!.samples!);
    const faster = raw.map((e, i) =>
      i === entry ? { ...e, primaryMetric: { ...e.primaryMetric, rawData: e.primaryMetric.rawData!.map((f) => f.map((v) => v * factor)) } } : e,
    );
    const cur = byId(parseText(jmhAdapter, JSON.stringify(faster, null, 4), 'faster.json'), id);
    const up = gateRow(base, cur, 'throughput');
    assert.equal(up.status, 'improved', reasonText(up.reason));
    const down = gateRow(cur, base, 'throughput');
    assert.equal(down.status, 'regressed', reasonText(down.reason));
  });
});

describe('jmh adapter on committed captures', () => {
  test('JMH 1.36 names secondaries with a "·" prefix: it is dropped; ops/ns converts to 1/s', () => {
    const results = parseFile(jmhAdapter, join(DIR, 'jmh-1.36-thrpt-avgt-dot-prefix.json'));
    const raw = JSON.parse(readFileSync(join(DIR, 'jmh-1.36-thrpt-avgt-dot-prefix.json'), 'utf8')) as RawEntry[];
    assert.ok(Object.keys(raw[0]!.secondaryMetrics).every((k) => k.startsWith('\u00b7')));
    // Both modes of one method and params: the mode joins the brackets so the ids stay apart.
    const thrpt = byId(results, `${PKG}.JoinBench.join[size=10,mode=thrpt]`);
    const avgt = byId(results, `${PKG}.JoinBench.join[size=10,mode=avgt]`);
    assert.deepEqual(Object.keys(thrpt.metrics).sort(), ['gc.alloc.rate', 'gc.alloc.rate.norm', 'gc.count', 'gc.time', 'throughput']);
    assert.equal(raw[0]!.primaryMetric.scoreUnit, 'ops/ns');
    assert.ok(Math.abs(thrpt.metrics.throughput!.samples![0]! - raw[0]!.primaryMetric.rawData![0]![0]! * 1e9) < 1e-3);
    assert.equal(avgt.metrics.time!.direction, 'lower');
    assert.equal(thrpt.metrics.gc_time, undefined);
    assert.ok(Math.abs(thrpt.metrics['gc.time']!.samples![0]! - raw[0]!.secondaryMetrics['\u00b7gc.time']!.rawData[0]![0]! / 1000) < 1e-12);
  });

  test('the "NaN" strings of a 2-iteration run are tolerated; the samples still come from rawData', () => {
    const text = readFileSync(join(DIR, 'jmh-1.37-all-modes-params-prof-gc.json'), 'utf8');
    assert.match(text, /"scoreError" : "NaN"/);
    const results = parseFile(jmhAdapter, join(DIR, 'jmh-1.37-all-modes-params-prof-gc.json'));
    assert.equal(results.length, 6);
    assert.equal(byId(results, `${PKG}.JoinBench.builder[size=10]`).metrics.throughput!.samples!.length, 2);
  });

  test('an external JMH 1.29 file: params in the id, thrpt in ops/s', () => {
    const [r] = parseFile(jmhAdapter, join(DIR, 'jmh-1.29-thrpt-params-external.json'));
    assert.equal(r!.id, 'org.openjdk.jmh.samples.JMHSample_01_HelloWorld.wellHelloThere[paramA=17,paramB=33]');
    assert.deepEqual(r!.metrics.throughput!.samples, [3.376842765688582e9, 3.37651988895058e9, 3.375353964729294e9]);
    assert.equal(r!.metrics.throughput!.direction, 'higher');
  });

  test('without rawData (-Djmh.json.rawData=false) the score stands alone; a "NaN" score with no data is an error', () => {
    const raw = JSON.parse(readFileSync(join(DIR, 'jmh-1.29-thrpt-params-external.json'), 'utf8')) as RawEntry[];
    const noRaw = raw.map((e) => ({ ...e, primaryMetric: { ...e.primaryMetric, rawData: [] } }));
    const [r] = parseText(jmhAdapter, JSON.stringify(noRaw), 'noraw.json');
    assert.equal(r!.metrics.throughput!.samples, undefined);
    assert.equal(r!.metrics.throughput!.summary!.n, 3);
    assert.ok(Math.abs(r!.metrics.throughput!.summary!.mean - 3.3762388731228185e9) < 1);
    const nan = raw.map((e) => ({ ...e, primaryMetric: { ...e.primaryMetric, score: 'NaN', rawData: [] } }));
    const nanText = JSON.stringify(nan, null, 4);
    const error = inputErrorOf(() => parseText(jmhAdapter, nanText, '/work/out/nan.json'));
    assert.equal(error.file, '/work/out/nan.json');
    // The offending token: the first result's primary score (JMH writes primaryMetric before secondaryMetrics).
    assert.equal(error.line, nanText.split('\n').findIndex((l) => l.includes('"score"')) + 1);
  });
});

describe('jmh adapter: the score unit decides the metric, the mode only names it', () => {
  const edited = 'mode-unit-disagree-hand-edited.json';

  test('mode avgt with ops/ns is throughput, higher is better; mode thrpt with ns/op is time, lower is better', () => {
    const raw = JSON.parse(readFileSync(join(DIR, edited), 'utf8')) as RawEntry[];
    assert.deepEqual(
      raw.map((e) => [e.mode, e.primaryMetric.scoreUnit]),
      [
        ['avgt', 'ops/ns'],
        ['thrpt', 'ns/op'],
      ],
    );
    const results = parseFile(jmhAdapter, join(DIR, edited));
    const rate = byId(results, `${PKG}.JoinBench.join[size=10,mode=avgt]`);
    assert.equal(rate.params!.mode, 'avgt');
    assert.equal(rate.metrics.time, undefined);
    assert.equal(rate.metrics.throughput!.unit, '1/s');
    assert.equal(rate.metrics.throughput!.direction, 'higher');
    assert.deepEqual(
      rate.metrics.throughput!.samples,
      raw[0]!.primaryMetric.rawData![0]!.map((v) => Number(`${v}e9`)),
    );
    const time = byId(results, `${PKG}.JoinBench.join[size=10,mode=thrpt]`);
    assert.equal(time.metrics.throughput, undefined);
    assert.equal(time.metrics.time!.unit, 's');
    assert.equal(time.metrics.time!.direction, 'lower');
    assert.deepEqual(
      time.metrics.time!.samples,
      raw[1]!.primaryMetric.rawData![0]!.map((v) => Number(`${v}e-9`)),
    );
  });

  test('secondaries keep their own unit and direction whatever the mode', () => {
    for (const file of [edited, 'jmh-1.36-thrpt-avgt-dot-prefix.json', 'jmh-1.37-all-modes-params-prof-gc.json']) {
      for (const result of parseFile(jmhAdapter, join(DIR, file))) {
        const shape = (name: string): [string, string] | undefined =>
          result.metrics[name] ? [result.metrics[name].unit, result.metrics[name].direction] : undefined;
        assert.deepEqual(shape('gc.alloc.rate'), ['B/s', 'lower'], `${file} ${result.id}`);
        assert.deepEqual(shape('gc.alloc.rate.norm'), ['B', 'lower'], `${file} ${result.id}`);
        assert.deepEqual(shape('gc.count'), ['count', 'lower'], `${file} ${result.id}`);
      }
    }
  });

  test('a secondary in operations per time is a higher-is-better rate, one in time per operation lower-is-better', () => {
    const raw = JSON.parse(readFileSync(join(DIR, 'jmh-1.36-thrpt-avgt-dot-prefix.json'), 'utf8')) as Record<string, unknown>[];
    const entry = raw[1] as { secondaryMetrics: Record<string, unknown> } & Record<string, unknown>;
    const counter = { score: 2.5, scoreError: 'NaN', scoreConfidence: [2.5, 2.5], scoreUnit: 'ops/us', rawData: [[2.5]] };
    entry.secondaryMetrics = { ...entry.secondaryMetrics, completed: counter, wait: { ...counter, scoreUnit: 'us/op' } };
    const [, result] = parseText(jmhAdapter, JSON.stringify(raw), 'aux.json');
    assert.deepEqual(result!.metrics.completed, { unit: '1/s', direction: 'higher', sourceUnit: 'ops/us', samples: [2.5e6] });
    assert.deepEqual(result!.metrics.wait, { unit: 's', direction: 'lower', sourceUnit: 'us/op', samples: [2.5e-6] });
  });

  test('a primary unit that is neither a rate of operations nor a time per operation is an error naming both', () => {
    const text = readFileSync(join(DIR, edited), 'utf8').replace('"scoreUnit" : "ops/ns"', '"scoreUnit" : "B/op"');
    const error = inputErrorOf(() => parseText(jmhAdapter, text, '/work/out/jmh.json'));
    assert.equal(error.line, text.split('\n').findIndex((l) => l.includes('"scoreUnit" : "B/op"')) + 1);
    assert.match(
      error.message,
      /operations per time \(ops\/s, ops\/ms, ops\/us, ops\/ns\) or time per operation \(s\/op, ms\/op, us\/op, ns\/op\); found "B\/op"/,
    );
  });
});

const real = readFileSync(join(DIR, 'jmh-1.37-all-modes-params-prof-gc.json'), 'utf8');
adapterContract(jmhAdapter, 'jmh', [
  { name: 'truncated', text: real.slice(0, real.length >> 1), line: true },
  { name: 'corrupt JSON', text: real.replace('"mode" : "avgt",', '"mode" : "avgt"'), line: true },
  { name: 'unknown mode', text: real.replace('"mode" : "avgt"', '"mode" : "fast"'), line: true },
  { name: 'empty array', text: '[\n]\n', line: true },
]);

describe("Swift package-benchmark's --format jmh export (hand-written from the exporter's source: no Swift here)", () => {
  const results = parseFile(jmhAdapter, join(FIXTURES, 'jmh/package-benchmark-1.32-format-jmh-handwritten.json'));

  test('the "# / s" throughput is the primary metric, higher is better; rawData are the samples', () => {
    const fib = byId(results, 'package.benchmark.Benchmarks.Fibonacci_20');
    assert.equal(fib.metrics.throughput!.unit, '1/s');
    assert.equal(fib.metrics.throughput!.direction, 'higher');
    assert.equal(fib.metrics.throughput!.samples!.length, 8);
  });

  test('secondaries keep their description as the name: μs wall clock is time (s, lower), "#" counts are counts (lower)', () => {
    const sort = byId(results, 'package.benchmark.Benchmarks.Sort_1000').metrics;
    assert.equal(sort['Time (wall clock)']!.unit, 's');
    assert.equal(sort['Time (wall clock)']!.direction, 'lower');
    assert.equal(sort['Time (wall clock)']!.samples![3], 100e-6);
    assert.equal(sort['Malloc (total)']!.unit, 'count');
    assert.equal(sort['Malloc (total)']!.direction, 'lower');
  });
});
