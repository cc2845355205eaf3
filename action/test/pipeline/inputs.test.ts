import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, newResultSet, type ResultSet } from '../../src/model/index.js';
import { conventionalBudgets, readBaseline, readBudgets } from '../../src/pipeline/inputs.js';
import type { BaselineStore } from '../../src/store/index.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir();
const bench = (id: string) => ({ id, status: 'ok' as const, metrics: { time: { unit: 's', direction: 'lower' as const, value: 1 } } });
const stored: ResultSet = { ...newResultSet('2026-11-21T12:00:00Z', [bench('sa/x'), bench('sb/y')]), commit: 'base' };

/** A store that answers with `stored` and remembers the query. */
function fakeStore(): BaselineStore & { queries: unknown[] } {
  const queries: unknown[] = [];
  return {
    queries,
    location: 'fake',
    checkWritable: async () => undefined,
    select: async (query) => {
      queries.push(query);
      return { results: stored, source: 'fake' };
    },
    record: async () => 'fake',
  };
}

const read = { cwd: dir, created: '2026-11-21T12:00:00Z' };

test("without named paths the store chooses, asked with the run's commit and testbed", async () => {
  const store = fakeStore();
  const chosen = await readBaseline({ paths: [], store, query: { commit: 'head', testbed: 'tb' }, suites: null, read });
  assert.equal(chosen?.results, stored);
  assert.deepEqual(store.queries, [{ commit: 'head', testbed: 'tb' }]);
});

test('no paths and no store: no baseline', async () => {
  assert.equal(await readBaseline({ paths: [], store: null, query: {}, suites: null, read }), undefined);
});

test('named paths win over the store', async () => {
  writeFileSync(join(dir, 'base.json'), `${JSON.stringify(stored)}\n`);
  const store = fakeStore();
  const chosen = await readBaseline({ paths: ['base.json'], store, query: {}, suites: null, read });
  assert.deepEqual(
    chosen?.results.benchmarks.map((b) => b.id),
    ['sa/x', 'sb/y'],
  );
  assert.equal(chosen?.source, 'base.json');
  assert.equal(store.queries.length, 0);
});

test("a shard's baseline keeps only its own suites", async () => {
  const chosen = await readBaseline({ paths: [], store: fakeStore(), query: {}, suites: ['sa'], read });
  assert.deepEqual(
    chosen?.results.benchmarks.map((b) => b.id),
    ['sa/x'],
  );
});

test('a named path that does not exist blames the input that named it', async () => {
  await assert.rejects(readBaseline({ paths: ['nope.json'], input: 'the baseline input', store: null, query: {}, suites: null, read }), (error: unknown) => {
    assert.ok(error instanceof InputError);
    assert.equal(error.message, 'nope.json: no such baseline file or folder (the baseline input)');
    return true;
  });
});

test('budgets: named paths, else the fallback when it exists, else none', () => {
  mkdirSync(join(dir, 'budgets'));
  writeFileSync(join(dir, 'budgets', 'b.yml'), 'version: 1\ndefaults:\n  regression: 7%\n');
  writeFileSync(join(dir, 'other.yml'), 'version: 1\ndefaults:\n  regression: 9%\n');
  assert.equal(conventionalBudgets(dir), 'budgets');
  assert.equal(readBudgets(['other.yml'], 'budgets', dir).defaults.regression, 0.09);
  assert.equal(readBudgets(undefined, 'budgets', dir).defaults.regression, 0.07);
  assert.equal(readBudgets([], 'missing', dir).rules.length, 0);
  assert.equal(readBudgets([], undefined, dir).files.length, 0);
});
