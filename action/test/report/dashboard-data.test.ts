import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChangeRow } from '../../src/gate/change-rows.js';
import { newResultSet, type ResultSet } from '../../src/model/index.js';
import { dashboardModel, spreadOf, type DashboardInput } from '../../src/report/dashboard-data.js';
import { dashboardDataScript, renderDashboardHtml } from '../../src/report/dashboard-page.js';
import { changeNumbers } from '../../src/report/release-parts.js';

/** Runs of commits c0…c5 on testbed vm; `a` and `<b>` have samples, `c` a single value and only from run 2 on. */
const entries = Array.from({ length: 6 }, (_, i) => ({ commit: `c${i}`.padEnd(40, '0'), runId: `run-${i}`, created: `2026-10-0${i + 1}T00:00:00Z` }));
const sets: ResultSet[] = entries.map((_, i) =>
  newResultSet(entries[i]!.created, [
    { id: 'a', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [4, 1, 3, 2].map((x) => x * 1e-3 * (i + 1)) } } },
    { id: '<b>', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [1e-3, 1e-3] } } },
    ...(i >= 2 ? [{ id: 'c', status: 'ok' as const, metrics: { rate: { unit: '1/s', direction: 'higher' as const, value: 100 + i } } }] : []),
  ]),
);

function row(benchmark: string, metric: string, run: number, regression: boolean): ChangeRow {
  const e = entries[run]!;
  const stats = { index: 0, meanBefore: 1, meanAfter: 1.1, stdBefore: 0, stdAfter: 0, nBefore: 3, nAfter: 3, pValue: 0 } as unknown as ChangeRow['stats'];
  return {
    testbed: 'vm',
    benchmark,
    metric,
    unit: 's',
    direction: 'lower',
    commit: e.commit,
    runId: e.runId,
    created: e.created,
    previousCommit: entries[run - 1]!.commit,
    change: 0.1,
    interval: [0.05, 0.15],
    pValue: 0,
    regression,
    stats,
    runs: 6,
  };
}

const input = (changes: ChangeRow[], tags: Record<number, string[]>): DashboardInput => ({
  generated: '2026-11-21T12:00:00Z',
  tagPattern: 'v*',
  testbeds: [{ id: 'vm', entries, sets, changes }],
  tags: new Map(Object.entries(tags).map(([i, t]) => [entries[Number(i)]!.commit, t])),
  subjects: new Map([[entries[3]!.commit, 'fix <script>alert(1)</script>']]),
});

describe('the dashboard model', () => {
  test('a run whose kernel or toolchain differs from the previous run starts a new stretch, in words', () => {
    const kernels = ['6.1.0-25-amd64', '6.1.0-25-amd64', '6.1.0-25-amd64', '6.1.0-26-amd64', '6.1.0-26-amd64'];
    const withKernels = sets.map((set, i) => (i < kernels.length ? { ...set, environment: { kernel: kernels[i]! } } : set));
    const model = dashboardModel({ ...input([], {}), testbeds: [{ id: 'vm', entries, sets: withKernels, changes: [] }] });
    assert.deepEqual(
      model.testbeds[0]!.runs.map((r) => r.environment ?? null),
      [null, null, null, 'kernel 6.1.0-25-amd64 → 6.1.0-26-amd64', null, null],
      'the last run recorded no environment: unknown, not a change',
    );
  });

  test('a point per run with the metric: median and quartiles of its samples, else its value', () => {
    const model = dashboardModel(input([], {}));
    const a = model.series.find((s) => s.benchmark === 'a')!;
    assert.deepEqual(a.runs, [0, 1, 2, 3, 4, 5]);
    assert.deepEqual([a.low[0], a.median[0], a.high[0]], [0.00175, 0.0025, 0.00325]);
    assert.deepEqual(a.scale, { factor: 1e-3, symbol: 'ms' });
    const c = model.series.find((s) => s.benchmark === 'c')!;
    assert.deepEqual(c.runs, [2, 3, 4, 5], 'runs without the metric have no point');
    assert.deepEqual(c.median, c.low);
    assert.deepEqual(spreadOf([1, 2, 3, 4, 5], undefined), { median: 3, low: 2, high: 4 });
    assert.equal(spreadOf(undefined, undefined), null);
    assert.deepEqual(spreadOf(undefined, 1 / 3), { median: 0.33333, low: 0.33333, high: 0.33333 }, '5 significant digits');
  });

  test('a regression after the last release tag comes first; one at the tagged run, before it or an improvement does not count', () => {
    const model = dashboardModel(
      input([row('a', 'time', 2, true), row('<b>', 'time', 4, true), row('c', 'rate', 5, false)], { 1: ['v0.9'], 2: ['v1.0', 'v1.0-rc'] }),
    );
    assert.deepEqual(model.testbeds[0]!.lastTag, { name: 'v1.0-rc', run: 2 });
    assert.deepEqual(
      model.series.map((s) => [s.benchmark, s.regressedSinceTag]),
      [
        ['<b>', true],
        ['a', false],
        ['c', false],
      ],
    );
    assert.deepEqual(
      model.series[0]!.changes.map((c) => [c.previousRun, c.run]),
      [[3, 4]],
    );
    // Without a tag every regression counts.
    assert.deepEqual(
      dashboardModel(input([row('a', 'time', 2, true)], {})).series.map((s) => [s.benchmark, s.regressedSinceTag]),
      [
        ['a', true],
        ['<b>', false],
        ['c', false],
      ],
    );
  });

  test('the page escapes ids and the data file cannot close a script element', () => {
    const model = dashboardModel(input([row('<b>', 'time', 4, true)], { 2: ['v1'] }));
    const html = renderDashboardHtml(model);
    assert.doesNotMatch(html, /<b>/);
    assert.match(html, /<span class="bench">&lt;b&gt;<\/span>/);
    assert.match(html, /data-search="&lt;b&gt;"/);
    assert.match(html, /Regressions since v1 \(1\)/);
    const data = dashboardDataScript(model);
    assert.doesNotMatch(data, /<\/script>|<b>/);
    const parsed = JSON.parse(data.replace(/^window\.PERF_GATE_DASHBOARD = /, '').replace(/;\n$/, '')) as typeof model;
    assert.equal(parsed.testbeds[0]!.runs[3]!.subject, 'fix <script>alert(1)</script>');
  });
});

test('a change point accepted on the record carries its pull request to the dashboard, and reads so in the release report', () => {
  const accepted = { pullRequest: 12, by: 'ana', reason: 'slower <by> design', change: 0.1 };
  const model = dashboardModel(input([{ ...row('a', 'time', 3, true), accepted }], {}));
  assert.deepEqual(model.series.find((s) => s.benchmark === 'a')!.changes[0]!.accepted, accepted);
  assert.equal(changeNumbers({ ...row('a', 'time', 3, true), accepted } as never).at(-1), 'slower, accepted in #12 by @ana: slower <by> design');
  assert.equal(changeNumbers(row('a', 'time', 3, true) as never).at(-1), 'slower');
});
