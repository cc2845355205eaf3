import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatBreach,
  formatChange,
  formatCiLabel,
  formatCount,
  formatLimit,
  formatP,
  formatPercent,
  formatSide,
  formatStddev,
  formatTolerance,
  rowScale,
  scaleFor,
  shortCommit,
} from '../../src/report/format.js';
import { row, side } from './handwritten-reports.js';

describe('display scale', () => {
  test('baseline and current of a row share one prefix', () => {
    const r = row({ benchmark: 'b', status: 'regressed', baseline: side(0.00095, 0.00001, 10), current: side(0.0012, 0.00002, 10) });
    const scale = rowScale(r);
    assert.equal(scale.symbol, 'µs');
    assert.equal(formatSide(r.baseline, scale), '950.0 µs ± 10.0');
    assert.equal(formatSide(r.current, scale), '1200 µs ± 20');
  });

  test('values ± stddev read like "4.46 ms ± 0.39"', () => {
    const scale = scaleFor('s', [0.00446]);
    assert.equal(formatSide(side(0.00446, 0.00039, 20), scale), '4.46 ms ± 0.39');
    assert.equal(formatStddev(side(0.00446, 0.00039, 20), scale), '0.39 ms');
  });

  test('a tiny spread keeps two significant digits instead of rounding to zero', () => {
    assert.equal(formatSide(side(5, 0.0001, 20), scaleFor('s', [5])), '5.00 s ± 0.00010');
  });

  test('exact counts are shown whole', () => {
    const r = row({ benchmark: 'b', status: 'unchanged', unit: 'count', baseline: side(1234, null, 1), current: side(1235, null, 1) });
    assert.equal(formatSide(r.current, rowScale(r)), '1235');
  });

  test('fractions are shown as percentages', () => {
    assert.equal(formatSide(side(0.031, null, 1), scaleFor('fraction', [0.031])), '3.10 %');
  });

  test('a row without values takes its budget limit scale', () => {
    const r = row({
      benchmark: 'b',
      status: 'failed',
      baseline: null,
      current: null,
      budget: { kind: 'max', limit: 0.01, stat: 'mean', value: Number.NaN, result: 'fail', baselineResult: null, severity: 'fail', source: 'b.yml:1' },
    });
    assert.equal(rowScale(r).symbol, 'ms');
  });

  test('odd data is shown, never thrown', () => {
    const scale = scaleFor('s', [Number.NaN]);
    assert.equal(formatSide(side(Number.NaN, Number.NaN, 2), scale), 'NaN ± NaN');
    assert.equal(formatSide(null, scale), '—');
    assert.equal(formatChange(Number.NaN, [Number.NaN, Number.POSITIVE_INFINITY]), 'NaN % [NaN, Infinity]');
    assert.equal(formatP(Number.NaN), 'p = NaN');
  });
});

describe('changes, p-values and counts', () => {
  test('change with its interval: "+31.2 % [+27.0, +35.5]"', () => {
    assert.equal(formatChange(0.312, [0.27, 0.355]), '+31.2 % [+27.0, +35.5]');
    assert.equal(formatChange(-0.138, [-0.16, -0.12]), '-13.8 % [-16.0, -12.0]');
    assert.equal(formatChange(0.0134, null), '+1.3 %');
    assert.equal(formatChange(null, null), '—');
  });

  test('percentages keep a sign only when the rounded value is not zero', () => {
    assert.equal(formatPercent(0), '0.0 %');
    assert.equal(formatPercent(0.0003), '+0.03 %');
    assert.equal(formatPercent(-0.00001), '-0.001 %');
    assert.equal(formatPercent(12.5), '+1250 %');
  });

  test('tolerances and confidence levels lose needless zeros', () => {
    assert.equal(formatTolerance(0.05), '5 %');
    assert.equal(formatTolerance(0.025), '2.5 %');
    assert.equal(formatCiLabel(0.95), '95% CI');
    assert.equal(formatCiLabel(0.995), '99.5% CI');
  });

  test('p-values', () => {
    assert.equal(formatP(0.00002), 'p < 0.001');
    assert.equal(formatP(0.0123), 'p = 0.012');
    assert.equal(formatP(null), '—');
  });

  test('counts get thousands separators', () => {
    assert.equal(formatCount(5000), '5,000');
    assert.equal(formatCount(1234567.5), '1,234,567.5');
    assert.equal(formatCount(12), '12');
  });

  test('budget limits read as written: "≤ 10 ms", "p95 ≤ 10 ms", "≥ 100 /s"', () => {
    const base = { value: 0, result: 'pass', baselineResult: null, severity: 'fail', source: 'x' } as const;
    assert.equal(formatLimit({ ...base, kind: 'max', limit: 0.01, stat: 'mean' }, scaleFor('s', [0.004])), '≤ 10 ms');
    assert.equal(formatLimit({ ...base, kind: 'max', limit: 0.0105, stat: 'p95' }, scaleFor('s', [0.004])), 'p95 ≤ 10.5 ms');
    assert.equal(formatLimit({ ...base, kind: 'min', limit: 100, stat: 'mean' }, scaleFor('1/s', [950])), '≥ 100 /s');
  });

  test('a broken budget shows the checked value against the limit', () => {
    const base = { result: 'fail', baselineResult: null, severity: 'fail', source: 'x' } as const;
    assert.equal(formatBreach({ ...base, kind: 'max', limit: 0.01, stat: 'mean', value: 0.0104 }, scaleFor('s', [0.0104])), 'mean 10.40 ms > 10 ms');
    assert.equal(formatBreach({ ...base, kind: 'min', limit: 100, stat: 'median', value: 80 }, scaleFor('1/s', [80])), 'median 80.00 /s < 100 /s');
  });

  test('short commits', () => {
    assert.equal(shortCommit('9fceb02d0ae598e95dc970b74767f19372d61af8'), '9fceb02');
    assert.equal(shortCommit('v1.4.0'), 'v1.4.0');
  });
});
