import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchmarkLuauAdapter as adapter } from '../../src/adapters/benchmarkluau.js';
import { chooseAdapter, fileInput } from '../../src/adapters/index.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';

// Luau does not run here: the fixture is github-action-benchmark's real bench.py output (see the README).
const OUTPUT = join(FIXTURES, 'benchmarkluau/benchmarkluau_output.txt');
const text = readFileSync(OUTPUT, 'utf8');

describe('Luau bench.py adapter', () => {
  test('auto-detection picks benchmarkluau', () => {
    assert.equal(chooseAdapter(fileInput(OUTPUT, text)).name, 'benchmarkluau');
  });

  test('each SUCCESS line is one test: its average in seconds, lower is better', () => {
    const results = parseFile(adapter, OUTPUT);
    assert.deepEqual(
      results.map((r) => r.id),
      ['base64', 'chess', 'life'],
    );
    assert.deepEqual(byId(results, 'chess').metrics, { time: { unit: 's', direction: 'lower', sourceUnit: 'ms', value: 0.06956 } });
    assert.ok(Math.abs(byId(results, 'base64').metrics.time!.value! - 0.015041) < 1e-12);
    assert.ok(Math.abs(byId(results, 'life').metrics.time!.value! - 0.085089) < 1e-12);
    assert.ok(results.every((r) => r.status === 'ok' && r.params === undefined));
  });

  test('--compare: other VMs get their own ids; FAILED lines are failed benchmarks; colours are stripped', () => {
    const compared = [
      '\x1b[32mSUCCESS\x1b[0m: fib                                      :   10.000ms +/-  1.000% on luau',
      '\x1b[32mSUCCESS\x1b[0m: fib                                      :   12.500ms +/-  2.000% on luau-new (-20.000%, likely worse)',
      '\x1b[32mSUCCESS\x1b[0m: fib                                      :    9.800ms +/-  1.500% on luau-jit ( +2.041%, likely same)',
      "\x1b[31mFAILED\x1b[0m:  '/src/bench/tests/broken.lua' on '/src/luau'",
      "\x1b[31mFAILED\x1b[0m:  'fib' on '/src/build/luau-old'",
      '',
    ].join('\n');
    const results = parseText(adapter, compared, 'compare.txt');
    assert.deepEqual(
      results.map((r) => r.id),
      ['fib', 'fib [luau-new]', 'fib [luau-jit]', 'broken', 'fib [luau-old]'],
    );
    assert.ok(Math.abs(byId(results, 'fib [luau-jit]').metrics.time!.value! - 0.0098) < 1e-12);
    assert.equal(byId(results, 'fib').metrics.time!.value, 0.01);
    assert.equal(byId(results, 'fib [luau-new]').metrics.time!.value, 0.0125);
    assert.deepEqual(byId(results, 'fib [luau-new]').params, { vm: 'luau-new' });
    assert.equal(byId(results, 'broken').status, 'failed');
    assert.match(byId(results, 'broken').error!.message, /FAILED on \/src\/luau/);
    assert.equal(byId(results, 'fib [luau-old]').status, 'failed');
  });

  test('a RESULTS table without its Total row is output cut short', () => {
    const cut = text.slice(0, text.indexOf('Total'));
    const e = inputErrorOf(() => parseText(adapter, cut, 'cut.txt'));
    assert.match(e.message, /no "Total" row/);
    assert.equal(e.line, cut.split('\n').length);
  });

  adapterContract(adapter, 'benchmarkluau', [
    { name: 'truncated', text: text.slice(0, text.indexOf('chess') + 50), line: true },
    { name: 'no result lines', text: 'building luau...\ndone\n' },
  ]);
});
