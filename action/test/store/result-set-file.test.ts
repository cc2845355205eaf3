import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateResultSet } from '../../src/adapters/result-set.js';
import { newResultSet } from '../../src/model/index.js';
import { writeResultSet } from '../../src/store/index.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir();

test('writes a schema-valid ResultSet and leaves no temporary file behind', () => {
  const path = join(dir, 'baselines', 'main.json');
  const set = newResultSet('2026-11-21T12:00:00Z', [{ id: 'x', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [1, 2] } } }]);
  writeResultSet(path, set);
  assert.deepEqual(validateResultSet(JSON.parse(readFileSync(path, 'utf8')), path), set);
  assert.deepEqual(readdirSync(join(dir, 'baselines')), ['main.json']);
});

test('a failed write keeps the previous baseline whole', () => {
  const path = join(dir, 'ro', 'main.json');
  writeResultSet(path, newResultSet('old', []));
  const before = readFileSync(path, 'utf8');
  // Serialising fails before anything is written: the stored file must be untouched.
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  assert.throws(() => writeResultSet(path, circular as never));
  assert.equal(readFileSync(path, 'utf8'), before);
  assert.deepEqual(readdirSync(join(dir, 'ro')), ['main.json']);
});
