import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADAPTERS, readInputs } from '../../src/adapters/index.js';
import { InputError } from '../../src/model/index.js';
import { tempDir } from '../support/temp.js';

const HYPERFINE = new URL('../fixtures/hyperfine/two-commands.json', import.meta.url).pathname;
const dir = tempDir();

test('every adapter is registered under its own name', () => {
  for (const [name, adapter] of Object.entries(ADAPTERS)) assert.equal(adapter.name, name);
});

test('detects the format from content, not the file name', () => {
  copyFileSync(HYPERFINE, join(dir, 'results.txt'));
  const read = readInputs(['results.txt'], { cwd: dir, created: 'now' });
  assert.equal(read.files[0]!.format, 'hyperfine');
  assert.equal(read.resultSet.benchmarks.length, 2);
});

test('a file no format recognises lists every adapter and its reason', () => {
  writeFileSync(join(dir, 'mystery.json'), '{"hello": "world"}');
  try {
    readInputs(['mystery.json'], { cwd: dir, created: 'now' });
    assert.fail('expected an error');
  } catch (e) {
    assert.ok(e instanceof InputError);
    assert.match(e.message, /no format recognised this file; tried:/);
    for (const name of Object.keys(ADAPTERS)) assert.match(e.message, new RegExp(`\\n  ${name}: `));
  }
});

test('folders are read recursively; unrecognised files there are skipped and listed', () => {
  mkdirSync(join(dir, 'out', 'deep'), { recursive: true });
  copyFileSync(HYPERFINE, join(dir, 'out', 'deep', 'a.json'));
  writeFileSync(join(dir, 'out', 'run.log'), 'build ok\n');
  const read = readInputs(['out'], { cwd: dir, created: 'now' });
  assert.equal(read.resultSet.benchmarks.length, 2);
  assert.deepEqual(
    read.skipped.map((s) => s.reason),
    ['no format recognised it'],
  );
  mkdirSync(join(dir, 'nothing'));
  writeFileSync(join(dir, 'nothing', 'log.txt'), 'x');
  assert.throws(() => readInputs(['nothing'], { cwd: dir, created: 'now' }), /holds no benchmark results; skipped: log\.txt/);
});

test('the same benchmark id from two inputs is an error naming both', () => {
  copyFileSync(HYPERFINE, join(dir, 'b1.json'));
  copyFileSync(HYPERFINE, join(dir, 'b2.json'));
  assert.throws(
    () => readInputs(['b1.json', 'b2.json'], { cwd: dir, created: 'now' }),
    (e: unknown) => e instanceof InputError && /b2\.json/.test(e.file) && /also appears in .*b1\.json/.test(e.message),
  );
});

test('missing paths and unknown formats are clear errors', () => {
  assert.throws(() => readInputs(['nope.json'], { cwd: dir, created: 'now' }), /nope\.json: no such file or folder/);
  assert.throws(() => readInputs(['b1.json'], { cwd: dir, created: 'now', format: 'nosuch' }), /unknown format "nosuch"; expected one of auto, /);
});

test('hidden files in a folder are never read (an interrupted atomic write leaves one)', () => {
  mkdirSync(join(dir, 'baselines'));
  copyFileSync(HYPERFINE, join(dir, 'baselines', 'results.json'));
  writeFileSync(join(dir, 'baselines', '.4242.1700000000000.tmp-abc'), '{"results": [');
  assert.equal(readInputs(['baselines'], { cwd: dir, created: 'now' }).resultSet.benchmarks.length, 2);
});

test('a file named on its own that holds no benchmark is an error, not an empty run', () => {
  mkdirSync(join(dir, 'crit', 'base'), { recursive: true });
  const fixture = new URL('../fixtures/criterion/', import.meta.url).pathname;
  const estimates = readdirSync(fixture, { recursive: true })
    .map(String)
    .find((p) => p.endsWith(join('base', 'estimates.json')));
  assert.ok(estimates, 'the criterion fixtures include a base/ copy');
  assert.throws(() => readInputs([join(fixture, estimates)], { cwd: dir, created: 'now' }), /holds no benchmark of its own/);
});
