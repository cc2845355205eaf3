import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChangeRow } from '../../src/gate/change-rows.js';
import { mainAlerts, reversalOf, seriesKey, type MainAlert } from '../../src/gate/main-alerts.js';
import { alertMarker, planAlertIssues, readAlertMarker, type AlertIssueText, type AlertMark } from '../../src/github/alert-issues.js';
import type { IssueInfo } from '../../src/github/client.js';
import { parseBudgets } from '../../src/config/budgets.js';
import { DEFAULT_BUDGET_DEFAULTS, type Budgets } from '../../src/model/index.js';
import { alertIssueBody } from '../../src/report/main-alert.js';

/** A change row of `benchmark` at minute `minute` with relative change `change`. */
function row(benchmark: string, minute: number, change: number, direction: 'lower' | 'higher' = 'lower'): ChangeRow {
  const created = new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString();
  return {
    testbed: 'vm',
    benchmark,
    metric: 'time',
    unit: 's',
    direction,
    commit: `${minute}`.padStart(40, 'c'),
    runId: `run-${minute}`,
    created,
    previousCommit: `${minute - 1}`.padStart(40, 'c'),
    change,
    interval: [change - 0.01, change + 0.01],
    pValue: 1e-4,
    regression: direction === 'lower' ? change > 0 : change < 0,
    stats: { meanBefore: 1, meanAfter: 1 + change, stdBefore: 0.01, stdAfter: 0.01, nBefore: 20, nAfter: 8, pValue: 1e-4 },
    runs: 40,
  };
}

function budgets(yaml: string): Budgets {
  const parsed = parseBudgets(yaml, 'perf-budgets.yml');
  return { defaults: { ...DEFAULT_BUDGET_DEFAULTS, ...parsed.defaults }, rules: parsed.rules, files: ['perf-budgets.yml'] };
}

const recent = (...minutes: number[]): Set<string> => new Set(minutes.map((m) => `run-${m}`));

describe('mainAlerts', () => {
  const none = budgets('version: 1\n');

  test('a regression in the window beyond the default 5 % tolerance is an alert; one below it, an improvement, or one outside the window is not', () => {
    const rows = [row('a', 30, 0.08), row('b', 31, 0.04), row('c', 32, -0.1), row('d', 10, 0.2), row('e', 33, -0.1, 'higher')];
    const alerts = mainAlerts(rows, none, recent(30, 31, 32, 33));
    assert.deepEqual(
      alerts.map((a) => a.row.benchmark),
      ['a', 'e'],
      'slower time and lower throughput',
    );
    assert.equal(alerts[0]!.tolerance, 0.05);
  });

  test('of two steps of one series in the window the newer is the alert, also when both runs carry one time stamp', () => {
    assert.equal(mainAlerts([row('a', 30, 0.1), row('a', 34, 0.8)], none, recent(30, 34))[0]!.row.runId, 'run-34');
    // Runs recorded under a fixed clock: the commit order (the rows' order) decides. A spurious earlier step must not hide the real one.
    const sameTime = [row('a', 30, 0.1), { ...row('a', 34, 0.8), created: row('a', 30, 0.1).created }];
    const alerts = mainAlerts(sameTime, none, recent(30, 34));
    assert.equal(alerts.length, 1);
    assert.equal(alerts[0]!.row.runId, 'run-34');
  });

  test("a budget's regression tolerance and ignore apply", () => {
    const rows = [row('parse/a', 30, 0.08), row('parse/b', 30, 0.08), row('noisy', 30, 0.3)];
    const b = budgets('version: 1\nbenchmarks:\n  "parse/a":\n    time: { regression: 10% }\n  "noisy":\n    ignore: true\n');
    assert.deepEqual(
      mainAlerts(rows, b, recent(30)).map((a) => a.row.benchmark),
      ['parse/b'],
    );
  });

  test('a step that a later one reversed raises nothing; the newest unreversed step of a series is the one alert', () => {
    const reversed = [row('a', 30, 0.1), row('a', 34, -0.085)];
    assert.deepEqual(mainAlerts(reversed, none, recent(30, 34)), []);
    const twice = [row('a', 30, 0.1), row('a', 34, 0.1)];
    assert.deepEqual(
      mainAlerts(twice, none, recent(30, 34)).map((a) => a.row.created),
      [row('a', 34, 0.1).created],
    );
  });

  test('reversalOf: half the step back counts, less does not; a throughput drop is reversed by a rise', () => {
    const up = row('a', 30, 0.1);
    // Back from 1.1 to 1 is −9.1 %; half of that is −4.5 %.
    assert.equal(reversalOf([up, row('a', 34, -0.04)], seriesKey(up), up.created, up.change), null);
    assert.equal(reversalOf([up, row('a', 34, -0.05)], seriesKey(up), up.created, up.change)?.runId, 'run-34');
    const drop = row('t', 30, -0.2, 'higher');
    assert.equal(reversalOf([drop, row('t', 35, 0.2, 'higher')], seriesKey(drop), drop.created, drop.change)?.runId, 'run-35');
    assert.equal(reversalOf([drop, row('t', 25, 0.3, 'higher')], seriesKey(drop), drop.created, drop.change), null, 'an earlier step is no reversal');
  });
});

