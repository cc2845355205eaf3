import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseQuantity } from '../../src/model/index.js';
import { HOSTILE_NUMBERS } from '../support/mutations.js';

/**
 * The quantity parser reads what people type into budgets (`10ms`, `20MB`,
 * `100/s`, `5%`). It answers a finite quantity or undefined (the caller
 * names its file and key), whatever the text: never Infinity from a number
 * that overflows once scaled (`1e308GB`), never NaN, never a throw.
 */
const UNITS = [
  '',
  '%',
  'ns',
  'us',
  'µs',
  'ms',
  's',
  'sec',
  'min',
  'h',
  'B',
  'KB',
  'KiB',
  'MB',
  'MiB',
  'GB',
  'GiB',
  'TB',
  '/s',
  'ops/s',
  'req/s',
  'MB/s',
  'GiB/s',
  'Mbps',
  '/ms',
  '/min',
  'ops/ms',
];

function checkQuantity(text: string): void {
  const q = parseQuantity(text);
  if (q !== undefined) assert.ok(Number.isFinite(q.value), `${JSON.stringify(text)} → ${q.value} ${q.unit}`);
}

test('arbitrary text is a finite quantity or undefined', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (s) => checkQuantity(s)),
    { numRuns: 3000, seed: 11 },
  );
});

test('a number of any size or form with any unit is a finite quantity or undefined', () => {
  const number = fc.oneof(
    fc.constantFrom(...HOSTILE_NUMBERS, '1e308', '1.7976931348623157e308', '-1e308', '1e-400', '5e-324'),
    fc.double().map(String),
    fc.integer().map(String),
  );
  fc.assert(
    fc.property(number, fc.constantFrom(...UNITS), fc.constantFrom('', ' ', '  '), (n, unit, space) => checkQuantity(`${n}${space}${unit}`)),
    { numRuns: 3000, seed: 12 },
  );
});

test('a value too large once scaled to base units is refused, not made infinite', () => {
  assert.equal(parseQuantity('1e308GB'), undefined);
  assert.equal(parseQuantity('1e308 TB/s'), undefined);
  assert.equal(parseQuantity('1e-320/ms')?.value, 1e-320 * 1000);
  assert.deepEqual(parseQuantity('1.5e3MB'), { value: 1.5e9, dimension: 'bytes', unit: 'B' });
});
