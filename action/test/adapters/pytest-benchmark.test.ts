import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pytestBenchmarkAdapter as adapter } from '../../src/adapters/pytest-benchmark.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';
import { requirePython } from '../support/tools.js';

requirePython('pytest', 'pytest_benchmark');

const FIXTURE = join(FIXTURES, 'pytest-benchmark/pedantic-six-rounds.json');
const fixtureText = readFileSync(FIXTURE, 'utf8');

const TESTS = `import pytest

def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

def test_fib10(benchmark):
    assert benchmark(fib, 10) == 55

@pytest.mark.parametrize("n", [5, 15])
def test_fib_param(benchmark, n):
    benchmark(fib, n)
`;

describe('pytest-benchmark adapter on real pytest --benchmark-json output', () => {
  const dir = tempDir();
  const out = join(dir, 'bench.json');
  let results: BenchmarkResult[];
  let raw: { benchmarks: { fullname: string; stats: { data: number[]; rounds: number; mean: number } }[] };

  before(() => {
    writeFileSync(join(dir, 'test_bench.py'), TESTS);
    runTool(
      'python3',
      ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--benchmark-min-rounds=8', '--benchmark-max-time=0.05', `--benchmark-json=${out}`, 'test_bench.py'],
      { cwd: dir, timeoutMs: 120_000 },
    );
    raw = JSON.parse(readFileSync(out, 'utf8'));
    results = parseFile(adapter, out);
  });

  test('auto-detection picks pytest-benchmark', () => {
    assert.equal(chooseAdapter(fileInput(out, readFileSync(out, 'utf8'))).name, 'pytest-benchmark');
  });

  test('fullname is the id, data are the samples in seconds, stats the summary', () => {
    assert.deepEqual(results.map((r) => r.id).sort(), ['test_bench.py::test_fib10', 'test_bench.py::test_fib_param[15]', 'test_bench.py::test_fib_param[5]']);
    for (const r of results) {
      const rawBench = raw.benchmarks.find((b) => b.fullname === r.id)!;
      const time = r.metrics.time!;
      assert.equal(time.unit, 's');
      assert.equal(time.direction, 'lower');
      assert.equal(time.exact, undefined);
      assert.deepEqual(time.samples, rawBench.stats.data);
      assert.equal(time.summary!.n, rawBench.stats.rounds);
      assert.ok(time.samples!.length >= 8, 'min rounds is 8');
      assert.ok(
        time.samples!.every((s) => s > 1e-8 && s < 1),
        'fib(15) in Python takes between 10 ns and 1 s',
      );
    }
  });

  test('parametrize values become params, and more work takes longer', () => {
    const small = byId(results, 'test_bench.py::test_fib_param[5]');
    const big = byId(results, 'test_bench.py::test_fib_param[15]');
    assert.deepEqual(small.params, { n: '5' });
    assert.ok(big.metrics.time!.summary!.median! > 10 * small.metrics.time!.summary!.median!, 'fib(15) makes ~100x the calls of fib(5)');
  });
});

describe('pytest-benchmark adapter on the committed capture', () => {
  test('a benchmark without data falls back to the stats summary', () => {
    const doc = JSON.parse(fixtureText) as { benchmarks: { stats: Record<string, unknown> }[] };
    for (const b of doc.benchmarks) delete b.stats.data;
    const [r] = parseText(adapter, JSON.stringify(doc), 'saved.json');
    assert.equal(r!.metrics.time!.samples, undefined);
    assert.equal(r!.metrics.time!.summary!.n, 6);
    assert.ok(Math.abs(r!.metrics.time!.summary!.mean - 9.185299998648588e-6) < 1e-15);
  });

  test('an empty benchmarks list is an error, not "nothing regressed"', () => {
    const e = inputErrorOf(() => parseText(adapter, '{"machine_info": {}, "benchmarks": []}', 'none.json'));
    assert.match(e.message, /empty/);
  });

  test('a non-numeric sample names the benchmark key', () => {
    const e = inputErrorOf(() => parseText(adapter, fixtureText.replace('8.959100000538456e-06', '"fast"'), 'bad.json'));
    assert.equal(e.key, 'benchmarks[0].stats.data[0]');
    assert.ok(e.line! > 1);
  });

  adapterContract(adapter, 'pytest-benchmark', [
    { name: 'truncated', text: fixtureText.slice(0, Math.floor(fixtureText.length / 2)), line: true },
    { name: 'corrupt', text: fixtureText.replace('"stats": {', '"stats": {{'), line: true },
    { name: 'stats-less', text: '{"machine_info": {}, "benchmarks": [{"name": "t", "fullname": "f::t", "stats": {"rounds": 0}}]}' },
  ]);
});
