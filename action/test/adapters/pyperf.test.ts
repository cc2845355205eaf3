import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pyperfAdapter as adapter } from '../../src/adapters/pyperf.js';
import { chooseAdapter, fileInput, readInputs } from '../../src/adapters/index.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';
import { requirePython } from '../support/tools.js';

const fixture = (name: string): string => join(FIXTURES, 'pyperf', name);
const currentText = readFileSync(fixture('pyperf-2.11-bench-func-timeit.json'), 'utf8');

/** What pyperf itself says of a file: each benchmark's number of values (`pyperf stats`), and its mean and median (pyperf's API, the numbers `stats` prints rounded). */
function pyperfSummary(path: string): Record<string, { values: number; mean: number; median: number }> {
  const stats = runTool('python3', ['-m', 'pyperf', 'stats', path]).stdout;
  const counts = [...stats.matchAll(/^(\S+)\n-+\n[\s\S]*?^Total number of values: (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])] as const);
  const api = runTool('python3', [
    '-c',
    'import json, sys, pyperf; s = pyperf.BenchmarkSuite.load(sys.argv[1]); print(json.dumps({b.get_name(): [b.mean(), b.median()] for b in s}))',
    path,
  ]).stdout;
  const means = JSON.parse(api) as Record<string, [number, number]>;
  const out: Record<string, { values: number; mean: number; median: number }> = {};
  for (const [name, values] of counts) out[name] = { values, mean: means[name]![0], median: means[name]![1] };
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

describe('pyperf adapter, checked against pyperf itself', () => {
  requirePython('pyperf');

  for (const name of ['pyperf-2.11-bench-func-timeit.json', 'pyperf-1.7.1-bench-func-timeit.json', 'pyperf-2.11-track-memory.json', 'compare/aa-1.json']) {
    test(`${name}: every value, in order, with the count, mean and median pyperf stats gives`, () => {
      const results = parseFile(adapter, fixture(name));
      const reference = pyperfSummary(fixture(name));
      assert.deepEqual(results.map((r) => r.id).sort(), Object.keys(reference).sort());
      for (const r of results) {
        const metric = r.metrics.time ?? r.metrics.memory_peak!;
        const samples = metric.samples!;
        const ref = reference[r.id]!;
        assert.equal(samples.length, ref.values, r.id);
        const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
        assert.ok(Math.abs(mean - ref.mean) / ref.mean < 1e-12, `${r.id}: mean ${mean} vs pyperf ${ref.mean}`);
        assert.ok(Math.abs(median(samples) - ref.median) / ref.median < 1e-12, `${r.id}: median vs pyperf ${ref.median}`);
        assert.equal(metric.direction, 'lower');
      }
    });
  }

  test('seconds are time (s), --track-memory bytes are memory_peak (B)', () => {
    assert.equal(byId(parseFile(adapter, fixture('pyperf-2.11-bench-func-timeit.json')), 'fib_15').metrics.time!.unit, 's');
    const memory = byId(parseFile(adapter, fixture('pyperf-2.11-track-memory.json')), 'fib_15').metrics.memory_peak!;
    assert.equal(memory.unit, 'B');
    assert.ok(memory.samples!.every((v) => v > 1e6));
  });

  test("pyperf's loops, warmups and values per run, and the runs, are the benchmark's params", () => {
    const fib = byId(parseFile(adapter, fixture('pyperf-2.11-bench-func-timeit.json')), 'fib_15');
    // The calibration run (warmups only) is not counted.
    assert.deepEqual(fib.params, { runs: '10', loops: '256', warmups: '1', values: '2' });
  });

  test('auto-detection picks pyperf for current and 1.x files', () => {
    for (const name of ['pyperf-2.11-bench-func-timeit.json', 'pyperf-1.7.1-bench-func-timeit.json']) {
      assert.equal(chooseAdapter(fileInput(name, readFileSync(fixture(name), 'utf8'))).name, 'pyperf');
    }
  });
});

