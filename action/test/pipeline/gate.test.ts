import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_BUDGET_DEFAULTS, EMPTY_BUDGETS, rowKey, type Budgets } from '../../src/model/index.js';
import { parseBudgets } from '../../src/config/budgets.js';
import { InputError, newResultSet, type ResultSet } from '../../src/model/index.js';
import { gate, gateOptions } from '../../src/pipeline/gate.js';
import { warningText } from '../../src/report/index.js';
import { EXIT, verdictExit } from '../../src/pipeline/exit.js';

const on = (testbed: string, center: number): ResultSet => ({
  ...newResultSet('2026-11-21T12:00:00Z', [
    { id: 'a', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: Array.from({ length: 12 }, (_, i) => center * (1 + 0.001 * i)) } } },
  ]),
  testbed: { id: testbed },
});

test("a refused testbed mismatch is unusable input naming the baseline's flag or input", () => {
  assert.throws(
    () =>
      gate({ baseline: on('one', 1), current: on('two', 1), budgets: EMPTY_BUDGETS, options: gateOptions('refuse'), baselineInput: 'action input "baseline"' }),
    (error: unknown) => error instanceof InputError && error.file === 'action input "baseline"' && /testbed one/.test(error.message),
  );
});

test('A/B confirmations are added to the report before anyone sees it', () => {
  const confirmations = new Map([[rowKey('a', 'time'), 'confirmed' as const]]);
  const report = gate({ baseline: on('t', 1), current: on('t', 1.5), budgets: EMPTY_BUDGETS, confirmations, baselineInput: '--baseline' });
  assert.deepEqual(report.rows.find((r) => r.benchmark === 'a')!.flags.includes('confirmed'), true);
});

test('the exit status follows the verdict', () => {
  const pass = gate({ baseline: on('t', 1), current: on('t', 1), budgets: EMPTY_BUDGETS, baselineInput: '--baseline' });
  const fail = gate({ baseline: on('t', 1), current: on('t', 1.5), budgets: EMPTY_BUDGETS, baselineInput: '--baseline' });
  assert.equal(verdictExit(pass), EXIT.pass);
  assert.equal(verdictExit(fail), EXIT.fail);
});

const named = (...ids: string[]): ResultSet =>
  newResultSet(
    '2026-11-21T12:00:00Z',
    ids.map((id) => ({ id, status: 'ok' as const, metrics: { time: { unit: 's', direction: 'lower' as const, samples: [1, 1.01, 0.99] } } })),
  );

test('a baseline whose ids do not match the current run is unusable input, not a pass', () => {
  assert.throws(
    () =>
      gate({
        baseline: named('h/old-1', 'h/old-2', 'h/old-3', 'h/old-4'),
        current: named('h/new-1', 'h/new-2', 'h/new-3', 'h/new-4'),
        budgets: EMPTY_BUDGETS,
        baselineInput: '--baseline',
        baselineSource: '--baseline old.json',
        currentSource: '--current new.json',
      }),
    (error: unknown) =>
      error instanceof InputError &&
      error.file === '--baseline' &&
      /old\.json/.test(error.message) &&
      /new\.json/.test(error.message) &&
      /"h\/old-1", "h\/old-2", "h\/old-3" and 1 more/.test(error.message) &&
      /"h\/new-1", "h\/new-2", "h\/new-3" and 1 more/.test(error.message) &&
      /hyperfine -n NAME, perf-gate time or count --name NAME/.test(error.message) &&
      /name:/.test(error.message),
  );
});

test('A/B sides come from one config: their ids are not checked', () => {
  const report = gate({ baseline: named('h/old'), current: named('h/new'), budgets: EMPTY_BUDGETS, baselineInput: '--baseline', sameConfig: true });
  assert.equal(report.counts.new, 1);
});

function budgetsOf(yaml: string): Budgets {
  const parsed = parseBudgets(yaml, 'budgets/t.yml');
  return { defaults: { ...DEFAULT_BUDGET_DEFAULTS, ...parsed.defaults }, rules: parsed.rules, files: ['budgets/t.yml'] };
}

test('a typo in a budget metric is unusable input naming the file, the line of the key and the nearest name', () => {
  for (const [key, limit, meant] of [
    ['tiem', '10ms', 'time'],
    ['memroy_peak', '1MB', 'memory_peak'],
  ] as const) {
    const budgets = budgetsOf(`version: 1\nbenchmarks:\n  "*":\n    ${key}: { max: ${limit} }\n`);
    assert.throws(
      () => gate({ baseline: undefined, current: named('h/a'), budgets, baselineInput: '--baseline' }),
      (error: unknown) =>
        error instanceof InputError && error.file === 'budgets/t.yml' && error.line === 4 && error.message.includes(`did you mean \`${meant}\`?`),
      key,
    );
  }
});

test('a custom metric some benchmark reports is not a typo; a known one no matched benchmark reports is a warning', () => {
  const custom: ResultSet = newResultSet('2026-11-21T12:00:00Z', [
    { id: 'h/a', status: 'ok', metrics: { frames: { unit: '', direction: 'higher', samples: [60, 61, 59] } } },
  ]);
  const budgets = budgetsOf('version: 1\nbenchmarks:\n  "h/*":\n    frames: { min: 30 }\n    memory_peak: { max: 1MB }\n');
  const report = gate({ baseline: undefined, current: custom, budgets, baselineInput: '--baseline' });
  const warning = report.warnings.find((w) => w.code === 'unused-budget-metric');
  assert.ok(warning, JSON.stringify(report.warnings));
  assert.match(warningText(warning), /budgets\/t\.yml:5: .*memory_peak/);
  assert.equal(report.warnings.filter((w) => w.code === 'unused-budget-metric').length, 1);
});
