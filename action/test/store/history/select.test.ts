import { test } from 'node:test';
import assert from 'node:assert/strict';
import { driftWindow, earliestRelevantTime, pickBaseline, type ChainCommit, type HistoryEntry } from '../../../src/store/history/index.js';

const chain: ChainCommit[] = ['a', 'b', 'c', 'd'].map((c, i) => ({ commit: c.repeat(40), date: `2026-11-0${4 - i}T00:00:00Z` }));
const entry = (commit: string, runId: string, testbed = 'bed-a'): HistoryEntry => ({
  testbed,
  commit: commit.repeat(40),
  runId,
  created: '2026-11-05T00:00:00Z',
  file: `${testbed}/x`,
});
const start = { kind: 'merge-base' as const, commit: 'a'.repeat(40), base: 'origin/main' };

test('the start commit itself is chosen when it has a run (distance 0)', () => {
  const choice = pickBaseline({ testbed: 'bed-a', start, chain, entries: [entry('c', '2'), entry('a', '1')], maxDistance: 50 });
  assert.equal(choice.found && choice.commit, 'a'.repeat(40));
  assert.equal(choice.found && choice.distance, 0);
});

test('else the nearest first-parent ancestor with a run, with its date and distance; all its runs in run order', () => {
  const choice = pickBaseline({ testbed: 'bed-a', start, chain, entries: [entry('d', '1'), entry('c', '3'), entry('c', '2')], maxDistance: 50 });
  assert.deepEqual(choice.found && [choice.commit, choice.date, choice.distance, choice.runs.map((r) => r.runId)], [
    'c'.repeat(40),
    '2026-11-02T00:00:00Z',
    2,
    ['2', '3'],
  ]);
});

test("another testbed's runs are never chosen", () => {
  const choice = pickBaseline({ testbed: 'bed-a', start, chain, entries: [entry('a', '1', 'bed-b'), entry('d', '2')], maxDistance: 50 });
  assert.equal(choice.found && choice.commit, 'd'.repeat(40));
  const none = pickBaseline({ testbed: 'bed-a', start, chain, entries: [entry('a', '1', 'bed-b')], maxDistance: 50 });
  assert.deepEqual(none, { found: false, use: 'budgets-only', reason: 'no-run-within-distance', start, searched: 4, maxDistance: 50 });
});

test('a run further than the search distance is no baseline', () => {
  const none = pickBaseline({ testbed: 'bed-a', start, chain, entries: [entry('d', '1')], maxDistance: 2 });
  assert.deepEqual(none, { found: false, use: 'budgets-only', reason: 'no-run-within-distance', start, searched: 3, maxDistance: 2 });
});

test('no start commit: budgets only, saying why', () => {
  assert.deepEqual(pickBaseline({ testbed: 'bed-a', start: { missing: 'no-previous-tag' }, chain: [], entries: [entry('a', '1')], maxDistance: 50 }), {
    found: false,
    use: 'budgets-only',
    reason: 'no-previous-tag',
    searched: 0,
    maxDistance: 50,
  });
});

test('listing starts a day before the oldest commit within reach', () => {
  assert.equal(earliestRelevantTime(chain, 2)?.toISOString(), '2026-11-02T00:00:00.000Z');
  assert.equal(earliestRelevantTime([], 5), undefined);
});

test('the drift window: the newest runs at and before the baseline commit on the chain, oldest first, this testbed only', () => {
  const entries = [entry('a', '09'), entry('b', '05'), entry('b', '07'), entry('c', '03'), entry('d', '01'), entry('c', '04', 'bed-b'), entry('e', '08')];
  const ids = (window: number, from = 'b'): string[] => driftWindow(chain, entries, 'bed-a', from.repeat(40), window).map((e) => e.runId);
  // From b back: b's re-runs (newest first), then c, then d; a is newer than the baseline, e is not on the chain.
  assert.deepEqual(ids(3), ['03', '05', '07']);
  assert.deepEqual(ids(20), ['01', '03', '05', '07']);
  assert.deepEqual(ids(0), []);
  assert.deepEqual(ids(5, 'e'), [], 'a commit off the chain has no window');
});
