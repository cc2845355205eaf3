import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, ExpressionError, metricsOf, parseExpression } from '../../src/derived/expression.js';

const value = (e: string, env: Record<string, number> = {}): number => evaluate(parseExpression(e), (m) => env[m] ?? NaN);

describe('derived-metric expressions', () => {
  test('follow the usual precedence and associativity', () => {
    assert.equal(value('1 + 2 * 3'), 7);
    assert.equal(value('(1 + 2) * 3'), 9);
    assert.equal(value('8 / 4 / 2'), 1);
    assert.equal(value('10 - 4 - 3'), 3);
    assert.equal(value('-2 * -3'), 6);
    assert.equal(value('1e4 / 2.5'), 4000);
    assert.equal(value('10 − 4 × 2 ÷ 4'), 8, 'typographic operators');
  });
  test('read metric names, including dotted and underscored ones', () => {
    const env = { requests: 5000, time: 2, 'syscalls.read': 10, latency_p99: 0.5 };
    assert.equal(value('requests / time', env), 2500);
    assert.equal(value('syscalls.read * 2 + latency_p99', env), 20.5);
    assert.deepEqual(metricsOf(parseExpression('a / (b + a) * c')), ['a', 'b', 'c']);
  });
  test('never evaluate code: anything outside the grammar is rejected with its column', () => {
    for (const [text, column, message] of [
      ['10000 / ', 8, /expected a number, a metric name or "\(", found the end/],
      ['(time', 5, /expected "\)" to close the "\(" at column 1/],
      ['time time', 5, /expected an operator or the end, found "time"/],
      ['process.exit(1)', 12, /expected an operator or the end, found "\("/],
      ['time; rm -rf /', 4, /unexpected character ";"/],
      ['2 ** 3', 3, /expected a number, a metric name or "\(", found "\*"/],
    ] as const) {
      assert.throws(
        () => parseExpression(text),
        (e: unknown) => e instanceof ExpressionError && e.column === column && message.test(e.message),
        text,
      );
    }
  });
});
