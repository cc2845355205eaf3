import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { customBiggerAdapter, customSmallerAdapter, CUSTOM_JSON_HINT } from '../../src/adapters/custom-json.js';
import { ADAPTERS, fileInput, readInputs } from '../../src/adapters/index.js';
import { InputError } from '../../src/model/index.js';
import { byId, FIXTURES, fixturesOf, inputErrorOf, otherFixtures, parseFile, parseText } from './adapter-contract.js';
import { tempDir } from '../support/temp.js';

const DIR = join(FIXTURES, 'custom-json');
const SMALLER = join(DIR, 'customSmallerIsBetter_output2.json');
const SMALLER_NAMED = join(DIR, 'customSmallerIsBetter_output.txt');
const BIGGER = join(DIR, 'customBiggerIsBetter_output.json');

describe('custom-smaller / custom-bigger on github-action-benchmark test data', () => {
  test('time units become seconds; names, order and values as in the file; smaller is better', () => {
    const raw = JSON.parse(readFileSync(SMALLER, 'utf8')) as { name: string; unit: string; value: number }[];
    const results = parseFile(customSmallerAdapter, SMALLER);
    assert.deepEqual(
      results.map((r) => r.id),
      ['No instrumentation', 'Deactivated probe', 'No logging', 'Binary file'],
    );
    results.forEach((r, i) => {
      assert.equal(r.status, 'ok');
      assert.deepEqual(Object.keys(r.metrics), ['time']);
      const time = r.metrics.time!;
      assert.equal(time.unit, 's');
      assert.equal(time.direction, 'lower');
      assert.equal(time.sourceUnit, 'ns');
      assert.equal(time.samples, undefined);
      assert.ok(Math.abs(time.value! - raw[i]!.value * 1e-9) < 1e-18, `${r.id}: ${time.value}`);
    });
  });

  test('the same file read as custom-bigger is higher-is-better in every metric', () => {
    const results = parseFile(customBiggerAdapter, SMALLER);
    assert.ok(results.every((r) => r.metrics.time!.direction === 'higher'));
  });

  test('units perf-gate does not know keep their name as metric and unit; req/s is a rate', () => {
    const bigger = parseFile(customBiggerAdapter, BIGGER);
    assert.deepEqual(byId(bigger, 'My Custom Bigger Is Better Benchmark - Throughput').metrics, {
      throughput: { unit: '1/s', direction: 'higher', value: 70, sourceUnit: 'req/s' },
    });
    assert.deepEqual(byId(bigger, 'My Custom Bigger Is Better Benchmark - Free Memory').metrics, {
      Megabytes: { unit: 'Megabytes', direction: 'higher', value: 150, sourceUnit: 'Megabytes' },
    });
    const named = parseFile(customSmallerAdapter, SMALLER_NAMED);
    assert.deepEqual(byId(named, 'My Custom Smaller Is Better Benchmark - CPU Load').metrics, {
      Percent: { unit: 'Percent', direction: 'lower', value: 50, sourceUnit: 'Percent' },
    });
  });

  test('byte, millisecond and percentage units are converted', () => {
    const text = JSON.stringify([
      { name: 'rss', unit: 'bytes', value: 2048 },
      { name: 'heap', unit: 'MiB', value: 3 },
      { name: 'startup', unit: 'ms', value: 12.5, range: '± 3%' },
      { name: 'miss rate', unit: '%', value: 4 },
      { name: 'per op', unit: 'us/op', value: 7 },
    ]);
    const r = parseText(customSmallerAdapter, text, 'mixed.json');
    assert.deepEqual(byId(r, 'rss').metrics, { bytes: { unit: 'B', direction: 'lower', value: 2048, sourceUnit: 'bytes' } });
    assert.equal(byId(r, 'heap').metrics.bytes!.value, 3 * 1024 * 1024);
    assert.ok(Math.abs(byId(r, 'startup').metrics.time!.value! - 0.0125) < 1e-15);
    assert.ok(Math.abs(byId(r, 'miss rate').metrics.percent!.value! - 0.04) < 1e-15);
    assert.equal(byId(r, 'miss rate').metrics.percent!.unit, 'fraction');
    assert.ok(Math.abs(byId(r, 'per op').metrics.time!.value! - 7e-6) < 1e-18);
  });
});