describe("pyperf's machine metadata is the testbed of results given as files", () => {
  const dir = tempDir();

  test('the CPU, its count and the kernel from platform; ASLR and the tuning from cpu_config', () => {
    const read = readInputs([fixture('pyperf-2.11-bench-func-timeit.json')], { cwd: dir, created: 'now' });
    const testbed = read.resultSet.testbed!;
    assert.match(testbed.id, /^pyperf-[0-9a-f]{12}$/);
    assert.equal(testbed.cpu, 'AMD EPYC');
    assert.equal(testbed.cores, 2);
    assert.equal(testbed.arch, 'x86_64');
    assert.equal(testbed.kernel, '6.18.44-fc-v657');
    assert.equal(testbed.governor, null);
    assert.equal(testbed.aslr, 'Full randomization');
  });

  test('`pyperf system tune` (governor performance, turbo off, isolated CPUs) is another testbed; the kernel alone is not', () => {
    const data = JSON.parse(currentText) as { metadata: Record<string, unknown> };
    data.metadata.cpu_config = '0-1=driver:intel_pstate, intel_pstate:no turbo, governor:performance, isolated; idle:intel_idle';
    writeFileSync(join(dir, 'tuned.json'), JSON.stringify(data));
    data.metadata.cpu_config = 'idle:haltpoll';
    data.metadata.platform = 'Linux-6.19.1-x86_64-with-glibc2.36';
    writeFileSync(join(dir, 'new-kernel.json'), JSON.stringify(data));
    const plain = readInputs([fixture('pyperf-2.11-bench-func-timeit.json')], { cwd: dir, created: 'now' }).resultSet.testbed!;
    const tuned = readInputs(['tuned.json'], { cwd: dir, created: 'now' }).resultSet.testbed!;
    const kernel = readInputs(['new-kernel.json'], { cwd: dir, created: 'now' }).resultSet.testbed!;
    assert.notEqual(tuned.id, plain.id);
    assert.equal(tuned.governor, 'performance');
    assert.equal(tuned.turbo, false);
    assert.equal(tuned.isolatedCpus, true);
    assert.equal(kernel.id, plain.id);
    assert.equal(kernel.kernel, '6.19.1');
  });

  test('files from two machines give no testbed: a ResultSet has one', () => {
    const other = JSON.parse(readFileSync(fixture('pyperf-2.11-track-memory.json'), 'utf8')) as { metadata: Record<string, unknown> };
    other.metadata.cpu_model_name = 'Intel Xeon';
    writeFileSync(join(dir, 'xeon.json'), JSON.stringify(other));
    const read = readInputs([fixture('compare/aa-1.json'), 'xeon.json'], { cwd: dir, created: 'now' });
    assert.equal(read.resultSet.testbed, undefined);
  });
});

describe('pyperf adapter on broken files', () => {
  test('file format version 5 (perf 0.8) is refused with the command that converts it', () => {
    const error = inputErrorOf(() => parseText(adapter, currentText.replace('"version":"1.0"', '"version":5'), 'old.json'));
    assert.match(error.message, /pyperf convert/);
    assert.ok(error.line !== undefined);
  });

  test('a benchmark with calibration runs only did not finish', () => {
    const data = JSON.parse(currentText) as { benchmarks: { runs: { values?: unknown }[] }[] };
    for (const run of data.benchmarks[0]!.runs) delete run.values;
    assert.match(inputErrorOf(() => parseText(adapter, JSON.stringify(data, null, 1), 'cal.json')).message, /no run with values/);
  });

  adapterContract(adapter, 'pyperf', [
    { name: 'truncated', text: currentText.slice(0, 2000), line: true },
    { name: 'corrupt', text: currentText.replace(/"values":\[([\d.e-]+)/, '"values":["fast"'), line: true },
    { name: 'nameless', text: currentText.replace('"name":"fib_15"', '"nom":"fib_15"'), line: true },
    { name: 'unknown unit', text: currentText.replace('"unit":"second"', '"unit":"parsec"'), line: true },
  ]);
});
