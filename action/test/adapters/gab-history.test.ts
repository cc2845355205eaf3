import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseGabHistory } from '../../src/adapters/gab-history.js';
import { InputError } from '../../src/model/index.js';

const file = 'data.js';
const text = readFileSync(new URL('../fixtures/github-action-benchmark/data.js', import.meta.url), 'utf8');

describe("github-action-benchmark's history (data.js / data.json)", () => {
  test('one run per commit and date, oldest first, units in base units with their direction', () => {
    const runs = parseGabHistory(text, file);
    assert.deepEqual(
      runs.map((r) => [r.commit.slice(0, 4), r.created]),
      [
        ['1111', '2025-11-10T09:00:00.000Z'],
        ['2222', '2025-11-11T09:00:00.000Z'],
        ['2222', '2025-11-11T09:01:40.000Z'],
      ],
    );
    const [first, second, load] = runs;
    const parse = first!.set.benchmarks.find((b) => b.id === 'bench_parse')!;
    assert.deepEqual(parse.metrics['time'], { unit: 's', direction: 'lower', value: 254e-9, sourceUnit: 'ns/iter' });
    assert.equal(first!.set.commit, '1'.repeat(40));
    // Two benchmark sets of the same commit and date are one run.
    assert.deepEqual(
      second!.set.benchmarks.map((b) => b.id),
      ['bench_parse', 'bench_render', 'bench.py::test_fib_10'],
    );
    assert.deepEqual(second!.set.benchmarks[2]!.metrics['throughput'], { unit: '1/s', direction: 'higher', value: 59573.9, sourceUnit: 'iter/sec' });
    // An unknown unit keeps its name; the tool says which way is better.
    assert.deepEqual(load!.set.benchmarks[0]!.metrics['Percent'], { unit: 'Percent', direction: 'higher', value: 93, sourceUnit: 'Percent' });
  });

  test('data.json (the object alone) reads the same', () => {
    const json = text.replace(/^window\.BENCHMARK_DATA = /, '');
    assert.deepEqual(parseGabHistory(json, 'data.json'), parseGabHistory(text, file));
  });

  test('unusable input names the file, the line and what was expected', () => {
    const cases: [string, RegExp, number | undefined][] = [
      [text.slice(0, 600), /ends early \(truncated\?\)/, undefined],
      [text.replace('"value": 262,', '"value": "fast",'), /expected \{ "name": string, "value": a finite number/, 38],
      [text.replace('"id": "1111111111111111111111111111111111111111"', '"id": "1111"'), /full commit id \(40 hex digits\), found "1111"/, 11],
      ['window.BENCHMARK_DATA = { "lastUpdate": 1 }', /"entries"/, 1],
      ['', /empty/, undefined],
    ];
    for (const [input, message, line] of cases) {
      assert.throws(
        () => parseGabHistory(input, file),
        (e: unknown) => e instanceof InputError && e.file === file && message.test(e.message) && (line === undefined || e.line === line),
        String(message),
      );
    }
  });
});