describe('planAlertIssues', () => {
  const mark = (key: string, commit: string, gate = 'perf-gate'): AlertMark => ({ gate, key, commit, created: '2026-11-01T00:30:00.000Z', change: 0.1 });
  const issue = (number: number, m: AlertMark, state: 'open' | 'closed' = 'open'): IssueInfo => ({
    number,
    title: 't',
    body: `${alertMarker(m)}\nwords`,
    state,
    url: `u${number}`,
  });
  const alert = (m: AlertMark): AlertIssueText => ({ mark: m, title: 't', body: () => 'b' });
  const never = (): null => null;

  test('the marker survives any benchmark name and rejects a forged one', () => {
    const m = mark('vm\u0000a --> <b>\u0000time', 'c1');
    assert.deepEqual(readAlertMarker(`text\n${alertMarker(m)}\nmore`), m);
    assert.ok(!alertMarker(m).slice(4, -3).includes('--'), 'nothing ends the HTML comment early');
    assert.equal(readAlertMarker('<!-- perf-gate-alert e30 -->'), null, 'an empty mark');
  });

  test('open issue of the series → update; closed at the same step → left closed; closed at another step → new issue', () => {
    const steps = planAlertIssues(
      [issue(1, mark('k1', 'c1')), issue(2, mark('k2', 'c2'), 'closed'), issue(3, mark('k3', 'old'), 'closed')],
      'perf-gate',
      [alert(mark('k1', 'c1b')), alert(mark('k2', 'c2')), alert(mark('k3', 'c3'))],
      never,
    );
    assert.deepEqual(
      steps.map((s) => [s.kind, 'issue' in s ? s.issue.number : null]),
      [
        ['update', 1],
        ['keep-closed', 2],
        ['create', null],
      ],
    );
    assert.equal(steps[0]!.kind === 'update' && steps[0]!.previous.commit, 'c1', 'the update knows where the step was');
  });

  test("an open issue without an alert is closed only when reversed; another gate's issues are not touched", () => {
    const issues = [issue(1, mark('k1', 'c1')), issue(2, mark('k2', 'c2')), issue(3, mark('k1', 'c1', 'other-gate'))];
    const steps = planAlertIssues(issues, 'perf-gate', [], (m) => (m.key === 'k1' ? 'reversed' : null));
    assert.deepEqual(steps, [{ kind: 'close', issue: issues[0], comment: 'reversed' }]);
  });
});

describe('alertIssueBody', () => {
  const a: MainAlert = { key: 'k', row: row("it's/parse", 30, 0.08), tolerance: 0.05 };

  test('says when the step moved since it was first reported, and quotes the benchmark for the shell', () => {
    const moved = alertIssueBody(a, { commit: 'c'.repeat(40), change: 0.12 }, { repositoryUrl: null });
    assert.match(moved, /The step moved since it was first reported: it was placed at `ccccccc` \(\+12\.0 %\)/);
    assert.ok(moved.includes(`--benchmark 'it'\\''s/parse'`), moved);
    assert.ok(!alertIssueBody(a, { commit: a.row.commit, change: 0.08 }, { repositoryUrl: null }).includes('moved'));
  });
});
