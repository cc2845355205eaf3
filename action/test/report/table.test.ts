import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { COLUMNS, orderRows, outcomeOf, sectionOf, tableCells, verdictParts, verdictText, type CellHooks } from '../../src/report/table.js';
import { mixedReport, passingReport, reportOf, row } from './handwritten-reports.js';

const PLAIN: CellHooks = { escape: (t) => t, verdict: (r) => r.status, budgetMark: (r) => r };

describe('table layout', () => {
  test('rows come failed, regressed, budget, inconclusive, new/missing, improved, unchanged', () => {
    const order = orderRows(mixedReport().rows).map(sectionOf);
    assert.deepEqual(order, [
      'failed',
      'regressed',
      'regressed',
      'budget',
      'inconclusive',
      'inconclusive',
      'new-missing',
      'new-missing',
      'improved',
      'unchanged',
      'unchanged',
    ]);
  });

  test('a budget failure outranks an unchanged status', () => {
    const r = row({
      benchmark: 'b',
      status: 'unchanged',
      budget: { kind: 'max', limit: 1, stat: 'mean', value: 2, result: 'fail', baselineResult: 'pass', severity: 'warn', source: 'b.yml:1' },
    });
    assert.equal(sectionOf(r), 'budget');
  });

  test('every row has one cell per column, numbers formatted, budget with the checked value on failure', () => {
    const rows = orderRows(mixedReport().rows);
    for (const r of rows) assert.equal(tableCells(r, PLAIN).length, COLUMNS.length);
    const regressed = rows.find((r) => r.benchmark === 'scan/prtip -p 1-1000 127.0.0.1')!;
    assert.deepEqual(tableCells(regressed, PLAIN), [
      'scan/prtip -p 1-1000 127.0.0.1',
      'time',
      '4.46 ms ± 0.39',
      '5.85 ms ± 0.41',
      '+31.2 % [+27.0, +35.5]',
      '≤ 10 ms pass',
      'regressed',
    ]);
    const budget = rows.find((r) => r.metric === 'memory_peak')!;
    assert.equal(tableCells(budget, PLAIN)[5], 'mean 20.60 MB > 20 MB fail');
  });

  test('a row with another confidence level says so', () => {
    const r = row({ benchmark: 'b', status: 'unchanged', ciLevel: 0.9 });
    assert.equal(tableCells(r, PLAIN)[4], '+0.7 % [-1.2, +2.5] (90% CI)');
  });
});

describe('verdict line', () => {
  test('counts come from the report, failures first', () => {
    assert.deepEqual(verdictParts(mixedReport()), [
      '1 benchmark failed',
      '2 regressions',
      '1 budget warning',
      '2 inconclusive',
      '1 new',
      '1 missing',
      '1 improved',
      '3 unchanged',
    ]);
  });

  test('a passing report says there are no regressions', () => {
    const report = passingReport();
    assert.equal(outcomeOf(report), 'pass');
    assert.equal(verdictText(report, 'pass'), 'no regressions: 1 improved, 2 unchanged');
  });

  test('a pass after a failing run is announced as resolved; a failing run never is', () => {
    assert.equal(outcomeOf(passingReport(), true), 'resolved');
    assert.equal(outcomeOf(mixedReport(), true), 'fail');
  });

  test('warn-only regressions pass with warnings', () => {
    const report = reportOf([row({ benchmark: 'b', status: 'regressed', severity: 'warn', failsGate: false })]);
    assert.equal(outcomeOf(report), 'pass-with-warnings');
    assert.equal(verdictText(report, outcomeOf(report)), 'passes with warnings: 1 regression');
  });

  test('an empty report says nothing was compared', () => {
    assert.equal(verdictText(reportOf([]), 'pass'), 'no benchmarks compared');
  });
});
