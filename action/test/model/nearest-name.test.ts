import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editDistance, nearestName } from '../../src/model/index.js';

test('edit distance counts insertions, deletions and substitutions', () => {
  assert.equal(editDistance('time', 'time'), 0);
  assert.equal(editDistance('tiem', 'time'), 2);
  assert.equal(editDistance('hyperfin', 'hyperfine'), 1);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('kitten', 'sitting'), 3);
});

test('the nearest name of a typo is the one meant', () => {
  assert.equal(nearestName('tiem', ['throughput', 'time', 'memory_peak']), 'time');
  assert.equal(nearestName('memroy_peak', ['time', 'memory_peak', 'max_rss']), 'memory_peak');
  assert.equal(nearestName('hyperfin', ['gbench', 'hyperfine', 'junit']), 'hyperfine');
});

test('nothing close enough is no suggestion', () => {
  assert.equal(nearestName('zzzzzzzz', ['time', 'cycles']), undefined);
  assert.equal(nearestName('x', []), undefined);
});
