import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dartBenchmarkHarnessAdapter as adapter } from '../../src/adapters/dart-benchmark-harness.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';

// Dart does not run here: the fixture is real output from bencher's test data (see the README).
const TWO = join(FIXTURES, 'dart-benchmark-harness/bencher-two.txt');

describe('Dart benchmark_harness adapter', () => {
  test('auto-detection picks dart-benchmark-harness', () => {
    assert.equal(chooseAdapter(fileInput(TWO, readFileSync(TWO, 'utf8'))).name, 'dart-benchmark-harness');
  });

  test('each RunTime line is one benchmark, microseconds → seconds, lower is better', () => {
    const results = parseFile(adapter, TWO);
    assert.deepEqual(
      results.map((r) => r.id),
      ['Template', 'ForLoop'],
    );
    assert.deepEqual(byId(results, 'Template').metrics, { time: { unit: 's', direction: 'lower', sourceUnit: 'us', value: 1e-6 } });
    assert.equal(byId(results, 'ForLoop').metrics.time!.value, 2e-6);
  });

  test("Dart's double forms, other lines ignored, a repeated name gives samples in order", () => {
    const text = 'Running benchmarks…\nFib(RunTime): 1234.5678 us.\nTiny(RunTime): 1e-7 us.\nFib(RunTime): 1200.25 us.\nBig(RunTime): 1.5e+3 us.\ndone\n';
    const results = parseText(adapter, text, 'mixed.txt');
    assert.deepEqual(
      results.map((r) => r.id),
      ['Fib', 'Tiny', 'Big'],
    );
    const fib = byId(results, 'Fib').metrics.time!;
    assert.equal(fib.value, undefined);
    assert.equal(fib.samples!.length, 2);
    assert.ok(Math.abs(fib.samples![0]! - 1234.5678e-6) < 1e-15 && Math.abs(fib.samples![1]! - 1200.25e-6) < 1e-15);
    assert.ok(Math.abs(byId(results, 'Tiny').metrics.time!.value! - 1e-13) < 1e-25);
    assert.equal(byId(results, 'Big').metrics.time!.value, 1.5e-3);
  });

  test('a NaN score is an error naming the line', () => {
    const e = inputErrorOf(() => parseText(adapter, 'A(RunTime): 1.0 us.\nB(RunTime): NaN us.\n', 'nan.txt'));
    assert.equal(e.line, 2);
    assert.match(e.message, /not a number/);
  });

  adapterContract(adapter, 'dart-benchmark-harness', [
    { name: 'truncated', text: 'Template(RunTime): 1.0 us.\nForLoop(RunTime): 2.', line: true },
    { name: 'no report lines', text: 'Observatory listening\nall done\n' },
  ]);
});
