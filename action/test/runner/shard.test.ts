import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseShard, selectShard } from '../../src/runner/shard.js';
import { InputError } from '../../src/model/index.js';

describe('shard i/n', () => {
  test('parses i/n and refuses anything else, naming the flag', () => {
    assert.deepEqual(parseShard('2/3'), { index: 2, count: 3 });
    assert.deepEqual(parseShard(' 1 / 1 '), { index: 1, count: 1 });
    for (const bad of ['0/3', '4/3', '1/0', '1', 'a/b', '1/2/3', '-1/2']) {
      assert.throws(
        () => parseShard(bad),
        (e: unknown) => e instanceof InputError && e.file === '--shard' && e.message.includes(JSON.stringify(bad)),
        bad,
      );
    }
  });

  test('round-robin by position: every suite runs on exactly one shard, shares differ by at most one', () => {
    const suites = Array.from({ length: 11 }, (_, i) => `s${i}`);
    for (const count of [1, 2, 3, 4, 11, 13]) {
      const shares = Array.from({ length: count }, (_, i) => selectShard(suites, { index: i + 1, count }));
      assert.deepEqual(shares.flat().sort(), [...suites].sort(), `n=${count}`);
      const sizes = shares.map((s) => s.length);
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `n=${count}: ${sizes.join(',')}`);
    }
    assert.deepEqual(selectShard(suites, { index: 2, count: 3 }), ['s1', 's4', 's7', 's10']);
    assert.deepEqual(selectShard(suites, null), suites);
    assert.deepEqual(selectShard(suites, { index: 2, count: 3 }), selectShard([...suites], { index: 2, count: 3 }), 'deterministic');
  });
});
