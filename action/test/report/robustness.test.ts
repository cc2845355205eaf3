import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { BudgetCheck, RowFlag, SideStats, VerdictRow } from '../../src/gate/types.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderJson } from '../../src/report/json.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { toAnnotations, workflowCommands } from '../../src/report/annotations.js';
import { renderHtml } from '../../src/report/html.js';
import { renderRelease } from '../../src/report/release.js';
import { reportOf } from './handwritten-reports.js';

/** Any number a buggy upstream could hand over, odd ones included. */
const number = fc.oneof(fc.double(), fc.constantFrom(0, -0, 1e-300, 1e300, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY));
const nullableNumber = fc.option(number, { nil: null });
const text = fc.string({ unit: fc.constantFrom(...'ab |<>`@#!-[]\n\r\u001b\u202e$&*_~\\'.split('')), maxLength: 20 });

const sideStats: fc.Arbitrary<SideStats | null> = fc.option(
  fc.record({ value: number, n: fc.nat(1000), mean: nullableNumber, median: nullableNumber, stddev: nullableNumber, min: nullableNumber, max: nullableNumber }),
  { nil: null },
);
const budget: fc.Arbitrary<BudgetCheck | null> = fc.option(
  fc.record({
    kind: fc.constantFrom('max' as const, 'min' as const),
    limit: number,
    stat: fc.constantFrom('mean' as const, 'median' as const, 'p95' as const, 'max' as const, 'min' as const),
    value: number,
    result: fc.constantFrom('pass' as const, 'fail' as const),
    baselineResult: fc.constantFrom('pass' as const, 'fail' as const, null),
    severity: fc.constantFrom('fail' as const, 'warn' as const),
    source: text,
  }),
  { nil: null },
);
const flags: RowFlag[] = [
  'noisier',
  'single-sample',
  'insufficient-samples',
  'different-testbed',
  'summary-only',
  'exact',
  'paired',
  'confirmed',
  'not-confirmed',
  'ignored',
];
const verdictRow: fc.Arbitrary<VerdictRow> = fc.record({
  benchmark: text,
  metric: text,
  unit: fc.oneof(fc.constantFrom('s', 'B', '1/s', 'B/s', 'count', 'fraction'), text),
  direction: fc.constantFrom('lower' as const, 'higher' as const),
  baseline: sideStats,
  current: sideStats,
  change: nullableNumber,
  ci: fc.option(fc.tuple(number, number), { nil: null }),
  ciLevel: nullableNumber,
  p: nullableNumber,
  status: fc.constantFrom(
    'regressed' as const,
    'improved' as const,
    'unchanged' as const,
    'inconclusive' as const,
    'new' as const,
    'missing' as const,
    'failed' as const,
  ),
  flags: fc.subarray(flags),
  budget,
  severity: fc.constantFrom('fail' as const, 'warn' as const),
  tolerance: number,
  samplesNeeded: fc.option(fc.nat(), { nil: null }),
  reason: text.map((t) => ({ code: 'text' as const, text: t })),
  error: fc.option(fc.record({ message: text, logTail: fc.option(text, { nil: undefined }) }), { nil: null }),
  failsGate: fc.boolean(),
});

describe('every reporter on arbitrary rows', () => {
  test('shows odd data instead of throwing, and Markdown keeps its shape and limit', () => {
    const marker = '<!-- perf-gate:sticky gate=x verdict=pass digest=0 -->';
    fc.assert(
      fc.property(fc.array(verdictRow, { maxLength: 12 }), fc.boolean(), (rows, noBaseline) => {
        const report = reportOf(rows, noBaseline ? { baseline: null } : {});
        const md = renderMarkdown(report, { marker, maxLength: 6000 });
        assert.ok(md.length <= 6000);
        assert.ok(md.endsWith(marker));
        assert.equal(md.split('<!--').length - 1, 1);
        for (const line of md.split('\n').filter((l) => l.startsWith('| '))) assert.equal(line.split('|').length - 2, 7, line);
        JSON.parse(renderJson(report));
        const terminal = renderTerminal(report, { color: false, width: 80 });
        assert.ok(!terminal.includes('\u001b'));
        const commands = workflowCommands(toAnnotations(report));
        assert.equal(commands === '' ? 0 : commands.trimEnd().split('\n').length, toAnnotations(report).length);
        assert.ok(!renderHtml(report).includes('\u001b'));
        renderRelease(report);
      }),
      { numRuns: 150, seed: 42 },
    );
  });

  test('an empty report renders in every format', () => {
    const report = reportOf([], { baseline: null });
    assert.match(renderMarkdown(report), /^### ✅ perf-gate — no benchmarks compared\n\n<sub>No baseline; current/);
    assert.match(renderTerminal(report, { color: false }), /^✓ PASS — no benchmarks compared\n$/);
    assert.deepEqual(JSON.parse(renderJson(report)).rows, []);
    assert.match(renderRelease(report), /No benchmarks were compared\./);
    assert.deepEqual(toAnnotations(report), []);
  });
});
