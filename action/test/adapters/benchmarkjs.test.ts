import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchmarkJsAdapter as adapter } from '../../src/adapters/benchmarkjs.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';

const BENCHMARK_JS = createRequire(import.meta.url).resolve('benchmark');
const cycleText = readFileSync(join(FIXTURES, 'benchmarkjs/cycle-lines.txt'), 'utf8');
const flatText = readFileSync(join(FIXTURES, 'benchmarkjs/flat-stats.json'), 'utf8');

/** A Benchmark.js suite printing its cycle lines and writing JSON.stringify of each benchmark's name, hz, stats and error. */
const SUITE = (jsonPath: string): string => `const Benchmark = require(${JSON.stringify(BENCHMARK_JS)});
const fs = require('node:fs');
const sum = (n) => { let s = 0; for (let i = 0; i < n; i++) s += i; return s; };
const opts = { maxTime: 0.1, minSamples: 5 };
new Benchmark.Suite()
  .add('sum 100', () => sum(100), opts)
  .add('sum 10000', () => sum(10000), opts)
  .add('throws', () => { throw new Error('boom'); }, opts)
  .on('cycle', (e) => console.log(String(e.target)))
  .on('complete', function () {
    fs.writeFileSync(${JSON.stringify(jsonPath)}, JSON.stringify(this.map((b) => ({ name: b.name, hz: b.hz, stats: b.stats, error: b.error ? { message: String(b.error.message) } : undefined }))));
  })
  .run();
`;

describe('Benchmark.js adapter on a real Benchmark.js suite', () => {
  const dir = tempDir();
  const linesPath = join(dir, 'cycle.txt');
  const jsonPath = join(dir, 'benchmarks.json');
  let fromLines: BenchmarkResult[];
  let fromJson: BenchmarkResult[];

  before(() => {
    writeFileSync(join(dir, 'suite.cjs'), SUITE(jsonPath));
    const run = runTool(process.execPath, [join(dir, 'suite.cjs')], { timeoutMs: 60_000 });
    writeFileSync(linesPath, run.stdout);
    fromLines = parseFile(adapter, linesPath);
    fromJson = parseFile(adapter, jsonPath);
  });

  test('auto-detection picks benchmarkjs for the cycle lines and the JSON', () => {
    for (const p of [linesPath, jsonPath]) assert.equal(chooseAdapter(fileInput(p, readFileSync(p, 'utf8'))).name, 'benchmarkjs');
  });

  test('cycle lines: ops/sec is throughput in 1/s, higher is better, and less work runs more often', () => {
    const small = byId(fromLines, 'sum 100').metrics.throughput!;
    const big = byId(fromLines, 'sum 10000').metrics.throughput!;
    assert.equal(small.unit, '1/s');
    assert.equal(small.direction, 'higher');
    assert.equal(small.sourceUnit, 'ops/sec');
    assert.ok(small.value! > 10 * big.value!, `sum(100) ${small.value} ops/s vs sum(10000) ${big.value} ops/s`);
    assert.ok(big.value! > 100 && big.value! < 1e8);
  });

  test('a benchmark that threw is failed, in both forms', () => {
    assert.equal(byId(fromLines, 'throws').status, 'failed');
    const json = byId(fromJson, 'throws');
    assert.equal(json.status, 'failed');
    assert.equal(json.error!.message, 'boom');
  });

  test('JSON: stats.sample (seconds per operation) are the time samples, in order', () => {
    const raw = JSON.parse(readFileSync(jsonPath, 'utf8')) as { name: string; hz: number; stats: { sample: number[] } }[];
    const r = byId(fromJson, 'sum 10000');
    assert.deepEqual(r.metrics.time!.samples, raw[1]!.stats.sample);
    assert.equal(r.metrics.time!.unit, 's');
    assert.equal(r.metrics.time!.direction, 'lower');
    assert.ok(r.metrics.time!.samples!.length >= 5);
    assert.equal(r.metrics.throughput!.value, raw[1]!.hz);
    // hz is 1 / mean time: the two metrics agree.
    const mean = r.metrics.time!.samples!.reduce((a, b) => a + b, 0) / r.metrics.time!.samples!.length;
    assert.ok(Math.abs(1 / mean / raw[1]!.hz - 1) < 0.01);
  });
});

describe('Benchmark.js adapter on the committed captures', () => {
  test('thousands separators are read and names keep their spaces', () => {
    const r = parseText(adapter, cycleText, 'cycle.txt');
    assert.equal(byId(r, 'String#indexOf').metrics.throughput!.value, 1236622708);
    const odd = parseText(adapter, 'a x b x 81.61 ops/sec \u00b12.50% (1 run sampled)\n', 'odd.txt');
    assert.equal(odd[0]!.id, 'a x b');
    assert.equal(odd[0]!.metrics.throughput!.value, 81.61);
  });

  test('the flat stats form is a time summary in seconds', () => {
    const r = byId(parseText(adapter, flatText, 'flat.json'), 'RegExp#test');
    assert.deepEqual(r.metrics.time!.summary, { n: 93, mean: 1.485267183289472e-8, stddev: 8.188400073168418e-10 });
  });

  test('log lines around the cycle lines are ignored, never failed benchmarks', () => {
    const noisy = ['> bench', 'npm WARN config: the message about nodedir', 'Results:', cycleText.trimEnd(), 'Summary: 2 benchmarks', 'Done:', ''].join('\n');
    const r = parseText(adapter, noisy, 'noisy.txt');
    assert.deepEqual(
      r.map((b) => [b.id, b.status]),
      [
        ['RegExp#test', 'ok'],
        ['String#indexOf', 'ok'],
      ],
    );
  });

  test("Benchmark.js's own error lines, wherever they are, are failed benchmarks", () => {
    // As benchmark 2.1.4 prints them: a plain Error (`name: `), an Error with own properties, a thrown "TypeError…" string.
    const withErrors = ['first throws: ', cycleText.trimEnd(), 'obj: code: E1', 'str: TypeError: x is not a function', ''].join('\n');
    const r = parseText(adapter, withErrors, 'errors.txt');
    assert.deepEqual(
      r.map((b) => [b.id, b.status, b.error?.message]),
      [
        ['first throws', 'failed', 'the benchmark threw'],
        ['RegExp#test', 'ok', undefined],
        ['String#indexOf', 'ok', undefined],
        ['obj', 'failed', 'code: E1'],
        ['str', 'failed', 'TypeError: x is not a function'],
      ],
    );
  });

  test('error-like lines without any cycle line are not Benchmark.js output', () => {
    const error = inputErrorOf(() => parseText(adapter, 'npm WARN config: the message about nodedir\nbench: \n', '/work/out/log.txt'));
    assert.equal(error.file, '/work/out/log.txt');
  });

  adapterContract(adapter, 'benchmarkjs', [
    { name: 'truncated', text: cycleText.slice(0, cycleText.indexOf('String#indexOf') + 25), line: true },
    { name: 'corrupt', text: cycleText.replace('67,327,954', '67,3x7,954'), line: true },
    { name: 'truncated JSON', text: flatText.slice(0, 200), line: true },
  ]);
});
