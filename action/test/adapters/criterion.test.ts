import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { criterionAdapter } from '../../src/adapters/criterion.js';
import { fileInput, readInputs } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile } from './adapter-contract.js';
import { EXAMPLES, factorBeyondSpread, gateRow, runHarness } from '../support/compiled-harnesses.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('cargo');

const TREE = join(FIXTURES, 'criterion/target-criterion');
const IDS = ['make_input_100', 'sum/bytes/100', 'sum/bytes/1000', 'sum/split/100', 'sum/split/1000'];

function readTree(path: string): BenchmarkResult[] {
  return readInputs([path], { cwd: '/', created: '2026-11-21T12:00:00Z' }).resultSet.benchmarks;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** Bytes of make_input(n) in the example crate: "0,1,…,n-1". */
function inputBytes(n: number): number {
  return Array.from({ length: n }, (_, i) => String(i)).join(',').length;
}

describe('criterion adapter on a real cargo bench run', () => {
  const home = tempDir('perf-gate-criterion-');
  let results: BenchmarkResult[];
  before(() => {
    runHarness(
      'cargo',
      ['bench', '--quiet', '--bench', 'parse', '--', '--warm-up-time', '0.05', '--measurement-time', '0.1', '--sample-size', '10', '--noplot'],
      {
        cwd: EXAMPLES.rustCriterion,
        env: { CRITERION_HOME: home },
        timeoutMs: 170_000,
      },
    );
    results = readTree(home);
  });

  test('each benchmark is read once, from new/, with full_id as its id', () => {
    assert.deepEqual(results.map((r) => r.id).sort(), IDS);
    assert.deepEqual(byId(results, 'sum/split/100').params, { value: '100' });
    assert.equal(byId(results, 'make_input_100').params, undefined);
  });

  test('samples are times[i] / iters[i] in seconds, in sample order, lower is better', () => {
    for (const id of IDS) {
      const raw = JSON.parse(readFileSync(join(home, id, 'new/sample.json'), 'utf8')) as { iters: number[]; times: number[] };
      const time = byId(results, id).metrics.time!;
      assert.equal(time.unit, 's');
      assert.equal(time.direction, 'lower');
      assert.equal(time.sourceUnit, 'ns');
      assert.equal(time.samples!.length, 10);
      time.samples!.forEach((s, i) => assert.ok(Math.abs(s - (raw.times[i]! / raw.iters[i]!) * 1e-9) < 1e-18));
      // Summing a few hundred bytes takes between a nanosecond and a millisecond per iteration.
      assert.ok(
        time.samples!.every((s) => s > 1e-9 && s < 1e-3),
        `${id}: ${time.samples!.join(', ')}`,
      );
      const estimates = JSON.parse(readFileSync(join(home, id, 'new/estimates.json'), 'utf8')) as { mean: { point_estimate: number } };
      assert.ok(Math.abs(time.summary!.mean - estimates.mean.point_estimate * 1e-9) < 1e-18);
      assert.equal(time.summary!.n, 10);
    }
  });

  test('the byte scanner beats split-and-parse on 1000 numbers, as the code says it should', () => {
    // The fastest sample of each: the least disturbed by other load on this shared machine.
    const bytes = Math.min(...byId(results, 'sum/bytes/1000').metrics.time!.samples!);
    const split = Math.min(...byId(results, 'sum/split/1000').metrics.time!.samples!);
    assert.ok(bytes < split, `bytes ${bytes} s vs split ${split} s`);
  });

  test('Throughput::Bytes becomes bytes_per_second in B/s, higher is better, consistent with time', () => {
    for (const [id, n] of [
      ['sum/bytes/100', 100],
      ['sum/split/1000', 1000],
    ] as const) {
      const b = byId(results, id);
      const thrpt = b.metrics.bytes_per_second!;
      assert.equal(thrpt.unit, 'B/s');
      assert.equal(thrpt.direction, 'higher');
      assert.equal(thrpt.samples!.length, 10);
      thrpt.samples!.forEach((rate, i) => assert.ok(Math.abs(rate * b.metrics.time!.samples![i]! - inputBytes(n)) < 1e-6));
    }
    assert.equal(byId(results, 'make_input_100').metrics.bytes_per_second, undefined);
  });

  test('a run faster beyond its whole spread is improved in time and throughput, never regressed', () => {
    // The test checks the direction, and this shared 2-core machine makes 10 criterion samples noisy (CV up to 50 %).
    const base = byId(results, 'sum/bytes/1000');
    const factor = factorBeyondSpread(base.metrics.time!.samples!);
    const faster = tempDir('perf-gate-criterion-faster-');
    cpSync(home, faster, { recursive: true });
    const file = join(faster, 'sum/bytes/1000/new/sample.json');
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { iters: number[]; times: number[] };
    writeFileSync(file, JSON.stringify({ ...raw, times: raw.times.map((t) => t / factor) }));
    const cur = byId(readTree(faster), 'sum/bytes/1000');
    assert.ok(median(cur.metrics.bytes_per_second!.samples!) > median(base.metrics.bytes_per_second!.samples!) * 0.99 * factor);
    assert.equal(gateRow(base, cur, 'bytes_per_second').status, 'improved');
    assert.equal(gateRow(base, cur, 'time').status, 'improved');
    assert.equal(gateRow(cur, base, 'bytes_per_second').status, 'regressed');
  });
});

describe('criterion adapter on the committed target/criterion tree', () => {
  test('new/ yields the benchmarks; base/, change/, benchmark.json, sample.json and tukey.json yield nothing', () => {
    const all = readInputs([TREE], { cwd: '/', created: '2026-11-21T12:00:00Z' });
    assert.deepEqual(all.resultSet.benchmarks.map((r) => r.id).sort(), IDS);
    assert.equal(all.skipped.length, 0);
    for (const part of ['base/estimates.json', 'base/benchmark.json', 'change/estimates.json', 'new/benchmark.json', 'new/sample.json', 'new/tukey.json']) {
      assert.deepEqual(parseFile(criterionAdapter, join(TREE, 'sum/split/100', part)), [], part);
    }
    assert.equal(parseFile(criterionAdapter, join(TREE, 'sum/split/100/new/estimates.json')).length, 1);
  });

  test('the legacy criterion 0.2 files (capitalised keys) are recognised; a change file yields nothing', () => {
    const legacy = join(FIXTURES, 'criterion/legacy-0.2-external/Fibonacci/Iterative');
    assert.deepEqual(parseFile(criterionAdapter, join(legacy, 'change/estimates.json')), []);
    assert.deepEqual(criterionAdapter.detect(fileInput(join(legacy, 'new/benchmark.json'), readFileSync(join(legacy, 'new/benchmark.json'), 'utf8'))), {
      match: true,
    });
  });
});

describe('criterion adapter on unusable input', () => {
  const dir = tempDir('perf-gate-criterion-bad-');
  const copy = (): string => {
    const target = join(dir, `t${Math.random().toString(36).slice(2)}`);
    cpSync(join(TREE, 'sum/bytes/100'), target, { recursive: true });
    return target;
  };

  test('a truncated estimates.json names the file and line', () => {
    const target = copy();
    const file = join(target, 'new/estimates.json');
    const text = readFileSync(file, 'utf8');
    const error = inputErrorOf(() => criterionAdapter.parse(fileInput(file, text.slice(0, text.length >> 1))));
    assert.equal(error.file, file);
    assert.equal(error.line, 1);
    assert.match(error.message, /truncated|ends early/);
  });

  test('a truncated sample.json beside it is an error naming sample.json', () => {
    const target = copy();
    const sample = join(target, 'new/sample.json');
    writeFileSync(sample, readFileSync(sample, 'utf8').slice(0, 60));
    const file = join(target, 'new/estimates.json');
    const error = inputErrorOf(() => parseFile(criterionAdapter, file));
    assert.equal(error.file, sample);
  });

  test('sample.json with mismatched iters and times is corrupt', () => {
    const target = copy();
    const sample = join(target, 'new/sample.json');
    const raw = JSON.parse(readFileSync(sample, 'utf8')) as { iters: number[]; times: number[] };
    writeFileSync(sample, JSON.stringify({ ...raw, times: raw.times.slice(1) }));
    const error = inputErrorOf(() => parseFile(criterionAdapter, join(target, 'new/estimates.json')));
    assert.equal(error.file, sample);
    assert.match(error.message, /same, non-zero length/);
  });

  test('a missing benchmark.json is an error, never a name guessed from the folder', () => {
    const target = copy();
    rmSync(join(target, 'new/benchmark.json'));
    const file = join(target, 'new/estimates.json');
    const error = inputErrorOf(() => parseFile(criterionAdapter, file));
    assert.equal(error.file, file);
    assert.match(error.message, /benchmark\.json/);
  });

  test('a corrupt estimates.json (not JSON) names the file', () => {
    const file = join(copy(), 'new/estimates.json');
    const error = inputErrorOf(() => criterionAdapter.parse(fileInput(file, '{"mean":{"point_estimate": 12,,}}')));
    assert.equal(error.file, file);
    assert.equal(error.line, 1);
  });
});

adapterContract(criterionAdapter, 'criterion', []);
