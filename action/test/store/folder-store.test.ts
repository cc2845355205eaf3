import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, newResultSet, type ResultSet } from '../../src/model/index.js';
import { folderStore, serializeResultSet, type ResultSetReader } from '../../src/store/index.js';
import { tempDir } from '../support/temp.js';

const root = tempDir();
const results = (commit: string): ResultSet => ({ ...newResultSet('2026-11-21T12:00:00Z'), commit });

/** A reader that records what it was asked for and returns a fixed set. */
function recordingReader(): ResultSetReader & { calls: string[][] } {
  const calls: string[][] = [];
  const read = ((paths: readonly string[]) => {
    calls.push([...paths]);
    return results('read');
  }) as ResultSetReader & { calls: string[][] };
  read.calls = calls;
  return read;
}

function store(dir: string, read: ResultSetReader = recordingReader()) {
  return folderStore({ dir, read, configuredIn: { file: 'perf-gate.yml', key: 'baselines' } });
}

test('a missing folder, or one holding only hidden files (an interrupted write), holds no baseline', async () => {
  assert.equal(await store(join(root, 'absent')).select({}), undefined);
  const hidden = join(root, 'hidden');
  mkdirSync(hidden);
  writeFileSync(join(hidden, '.123.tmp-abc'), '{"sch');
  assert.equal(await store(hidden).select({ commit: 'c0ffee', testbed: 'tb' }), undefined);
});

test('the folder is read as one baseline through the injected reader, whatever commit and testbed are asked for', async () => {
  const dir = join(root, 'one');
  mkdirSync(dir);
  writeFileSync(join(dir, 'results.json'), '{}');
  const read = recordingReader();
  const chosen = await store(dir, read).select({ commit: 'abc', testbed: 'other' });
  assert.equal(chosen?.results.commit, 'read');
  assert.equal(chosen?.source, dir);
  assert.deepEqual(read.calls, [[dir]]);
});

test('record writes results.json, or one file per shard, serialised like every ResultSet', async () => {
  const dir = join(root, 'recorded');
  const s = store(dir);
  const whole = await s.record(results('a'), { shard: null });
  const shard = await s.record(results('b'), { shard: { index: 2, count: 3 } });
  assert.equal(whole, join(dir, 'results.json'));
  assert.equal(shard, join(dir, 'results.shard-2-of-3.json'));
  assert.equal(readFileSync(whole, 'utf8'), serializeResultSet(results('a')));
  assert.deepEqual(readdirSync(dir).sort(), ['results.json', 'results.shard-2-of-3.json']);
});

test('a folder that cannot be created is unusable input naming the config key, before anything runs', async () => {
  const blocker = join(root, 'a-file');
  writeFileSync(blocker, 'not a folder');
  await assert.rejects(store(join(blocker, 'baselines')).checkWritable(), (error: unknown) => {
    assert.ok(error instanceof InputError);
    assert.equal(error.file, 'perf-gate.yml');
    assert.equal(error.key, 'baselines');
    assert.match(error.message, /cannot create the baselines folder/);
    return true;
  });
});
