import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decide, DEFAULT_GATE_OPTIONS } from '../../src/gate/index.js';
import { EMPTY_BUDGETS, newResultSet, TestbedMismatchError, testbedMismatchText } from '../../src/model/index.js';
import { warningText } from '../../src/report/warning-text.js';

test('a refused testbed mismatch carries both testbed ids, and its message says what refuse does, not what flag does', () => {
  const side = (testbed: string) => ({
    ...newResultSet('2026-01-01T00:00:00Z'),
    testbed: { id: testbed },
    benchmarks: [{ id: 'a', status: 'ok' as const, metrics: { time: { unit: 's', direction: 'lower' as const, value: 1 } } }],
  });
  const base = side('tb-base');
  const cur = side('tb-cur');
  let refused: unknown;
  try {
    decide(base, cur, EMPTY_BUDGETS, { ...DEFAULT_GATE_OPTIONS, testbedMismatch: 'refuse' });
  } catch (error) {
    refused = error;
  }
  assert.ok(refused instanceof TestbedMismatchError);
  assert.deepEqual([refused.baselineTestbed, refused.currentTestbed, refused.mode], ['tb-base', 'tb-cur', 'refuse']);
  const warning = decide(base, cur, EMPTY_BUDGETS, DEFAULT_GATE_OPTIONS).warnings.find((w) => w.code === 'different-testbed')!;
  assert.equal(refused.message, testbedMismatchText({ baselineTestbed: 'tb-base', currentTestbed: 'tb-cur', mode: 'refuse' }));
  assert.match(refused.message, /the comparison is refused/);
  assert.notEqual(refused.message, warningText(warning));
});
