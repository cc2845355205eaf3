import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { renderJson } from '../../src/report/json.js';
import { mixedReport, reportOf, row, side } from './handwritten-reports.js';

describe('renderJson', () => {
  test('has the top-level verdict and one row per benchmark and metric with the docs/design.md fields', () => {
    const report = mixedReport();
    const json = JSON.parse(renderJson(report));
    assert.equal(json.verdict, 'fail');
    assert.equal(json.schema, 'perf-gate/report@1');
    assert.equal(json.rows.length, report.rows.length);
    for (const key of ['benchmark', 'metric', 'unit', 'direction', 'baseline', 'current', 'change', 'ci', 'p', 'status', 'flags', 'budget']) {
      assert.ok(key in json.rows[0], key);
    }
    const regressed = json.rows.find((r: { status: string; benchmark: string }) => r.benchmark === 'scan/prtip -p 1-1000 127.0.0.1');
    assert.deepEqual(regressed.ci, [0.27, 0.355]);
    assert.equal(regressed.budget.limit, 0.01);
    assert.equal(regressed.budget.result, 'pass');
    assert.equal(regressed.budget.source, 'budgets/scan.yml:5');
    assert.equal(json.rows.find((r: { status: string }) => r.status === 'new').baseline, null);
  });

  test('keeps rows in the gate order, not the table order', () => {
    const report = mixedReport();
    const json = JSON.parse(renderJson(report));
    assert.deepEqual(
      json.rows.map((r: { benchmark: string }) => r.benchmark),
      report.rows.map((r) => r.benchmark),
    );
  });

  test('keeps full precision', () => {
    const value = 0.1 + 0.2;
    const json = JSON.parse(renderJson(reportOf([row({ benchmark: 'b', status: 'unchanged', current: side(value, 1e-17, 3), change: 1 / 3 })])));
    assert.equal(json.rows[0].current.value, value);
    assert.equal(json.rows[0].current.stddev, 1e-17);
    assert.equal(json.rows[0].change, 1 / 3);
  });

  test('writes NaN and infinities as null instead of throwing', () => {
    const json = JSON.parse(renderJson(mixedReport()));
    const odd = json.rows.find((r: { benchmark: string }) => r.benchmark === 'odd/nan-data');
    assert.equal(odd.change, null);
    assert.deepEqual(odd.ci, [null, null]);
    assert.equal(odd.baseline.value, null);
  });

  test('does not mutate the report and ends with a newline', () => {
    const report = mixedReport();
    const before = structuredClone(report);
    const text = renderJson(report);
    assert.deepEqual(report, before);
    assert.ok(text.endsWith('}\n'));
  });
});
