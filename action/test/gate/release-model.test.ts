import { test, describe } from 'node:test';
import { toReleaseJson } from '../../src/report/release-json.js';
import assert from 'node:assert/strict';
import { assembleRelease, budgetHeadroom } from '../../src/gate/release-model.js';
import type { ChangeRow } from '../../src/gate/change-rows.js';
import type { BudgetCheck } from '../../src/gate/types.js';
import { reportOf, row } from '../report/handwritten-reports.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

function budget(kind: 'max' | 'min', limit: number, value: number): BudgetCheck {
  return {
    kind,
    limit,
    stat: 'mean',
    value,
    result: (kind === 'max' ? value <= limit : value >= limit) ? 'pass' : 'fail',
    baselineResult: 'pass',
    severity: 'fail',
    source: 'budgets/b.yml:2',
  };
}

function change(benchmark: string, previousCommit: string, commit: string, regression: boolean, size: number): ChangeRow {
  return {
    testbed: 'vm',
    benchmark,
    metric: 'time',
    unit: 's',
    direction: 'lower',
    commit,
    runId: 'r',
    created: '2026-01-01T00:00:00Z',
    previousCommit,
    change: size,
    interval: [size - 0.01, size + 0.01],
    pValue: 1e-6,
    regression,
    stats: { meanBefore: 1, meanAfter: 1 + size, stdBefore: 0.01, stdAfter: 0.01, nBefore: 10, nAfter: 10, pValue: 1e-6 },
    runs: 20,
  };
}

describe('assembleRelease', () => {
  test("go is the gate's pass; the counts are the gate's", () => {
    const model = assembleRelease({ report: reportOf([row({ benchmark: 'x', status: 'unchanged', flags: ['noisier'] })]) });
    assert.equal(model.verdict, 'go');
    assert.equal(model.summary.noisier, 1);
    assert.equal(model.summary.changePoints, null, 'no history read');
    const failing = assembleRelease({ report: reportOf([row({ benchmark: 'x', status: 'regressed', failsGate: true })]) });
    assert.equal(failing.verdict, 'no-go');
    assert.equal(failing.summary.regressions, 1);
  });

  test('bisects slower change points, biggest first, with their commit counts; a regression the history placed is not bisected again', () => {
    const report = reportOf([
      row({ benchmark: 'p', status: 'regressed', failsGate: true }),
      row({ benchmark: 'q', status: 'regressed', failsGate: true, change: 0.2 }),
    ]);
    const model = assembleRelease({
      report,
      previous: { name: 'v1', commit: A, runs: 1 },
      candidate: { name: 'v2', commit: C, runs: 1 },
      changes: [change('p', A, B, true, 0.05), change('p', B, C, true, 0.2), change('r', A, B, false, -0.1)],
      chain: [A, 'x'.repeat(40), B, C],
      repositoryUrl: 'https://github.com/o/r',
    });
    assert.deepEqual(
      model.recommendations.bisect.map((b) => [b.benchmark, b.good, b.bad, b.commits, b.from]),
      [
        ['p', B, C, 1, 'change-point'],
        ['p', A, B, 2, 'change-point'],
        ['q', A, C, 3, 'regression'],
      ],
    );
    // The compare link is the report's to write (report/release-json.ts), from the model's repository address.
    assert.equal(
      (toReleaseJson(model).recommendations as { bisect: { compareUrl: string }[] }).bisect[0]!.compareUrl,
      `https://github.com/o/r/compare/${B}...${C}`,
    );
    assert.equal(model.summary.slowerChangePoints, 2);
  });

  test('re-measures inconclusive and noisier rows; lists budgets with less than 10 % of their limit left', () => {
    const report = reportOf([
      row({ benchmark: 'i', status: 'inconclusive', samplesNeeded: 80 }),
      row({ benchmark: 'n', status: 'unchanged', flags: ['noisier'] }),
      row({ benchmark: 'close', status: 'unchanged', budget: budget('max', 10, 9.5) }),
      row({ benchmark: 'far', status: 'unchanged', budget: budget('max', 10, 5) }),
      row({ benchmark: 'rate', status: 'unchanged', budget: budget('min', 100, 104) }),
      row({ benchmark: 'broken', status: 'unchanged', budget: budget('max', 10, 11) }),
    ]);
    const model = assembleRelease({ report });
    assert.deepEqual(
      model.recommendations.remeasure.map((r) => [r.benchmark, r.why, r.samplesNeeded]),
      [
        ['i', ['inconclusive'], 80],
        ['n', ['noisier'], null],
      ],
    );
    assert.deepEqual(
      model.recommendations.nearLimit.map((r) => [r.benchmark, Number(r.headroom.toFixed(3))]),
      [
        ['rate', 0.04],
        ['close', 0.05],
      ],
    );
  });

  test('headroom means nothing for a zero limit', () => {
    assert.equal(budgetHeadroom(budget('max', 0, 0)), null);
    assert.equal(budgetHeadroom(budget('min', 2, 3)), 0.5);
  });
});
