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

describe('BenchmarkDotNet adapter', () => {
  test('auto-detection picks benchmarkdotnet for both files', () => {
    for (const p of [REAL, HAND]) assert.equal(chooseAdapter(fileInput(p, readFileSync(p, 'utf8'))).name, 'benchmarkdotnet');
  });

  test('OriginalValues (ns per operation) become samples in seconds, in order', () => {
    const raw = JSON.parse(readFileSync(REAL, 'utf8')) as { Benchmarks: { FullName: string; Statistics: { OriginalValues: number[]; N: number; Mean: number } }[] };
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
    assert.ok(time.samples!.every((s) => s > 1e-9 && s < 1e-6), 'Fib10 takes tens of nanoseconds');
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

  adapterContract(adapter, 'benchmarkdotnet', [
    { name: 'truncated', text: handText.slice(0, 3000), line: true },
    { name: 'corrupt', text: handText.replace('"Mean": 1517.25,', '"Mean": 1517.25,,'), line: true },
    { name: 'no benchmarks', text: '{"HostEnvironmentInfo": {}, "Benchmarks": []}', line: true },
  ]);
});
