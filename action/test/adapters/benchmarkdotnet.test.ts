import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchmarkDotNetAdapter as adapter } from '../../src/adapters/benchmarkdotnet.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';

// dotnet does not run here: one real external capture (BDN 0.12.1) and one
// hand-written file following formats/README.md §8 (current System.Text.Json output).
const REAL = join(FIXTURES, 'benchmarkdotnet/bdn-0.12.1-report-full.json');
const HAND = join(FIXTURES, 'benchmarkdotnet/handwritten-full-memory-params-nan.json');
const handText = readFileSync(HAND, 'utf8');
// BenchmarkDotNet 0.9.9 (before FullName and OriginalValues), real, from bencher's test data.
const OLD = join(FIXTURES, 'benchmarkdotnet/bencher-bdn-0.9.9-brief.json');
const oldText = readFileSync(OLD, 'utf8');

describe('BenchmarkDotNet adapter', () => {
  test('auto-detection picks benchmarkdotnet for every file', () => {
    for (const p of [REAL, HAND, OLD]) assert.equal(chooseAdapter(fileInput(p, readFileSync(p, 'utf8'))).name, 'benchmarkdotnet');
  });

  test('OriginalValues (ns per operation) become samples in seconds, in order', () => {
    const raw = JSON.parse(readFileSync(REAL, 'utf8')) as {
      Benchmarks: { FullName: string; Statistics: { OriginalValues: number[]; N: number; Mean: number } }[];
    };
    const results = parseFile(adapter, REAL);
    assert.equal(results.length, raw.Benchmarks.length);
    const fib = byId(results, 'Sample.Benchmarks.Fib10');
    const time = fib.metrics.time!;
    assert.equal(time.unit, 's');
    assert.equal(time.sourceUnit, 'ns');
    assert.equal(time.direction, 'lower');
    const original = raw.Benchmarks[0]!.Statistics.OriginalValues;
    assert.equal(time.samples!.length, original.length);
    time.samples!.forEach((s, i) => assert.ok(Math.abs(s - original[i]! * 1e-9) < 1e-20));
    assert.equal(time.summary!.n, 14);
    assert.ok(Math.abs(time.summary!.mean - 24.4202085009643e-9) < 1e-18);
    assert.ok(
      time.samples!.every((s) => s > 1e-9 && s < 1e-6),
      'Fib10 takes tens of nanoseconds',
    );
  });

  test('params, non-default jobs, allocated bytes and "" for NaN', () => {
    const results = parseFile(adapter, HAND);
    const parse = byId(results, 'Sample.ParseBench.Parse(N: 10, Mode: Fast) [ShortRun]');
    assert.deepEqual(parse.params, { N: '10', Mode: 'Fast', job: 'ShortRun' });
    assert.deepEqual(parse.metrics.alloc_bytes, { unit: 'B', direction: 'lower', exact: true, sourceUnit: 'B/op', value: 240 });
    const span = byId(results, 'Sample.ParseBench.ParseSpan');
    assert.equal(span.params, undefined);
    assert.equal(span.metrics.alloc_bytes!.value, 0, 'zero allocation is a real 0, not missing');
    assert.ok(Math.abs(span.metrics.time!.summary!.stddev! - 3.18e-9) < 1e-15);
  });

  test('Statistics: null is a failed benchmark, reported not dropped', () => {
    const broken = byId(parseFile(adapter, HAND), 'Sample.ParseBench.ParseBroken');
    assert.equal(broken.status, 'failed');
    assert.match(broken.error!.message, /no statistics/);
    assert.deepEqual(broken.metrics, {});
  });

  test('a negative OriginalValue names its key', () => {
    const e = inputErrorOf(() => parseText(adapter, handText.replace('[1520.5,', '[-1520.5,'), 'neg.json'));
    assert.equal(e.key, 'Benchmarks[0].Statistics.OriginalValues[0]');
  });

  test('before 0.10 (no FullName): the id is built as FullName is later, Statistics a summary in seconds', () => {
    const results = parseFile(adapter, OLD);
    assert.deepEqual(
      results.map((r) => r.id),
      ['BenchmarkDotNet.Samples.Intro.IntroJsonExport.Sleep10', 'BenchmarkDotNet.Samples.Intro.IntroJsonExport.Sleep20'],
    );
    const time = byId(results, 'BenchmarkDotNet.Samples.Intro.IntroJsonExport.Sleep10').metrics.time!;
    assert.equal(time.samples, undefined, 'a brief export has no per-iteration values');
    assert.equal(time.summary!.n, 20);
    assert.ok(Math.abs(time.summary!.mean - 10362283.085796878e-9) < 1e-15, 'Thread.Sleep(10) takes about 10 ms');
    assert.ok(Math.abs(time.summary!.stddev! - 45702.118369205156e-9) < 1e-15);
    assert.ok(Math.abs(time.summary!.median! - 10360382.6953125e-9) < 1e-15);
    assert.equal(time.direction, 'lower');
  });

  test('before 0.10, full export: Parameters join the id, the "Result" Measurements are the samples', () => {
    const measurements = [
      { IterationMode: 'Pilot', LaunchIndex: 1, IterationIndex: 1, Operations: 1, Nanoseconds: 10400000 },
      { IterationMode: 'MainTarget', LaunchIndex: 1, IterationIndex: 1, Operations: 2, Nanoseconds: 20800000 },
      { IterationMode: 'Result', LaunchIndex: 1, IterationIndex: 1, Operations: 2, Nanoseconds: 20600000 },
      { IterationMode: 'Result', LaunchIndex: 1, IterationIndex: 2, Operations: 4, Nanoseconds: 41000000 },
    ];
    const full = oldText
      .replace('"Parameters": "",', '"Parameters": "N=10&Mode=Fast",')
      .replace('"Statistics": {', `"Measurements": ${JSON.stringify(measurements)},\n            "Statistics": {`);
    const results = parseText(adapter, full, 'old-full.json');
    const sleep10 = byId(results, 'BenchmarkDotNet.Samples.Intro.IntroJsonExport.Sleep10(N: 10, Mode: Fast)');
    assert.deepEqual(sleep10.params, { N: '10', Mode: 'Fast' });
    const samples = sleep10.metrics.time!.samples!;
    assert.equal(samples.length, 2);
    assert.ok(Math.abs(samples[0]! - 0.0103) < 1e-12 && Math.abs(samples[1]! - 0.01025) < 1e-12);
    const bad = full.replace('"Operations":4,"Nanoseconds":41000000', '"Operations":0,"Nanoseconds":41000000');
    assert.equal(inputErrorOf(() => parseText(adapter, bad, 'bad.json')).key, 'Benchmarks[0].Measurements[3]');
  });

  test('a current file without OriginalValues takes its Result workload Measurements', () => {
    // The captured 0.12.1 file keeps only its first Measurements (Jitting, Pilot), so Result ones are added here.
    const raw = JSON.parse(readFileSync(REAL, 'utf8')) as {
      Benchmarks: { Statistics: { OriginalValues?: number[] }; Measurements: Record<string, unknown>[] }[];
    };
    delete raw.Benchmarks[0]!.Statistics.OriginalValues;
    assert.ok(!raw.Benchmarks[0]!.Measurements.some((m) => m.IterationStage === 'Result'));
    assert.equal(
      byId(parseText(adapter, JSON.stringify(raw), 'a.json'), 'Sample.Benchmarks.Fib10').metrics.time!.samples,
      undefined,
      'no Result measurements: summary only',
    );
    raw.Benchmarks[0]!.Measurements.push(
      { IterationMode: 'Workload', IterationStage: 'Actual', LaunchIndex: 1, IterationIndex: 1, Operations: 1000, Nanoseconds: 26000 },
      { IterationMode: 'Workload', IterationStage: 'Result', LaunchIndex: 1, IterationIndex: 1, Operations: 1000, Nanoseconds: 24000 },
      { IterationMode: 'Overhead', IterationStage: 'Result', LaunchIndex: 1, IterationIndex: 1, Operations: 1000, Nanoseconds: 2000 },
      { IterationMode: 'Workload', IterationStage: 'Result', LaunchIndex: 1, IterationIndex: 2, Operations: 1000, Nanoseconds: 25000 },
    );
    const time = byId(parseText(adapter, JSON.stringify(raw), 'no-original.json'), 'Sample.Benchmarks.Fib10').metrics.time!;
    assert.equal(time.samples!.length, 2);
    assert.ok(Math.abs(time.samples![0]! - 24e-9) < 1e-20 && Math.abs(time.samples![1]! - 25e-9) < 1e-20);
    assert.equal(time.summary!.n, 14, 'the Statistics stay the summary');
  });

  adapterContract(adapter, 'benchmarkdotnet', [
    { name: 'truncated', text: handText.slice(0, 3000), line: true },
    { name: 'corrupt', text: handText.replace('"Mean": 1517.25,', '"Mean": 1517.25,,'), line: true },
    { name: 'no benchmarks', text: '{"HostEnvironmentInfo": {}, "Benchmarks": []}', line: true },
  ]);
});