describe('custom JSON is never auto-detected', () => {
  test('detect declines its own fixtures, saying which --format to give', () => {
    for (const path of fixturesOf('custom-json')) {
      for (const adapter of [customSmallerAdapter, customBiggerAdapter]) {
        const detection = adapter.detect(fileInput(path, readFileSync(path, 'utf8')));
        assert.deepEqual(detection, { match: false, reason: CUSTOM_JSON_HINT }, relative(FIXTURES, path));
      }
    }
  });

  test('no adapter claims custom JSON; the error lists the hint', () => {
    const error = inputErrorOf(() => readInputs([BIGGER], { cwd: '/', created: '2026-11-25T00:00:00Z' }));
    assert.match(error.message, /no format recognised this file/);
    assert.match(
      error.message,
      /\n {2}custom-smaller: github-action-benchmark custom JSON: its direction is not in the file; give --format custom-smaller or custom-bigger/,
    );
    for (const name of Object.keys(ADAPTERS)) assert.match(error.message, new RegExp(`\\n  ${name}: `));
  });

  test('other formats are declined with a different reason', () => {
    for (const path of otherFixtures('custom-json')) {
      const detection = customSmallerAdapter.detect(fileInput(path, readFileSync(path, 'utf8')));
      assert.equal(detection.match, false);
      if (!detection.match) assert.notEqual(detection.reason, CUSTOM_JSON_HINT, relative(FIXTURES, path));
    }
  });

  test('named with --format it is read; inside a folder under auto it is skipped with the hint', () => {
    const read = readInputs([SMALLER], { cwd: '/', created: '2026-11-25T00:00:00Z', format: 'custom-smaller' });
    assert.equal(read.files[0]!.format, 'custom-smaller');
    assert.equal(read.resultSet.benchmarks.length, 4);
    const dir = tempDir('perf-gate-custom-json-');
    mkdirSync(join(dir, 'out'));
    copyFileSync(SMALLER, join(dir, 'out', 'bench.json'));
    writeFileSync(join(dir, 'out', 'notes.txt'), 'x');
    assert.throws(
      () => readInputs(['out'], { cwd: dir, created: 'now' }),
      (e: unknown) => e instanceof InputError && e.message.includes(`bench.json (${CUSTOM_JSON_HINT})`),
    );
  });
});

describe('custom JSON that is unusable', () => {
  const real = readFileSync(SMALLER, 'utf8');
  const cases: { name: string; text: string; line: number; match: RegExp }[] = [
    { name: 'empty', text: '', line: 0, match: /empty/ },
    { name: 'truncated', text: real.slice(0, 150), line: real.slice(0, 150).trimEnd().split('\n').length, match: /truncated/ },
    { name: 'an empty array', text: '[]\n', line: 1, match: /array is empty/ },
    { name: 'an object, not an array', text: '{"name": "a", "unit": "ns", "value": 1}\n', line: 1, match: /expected a JSON array/ },
    { name: 'a string value', text: real.replace('"value": 445.661', '"value": "445.661"'), line: 11, match: /finite number in "value"/ },
    { name: 'no unit', text: real.replace('"unit": "ns",\n    "value": 1847.38', '"value": 1847.38'), line: 14, match: /"unit"/ },
    { name: 'a duplicate name', text: real.replace('"No logging"', '"Deactivated probe"'), line: 15, match: /appears twice/ },
  ];
  for (const c of cases) {
    test(`${c.name} input is an InputError naming file and line`, () => {
      const path = `/work/results/${c.name.replace(/\W+/g, '-')}.json`;
      const error = inputErrorOf(() => parseText(customSmallerAdapter, c.text, path));
      assert.equal(error.file, path);
      assert.match(error.message, c.match);
      if (c.line > 0) assert.equal(error.line, c.line, error.message);
    });
  }
});
