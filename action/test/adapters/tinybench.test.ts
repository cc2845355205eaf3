import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tinybenchAdapter as adapter } from '../../src/adapters/tinybench.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, byId, FIXTURES, parseFile, parseText } from './adapter-contract.js';

const TINYBENCH = pathToFileURL(new URL('../../../node_modules/tinybench/dist/index.js', import.meta.url).pathname).href;
const fixtureText = readFileSync(join(FIXTURES, 'tinybench/task-results-one-errored.json'), 'utf8');

/** A tinybench run serialising `{name, result}` per task; samples kept for one task only (they are large). */
const SCRIPT = `import { Bench } from ${JSON.stringify(TINYBENCH)};
const sum = (n) => { let s = 0; for (let i = 0; i < n; i++) s += i; return s; };
const bench = new Bench({ time: 100, iterations: 20 });
bench.add('sum 100', () => sum(100));
bench.add('sum 10000', () => sum(10000), { retainSamples: true });
bench.add('throws', () => { throw new Error('boom'); });
await bench.run();
console.log(JSON.stringify(bench.tasks.map(({ name, result }) => ({ name, result }))));
`;

describe('tinybench adapter on a real tinybench run', () => {
  const dir = tempDir();
  const out = join(dir, 'tasks.json');
  let results: BenchmarkResult[];
  let raw: { name: string; result: { latency: { mean: number; samplesCount: number; samples?: number[] }; throughput: { mean: number } } }[];

  before(() => {
    writeFileSync(join(dir, 'bench.mjs'), SCRIPT);
    writeFileSync(out, runTool(process.execPath, [join(dir, 'bench.mjs')], { timeoutMs: 60_000 }).stdout);
    raw = JSON.parse(readFileSync(out, 'utf8'));
    results = parseFile(adapter, out);
  });

  test('auto-detection picks tinybench', () => {
    assert.equal(chooseAdapter(fileInput(out, readFileSync(out, 'utf8'))).name, 'tinybench');
  });

  test('latency in milliseconds becomes time in seconds', () => {
    const r = byId(results, 'sum 100').metrics.time!;
    assert.equal(r.unit, 's');
    assert.equal(r.sourceUnit, 'ms');
    assert.equal(r.direction, 'lower');
    assert.equal(r.samples, undefined, 'no samples without retainSamples');
    assert.equal(r.summary!.n, raw[0]!.result.latency.samplesCount);
    assert.ok(Math.abs(r.summary!.mean - raw[0]!.result.latency.mean / 1000) < 1e-15);
    assert.ok(r.summary!.mean > 1e-9 && r.summary!.mean < 1e-3, `sum(100) takes ${r.summary!.mean} s`);
  });

  test('retained samples are kept, converted to seconds', () => {
    const r = byId(results, 'sum 10000').metrics.time!;
    const rawSamples = raw[1]!.result.latency.samples!;
    assert.equal(r.samples!.length, rawSamples.length);
    assert.ok(Math.abs(r.samples![0]! - rawSamples[0]! / 1000) < 1e-15);
    assert.ok(r.summary!.median! > byId(results, 'sum 100').metrics.time!.summary!.median!);
  });

  test('throughput is ops/s, higher is better, and higher for less work', () => {
    const fast = byId(results, 'sum 100').metrics.throughput!;
    const slow = byId(results, 'sum 10000').metrics.throughput!;
    assert.equal(fast.unit, '1/s');
    assert.equal(fast.direction, 'higher');
    assert.ok(fast.summary!.mean > slow.summary!.mean);
  });

  test('an errored task is failed, not dropped', () => {
    const r = byId(results, 'throws');
    assert.equal(r.status, 'failed');
    assert.deepEqual(r.metrics, {});
  });
});

describe('tinybench adapter on the committed capture and 2.x results', () => {
  test('the captured errored task is failed and the others ok', () => {
    const r = parseText(adapter, fixtureText, 'tasks.json');
    assert.deepEqual(
      r.map((x) => x.status),
      ['ok', 'ok', 'failed'],
    );
  });

  test('tinybench 2.x flat results (ms, hz) are read too', () => {
    const v2 = JSON.stringify([
      {
        name: 'old',
        result: { totalTime: 500, min: 0.01, max: 0.05, hz: 50000, period: 0.02, mean: 0.02, sd: 0.004, samples: [0.02, 0.019, 0.021], p75: 0.021 },
      },
    ]);
    const [r] = parseText(adapter, v2, 'v2.json');
    assert.deepEqual(
      r!.metrics.time!.samples!.map((s) => Math.round(s * 1e9)),
      [20000, 19000, 21000],
    );
    assert.equal(r!.metrics.throughput!.value, 50000);
    assert.equal(r!.metrics.throughput!.direction, 'higher');
  });

  adapterContract(adapter, 'tinybench', [
    { name: 'truncated', text: fixtureText.slice(0, fixtureText.length - 200), line: true },
    { name: 'corrupt', text: fixtureText.replace('"mean": 0.000047988141652271', '"mean": 0.0000479.88'), line: true },
    { name: 'no latency', text: '[{"name": "x", "result": {"state": "completed", "period": 1}}]' },
  ]);
});
