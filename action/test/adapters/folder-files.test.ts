import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readInputs } from '../../src/adapters/index.js';
import { InputError } from '../../src/model/index.js';
import { tempDir } from '../support/temp.js';

const HYPERFINE = new URL('../fixtures/hyperfine/two-commands.json', import.meta.url).pathname;
const dir = tempDir('pg-folder-');

/** A folder holding one good hyperfine result plus the given files. */
function folderWith(name: string, files: Record<string, string | Buffer>): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  copyFileSync(HYPERFINE, join(folder, 'good.json'));
  for (const [file, content] of Object.entries(files)) writeFileSync(join(folder, file), content);
  return folder;
}

function inputErrorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof InputError, `expected an InputError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected an InputError, but the folder was accepted');
}

test('an empty result file in a folder is an error naming it, as it is when given directly', () => {
  const folder = folderWith('crashed', { 'crashed.json': '' });
  const inFolder = inputErrorOf(() => readInputs([folder], { cwd: dir, created: 'now' }));
  assert.equal(inFolder.file, join(folder, 'crashed.json'));
  assert.match(inFolder.message, /empty/);
  const direct = inputErrorOf(() => readInputs([join(folder, 'crashed.json')], { cwd: dir, created: 'now' }));
  assert.equal(direct.file, join(folder, 'crashed.json'));
});

test('empty harness outputs with a text results extension are errors too', () => {
  for (const name of ['bench.txt', 'run.output', 'massif.out.4242', 'junit.xml', 'perf.csv']) {
    const folder = folderWith(`empty-${name}`, { [name]: '\n' });
    assert.equal(inputErrorOf(() => readInputs([folder], { cwd: dir, created: 'now' })).file, join(folder, name));
  }
});

test('truncated or corrupt JSON in a folder is an error at the line where it breaks', () => {
  const truncated = folderWith('truncated', { 'cut.json': '{\n  "benchmarks": [\n    {"name": "a",' });
  const cut = inputErrorOf(() => readInputs([truncated], { cwd: dir, created: 'now' }));
  assert.equal(cut.file, join(truncated, 'cut.json'));
  assert.match(cut.message, /truncated/);
  assert.equal(cut.line, 3);
  const corrupt = folderWith('corrupt', { 'bad.jsonl': '{"a": 1}\n{"a": 2,,}\n{"a": 3}\n' });
  const bad = inputErrorOf(() => readInputs([corrupt], { cwd: dir, created: 'now' }));
  assert.equal(bad.file, join(corrupt, 'bad.jsonl'));
  assert.equal(bad.line, 2);
});

test('files that are clearly not results are returned as skipped, with the reason, and the results are read', () => {
  const folder = folderWith('mixed', {
    'README.md': '# How these results were made\n',
    'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
    'package.json': '{ "name": "bench", "private": true }\n',
    'build.log': '',
    'notes.txt': 'ran on the quiet machine\n',
  });
  const read = readInputs([folder], { cwd: dir, created: 'now' });
  assert.deepEqual(
    read.resultSet.benchmarks.map((b) => b.id),
    ['sleep 0.01', 'sleep 0.02'],
  );
  assert.deepEqual(read.skipped, [
    { path: join(folder, 'build.log'), reason: 'empty file' },
    { path: join(folder, 'logo.png'), reason: 'binary file' },
    { path: join(folder, 'notes.txt'), reason: 'no format recognised it' },
    { path: join(folder, 'package.json'), reason: 'valid JSON, but no format recognised it' },
    { path: join(folder, 'README.md'), reason: 'no format recognised it' },
  ]);
  assert.deepEqual(
    read.files.map((f) => f.path),
    [join(folder, 'good.json')],
  );
});
