import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { vitestBenchAdapter as adapter } from '../../src/adapters/vitest-bench.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';

const VITEST = new URL('../../../node_modules/vitest/vitest.mjs', import.meta.url).pathname;
const FIXTURE = join(FIXTURES, 'vitest-bench/sums-one-throws.json');
const fixtureText = readFileSync(FIXTURE, 'utf8');

const BENCH = `import { bench, describe } from 'vitest';
const sum = (n: number) => { let s = 0; for (let i = 0; i < n; i++) s += i; return s; };
describe('sums', () => {
  bench('sum 100', () => { sum(100); }, { time: 100 });
  bench('sum 10000', () => { sum(10000); }, { time: 100 });
  bench('throws', () => { throw new Error('boom'); });
});
bench('top level', () => { sum(10); }, { time: 50 });
`;

interface RawBench {
  name: string;
  hz?: number;
  mean?: number;
  sd?: number;
  median?: number;
  min?: number;
  max?: number;
  sampleCount?: number;
  samples: number[];
}
interface RawReport {
  files: { filepath: string; groups: { fullName: string; benchmarks: RawBench[] }[] }[];
}

describe('vitest-bench adapter on a real vitest bench --outputJson run', () => {
  const dir = tempDir('perf-gate-vitest-');
  const out = join(dir, 'bench.json');
  let results: BenchmarkResult[];
  let raw: RawReport;
  const rawBench = (name: string): RawBench => raw.files[0]!.groups.flatMap((g) => g.benchmarks).find((b) => b.name === name)!;

  before(() => {
    writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
    writeFileSync(join(dir, 'sum.bench.ts'), BENCH);
    // A benchmark that throws still leaves vitest bench exiting 0, which is why the adapter marks it failed.
    runTool(process.execPath, [VITEST, 'bench', '--run', '--root', dir, '--outputJson', out], { cwd: dir, timeoutMs: 120_000 });
    raw = JSON.parse(readFileSync(out, 'utf8')) as RawReport;
    results = parseFile(adapter, out);
  });

  test('auto-detection picks vitest-bench', () => {
    assert.equal(chooseAdapter(fileInput(out, readFileSync(out, 'utf8'))).name, 'vitest-bench');
  });

  test("ids are the group's full name and the bench name", () => {
    assert.deepEqual(results.map((r) => r.id).sort(), [
      'sum.bench.ts > sums > sum 100',
      'sum.bench.ts > sums > sum 10000',
      'sum.bench.ts > sums > throws',
      'sum.bench.ts > top level',
    ]);
  });

  test('vitest writes no samples: time is the summary, milliseconds in seconds', () => {
    for (const name of ['sum 100', 'sum 10000', 'top level']) {
      const r = results.find((x) => x.id.endsWith(`> ${name}`))!;
      const b = rawBench(name);
      assert.deepEqual(b.samples, [], 'vitest 4 empties samples in the JSON report');
      const time = r.metrics.time!;
      assert.equal(time.unit, 's');
      assert.equal(time.sourceUnit, 'ms');
      assert.equal(time.direction, 'lower');
      assert.equal(time.exact, undefined);
      assert.equal(time.samples, undefined);
      assert.equal(time.summary!.n, b.sampleCount);
      assert.ok(time.summary!.n > 10, `${name}: ${time.summary!.n} samples`);
      for (const [key, from] of [
        ['mean', b.mean],
        ['median', b.median],
        ['min', b.min],
        ['max', b.max],
        ['stddev', b.sd],
      ] as const) {
        assert.ok(Math.abs((time.summary![key] as number) - from! / 1000) <= 1e-12 * Math.abs(from!), `${name} ${key}`);
      }
    }
  });

  test('more work takes longer; throughput is hz, higher is better', () => {
    const small = byId(results, 'sum.bench.ts > sums > sum 100');
    const big = byId(results, 'sum.bench.ts > sums > sum 10000');
    assert.ok(big.metrics.time!.summary!.median! > 10 * small.metrics.time!.summary!.median!);
    const tp = small.metrics.throughput!;
    assert.equal(tp.unit, '1/s');
    assert.equal(tp.direction, 'higher');
    assert.equal(tp.value, rawBench('sum 100').hz);
  });

  test('the benchmark that threw is failed, not dropped', () => {
    const r = byId(results, 'sum.bench.ts > sums > throws');
    assert.equal(rawBench('throws').mean, undefined);
    assert.equal(r.status, 'failed');
    assert.deepEqual(r.metrics, {});
    assert.match(r.error!.message, /no result/);
  });
});

describe('vitest-bench adapter on the committed capture', () => {
  test('the capture gives three ok benchmarks and one failed', () => {
    const results = parseFile(adapter, FIXTURE);
    assert.deepEqual(
      results.map((r) => [r.id, r.status]),
      [
        ['sum.bench.ts > top level', 'ok'],
        ['sum.bench.ts > sums > sum 100', 'ok'],
        ['sum.bench.ts > sums > sum 10000', 'ok'],
        ['sum.bench.ts > sums > throws', 'failed'],
      ],
    );
  });

  test('samples, when a file has them, are read in file order in seconds, with the summary', () => {
    const doc = JSON.parse(fixtureText) as RawReport;
    const b = doc.files[0]!.groups[1]!.benchmarks[0]!;
    b.samples = [0.002, 0.001, 0.003];
    const r = byId(parseText(adapter, JSON.stringify(doc), 'with-samples.json'), 'sum.bench.ts > sums > sum 100');
    assert.deepEqual(
      r.metrics.time!.samples!.map((s) => Math.round(s * 1e9)),
      [2000, 1000, 3000],
    );
    assert.equal(r.metrics.time!.summary!.n, b.sampleCount);
  });

  test('a sample that is not a number names its line and key', () => {
    const doc = JSON.parse(fixtureText) as RawReport;
    doc.files[0]!.groups[1]!.benchmarks[0]!.samples = [0.002, 'x' as unknown as number];
    const error = inputErrorOf(() => parseText(adapter, JSON.stringify(doc, null, 2), '/r/x.json'));
    assert.equal(error.key, 'files[0].groups[1].benchmarks[0].samples[1]');
    assert.ok(error.line! > 1);
  });

  adapterContract(adapter, 'vitest-bench', [
    { name: 'truncated', text: fixtureText.slice(0, Math.floor(fixtureText.length / 2)), line: true },
    { name: 'corrupt', text: fixtureText.replace(/"mean": ([\d.e-]+)/, '"mean": $1.5'), line: true },
    { name: 'no mean', text: fixtureText.replace(/"mean": [\d.e-]+,/, '"mean": "fast",'), line: true },
    { name: 'no benchmarks', text: '{"files": [{"filepath": "/a.bench.ts", "groups": []}]}', line: true },
  ]);
});
