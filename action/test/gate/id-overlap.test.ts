import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idOverlap } from '../../src/gate/index.js';
import { newResultSet, type ResultSet } from '../../src/model/index.js';

const set = (...ids: string[]): ResultSet =>
  newResultSet(
    '2026-11-21T12:00:00Z',
    ids.map((id) => ({ id, status: 'ok' as const, metrics: { time: { unit: 's', direction: 'lower' as const, samples: [1, 2, 3] } } })),
  );

test('no id in common is unusable, and says which ids are on each side', () => {
  const o = idOverlap(set('h/./app-old input'), set('h/./app-new input'));
  assert.equal(o.unusable, true);
  assert.equal(o.shared, 0);
  assert.deepEqual(o.unmatchedBaseline, ['h/./app-old input']);
  assert.deepEqual(o.unmatchedCurrent, ['h/./app-new input']);
});

test('renamed benchmarks (under half shared on both sides) are unusable', () => {
  const o = idOverlap(set('s/a', 's/b', 's/c', 's/d', 's/e'), set('s/a', 't/b', 't/c', 't/d', 't/e'));
  assert.equal(o.shared, 1);
  assert.equal(o.unusable, true);
  assert.deepEqual(o.unmatchedBaseline, ['s/b', 's/c', 's/d', 's/e']);
});

test('a PR that adds many new benchmarks is usable: the baseline is still covered', () => {
  const o = idOverlap(set('s/a', 's/b'), set('s/a', 's/b', 's/c', 's/d', 's/e', 's/f', 's/g'));
  assert.equal(o.shared, 2);
  assert.equal(o.unusable, false);
});

test('a PR that drops most benchmarks is usable: what remains is all in the baseline', () => {
  assert.equal(idOverlap(set('s/a', 's/b', 's/c', 's/d', 's/e'), set('s/a')).unusable, false);
});

test('exactly half shared on one side is not "fewer than half"', () => {
  assert.equal(idOverlap(set('s/a', 's/b', 's/x', 's/y'), set('s/a', 's/b', 's/c', 's/d')).unusable, false);
});

test('an empty side is not an id mismatch (other checks handle it)', () => {
  assert.equal(idOverlap(set(), set('s/a')).unusable, false);
  assert.equal(idOverlap(set('s/a'), set()).unusable, false);
});
