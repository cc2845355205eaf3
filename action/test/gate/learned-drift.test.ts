import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { decide, DEFAULT_GATE_OPTIONS, learnDrift } from '../../src/gate/index.js';
import { EMPTY_BUDGETS, newResultSet, rowKey, type BenchmarkResult, type Metric, type ResultSet } from '../../src/model/index.js';
import { reasonText } from '../../src/report/index.js';
import { testData } from '../stats/random-data.js';

const time = (m: Partial<Metric>): Record<string, Metric> => ({ time: { unit: 's', direction: 'lower', ...m } });
const run = (benchmarks: BenchmarkResult[]): ResultSet => newResultSet('2026-11-21T12:00:00Z', benchmarks);

/** `count` runs of benchmark "a": each run's level moves by `drift` (log-sd), 10 samples scatter by 0.5 %. */
function runs(seed: number, count: number, drift: number): ResultSet[] {
  const d = testData(seed);
  return Array.from({ length: count }, () =>
    run([{ id: 'a', status: 'ok', metrics: time({ samples: d.times(10, 0.01 * Math.exp(drift * d.normal()), 0.005) }) }]),
  );
}

describe('learnDrift', () => {
  test('learns each benchmark × metric from samples, summaries and single values', () => {
    const d = testData(1);
    const history = Array.from({ length: 8 }, () =>
      run([
        { id: 's', status: 'ok', metrics: time({ samples: d.times(10, 0.01 * Math.exp(0.03 * d.normal()), 0.001) }) },
        { id: 'm', status: 'ok', metrics: time({ summary: { n: 10, mean: 0.01 * Math.exp(0.03 * d.normal()), stddev: 0.0001 } }) },
        { id: 'v', status: 'ok', metrics: time({ value: 0.01 * Math.exp(0.03 * d.normal()) }) },
      ]),
    );
    const table = learnDrift(history);
    for (const id of ['s', 'm', 'v']) {
      const learned = table.get(rowKey(id, 'time'));
      assert.ok(learned, `${id} learned`);
      assert.equal(learned.runs, 8);
      assert.ok(learned.drift > 0.005 && learned.drift < 0.09, `${id}: ${learned.drift}`);
    }
  });

  test('too few runs, failed runs and exact counts teach nothing', () => {
    const few = runs(2, 4, 0.02);
    assert.equal(learnDrift(few).size, 0, 'four runs are under the default minimum of five');
    assert.equal(learnDrift(few, { minRuns: 4 }).get(rowKey('a', 'time'))?.runs, 4);
    const failed = runs(3, 6, 0.02).map((r, i) => (i < 2 ? { ...r, benchmarks: r.benchmarks.map((b) => ({ ...b, status: 'failed' as const })) } : r));
    assert.equal(learnDrift(failed).size, 0, 'four ok runs of six');
    const exact = Array.from({ length: 6 }, (_, i) =>
      run([{ id: 'c', status: 'ok', metrics: { instructions: { unit: 'count', direction: 'lower', value: 1000 + i, exact: true } } }]),
    );
    assert.equal(learnDrift(exact).size, 0);
  });
});

describe('the gate with a learned drift', () => {
  test('a quiet history narrows the interval: an A/A run is unchanged where the configured 2 % leaves it inconclusive', () => {
    const history = runs(4, 20, 0.001);
    const baseline = history[history.length - 1]!;
    const current = runs(5, 1, 0.001)[0]!;
    const configured = decide(baseline, current, EMPTY_BUDGETS);
    assert.equal(configured.rows[0]!.status, 'inconclusive');
    assert.match(reasonText(configured.rows[0]!.reason), /the configured 2% between-run drift/);
    const learned = decide(baseline, current, EMPTY_BUDGETS, { ...DEFAULT_GATE_OPTIONS, learnedDrift: learnDrift(history) });
    assert.equal(learned.rows[0]!.status, 'unchanged', reasonText(learned.rows[0]!.reason));
    assert.match(reasonText(learned.rows[0]!.reason), /±0\.\d+% between-run drift learned from 20 runs/);
  });

  test('a drifting history keeps a shift of its size from being called a regression; a slowdown beyond it still is', () => {
    const history = runs(6, 20, 0.04);
    const table = learnDrift(history);
    const baseline = run([{ id: 'a', status: 'ok', metrics: time({ samples: testData(7).times(10, 0.01, 0.005) }) }]);
    const shifted = run([{ id: 'a', status: 'ok', metrics: time({ samples: testData(8).times(10, 0.0108, 0.005) }) }]);
    const options = { ...DEFAULT_GATE_OPTIONS, learnedDrift: table };
    assert.equal(decide(baseline, shifted, EMPTY_BUDGETS).rows[0]!.status, 'regressed', 'at the configured 2 % an 8 % shift is a regression');
    assert.notEqual(decide(baseline, shifted, EMPTY_BUDGETS, options).rows[0]!.status, 'regressed');
    const slower = run([{ id: 'a', status: 'ok', metrics: time({ samples: testData(9).times(10, 0.02, 0.005) }) }]);
    assert.equal(decide(baseline, slower, EMPTY_BUDGETS, options).rows[0]!.status, 'regressed');
  });

  test('interleaved rounds ignore the learned drift: the pairing cancels it', () => {
    const d = testData(10);
    const a = d.times(12, 0.01, 0.005);
    const b = a.map((x) => x * 1.2);
    const base = { ...run([{ id: 'a', status: 'ok', metrics: time({ samples: a }) }]), design: 'interleaved' as const };
    const cur = { ...run([{ id: 'a', status: 'ok', metrics: time({ samples: b }) }]), design: 'interleaved' as const };
    const report = decide(base, cur, EMPTY_BUDGETS, { ...DEFAULT_GATE_OPTIONS, learnedDrift: new Map([[rowKey('a', 'time'), { drift: 0.5, runs: 20 }]]) });
    assert.equal(report.rows[0]!.status, 'regressed');
    assert.doesNotMatch(reasonText(report.rows[0]!.reason), /drift/);
  });
});
