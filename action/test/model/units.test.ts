import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatInScale, parseQuantity, pickScale } from '../../src/model/units.js';

test('parses quantities as people write them into base units', () => {
  const cases: [string, number, string][] = [
    ['10ms', 0.01, 's'],
    ['1.5s', 1.5, 's'],
    ['250 us', 250e-6, 's'],
    ['3µs', 3e-6, 's'],
    ['2min', 120, 's'],
    ['20MB', 20e6, 'B'],
    ['1.5 GiB', 1.5 * 1024 ** 3, 'B'],
    ['512KiB', 512 * 1024, 'B'],
    ['100/s', 100, '1/s'],
    ['5 ops/s', 5, '1/s'],
    ['2k/s', NaN, ''],
    ['20MB/s', 20e6, 'B/s'],
    ['5%', 0.05, 'fraction'],
    ['1000', 1000, 'count'],
  ];
  for (const [text, value, unit] of cases) {
    const q = parseQuantity(text);
    if (unit === '') {
      assert.equal(q, undefined, text);
      continue;
    }
    assert.ok(q, `${text} should parse`);
    assert.equal(q.unit, unit, text);
    assert.ok(Math.abs(q.value - value) <= Math.abs(value) * 1e-12, `${text}: ${q.value} vs ${value}`);
  }
});

test('rejects units it does not know instead of guessing', () => {
  for (const text of ['10parsecs', 'fast', '10 m/s/s', '', '%', '1e400s']) assert.equal(parseQuantity(text), undefined, text);
});

test('picks one display scale so both sides of a row share a prefix', () => {
  const scale = pickScale('s', [0.00446, 0.0051]);
  assert.equal(scale.symbol, 'ms');
  assert.equal(formatInScale(0.00446, scale), '4.46 ms');
  assert.equal(formatInScale(0.0051, scale), '5.10 ms');
  assert.equal(pickScale('B', [20e6, 31e6]).symbol, 'MB');
  assert.equal(pickScale('1/s', [1500, 800]).symbol, '/s');
});
