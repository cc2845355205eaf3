import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyAcceptances, rowsToAccept, type Acceptance } from '../../src/gate/index.js';
import { reportOf, row } from '../report/handwritten-reports.js';

const regressed = (benchmark: string, change: number, extra = {}) =>
  row({ benchmark, status: 'regressed', change, ci: [change - 0.01, change + 0.01], tolerance: 0.05, failsGate: true, ...extra });

function accept(benchmarks: string, rows: ReturnType<typeof regressed>[]): Acceptance {
  return {
    benchmarks,
    reason: 'the exact parser is slower by design',
    by: 'ana',
    commit: 'c'.repeat(40),
    at: '2026-11-20T10:00:00Z',
    source: { kind: 'comment', url: 'https://github.example.com/acme/x/pull/7#issuecomment-1' },
    rows: rowsToAccept(rows, benchmarks),
  };
}

test('a glob accepts the regressed and suspected rows it names, with their change then; other rows are not acceptable', () => {
  const rows = [
    regressed('scan/parse', 0.08),
    row({ benchmark: 'scan/suspect', status: 'suspected', change: 0.07 }),
    row({ benchmark: 'scan/crash', status: 'failed', change: null, failsGate: true }),
    row({ benchmark: 'scan/same', status: 'unchanged', change: 0.001 }),
    regressed('io/read', 0.2),
  ];
  assert.deepEqual(
    rowsToAccept(rows, 'scan/*').map((r) => [r.benchmark, r.change]),
    [
      ['scan/parse', 0.08],
      ['scan/suspect', 0.07],
    ],
  );
});

test('an accepted row passes as accepted; the other regression still fails the gate', () => {
  const before = [regressed('scan/parse', 0.08), regressed('io/read', 0.2)];
  const report = applyAcceptances(reportOf(before), [accept('scan/*', before)]);
  assert.equal(report.verdict, 'fail');
  const parse = report.rows[0]!;
  assert.equal(parse.status, 'accepted');
  assert.equal(parse.failsGate, false);
  assert.deepEqual(parse.acceptance && [parse.acceptance.by, parse.acceptance.change, parse.acceptance.holds], ['ana', 0.08, true]);
  assert.equal(report.counts.accepted, 1);
  assert.equal(report.counts.regressed, 1);
  const all = applyAcceptances(reportOf(before), [accept('*', before)]);
  assert.equal(all.verdict, 'pass');
});

test('a later push within the tolerance of the accepted change stays accepted; one beyond it fails again, saying so', () => {
  const given = [regressed('scan/parse', 0.08)];
  const acceptance = accept('scan/parse', given);
  // +8 % accepted with a 5 % tolerance: +12 % holds, +20 % does not.
  const rerun = applyAcceptances(reportOf([regressed('scan/parse', 0.12)]), [acceptance]);
  assert.equal(rerun.rows[0]!.status, 'accepted');
  assert.equal(rerun.verdict, 'pass');
  const worse = applyAcceptances(reportOf([regressed('scan/parse', 0.2)]), [acceptance]);
  assert.equal(worse.rows[0]!.status, 'regressed');
  assert.equal(worse.rows[0]!.acceptance?.holds, false);
  assert.equal(worse.verdict, 'fail');
});

test('for a throughput (higher is better) worse means lower', () => {
  const given = [regressed('net/rps', -0.1, { direction: 'higher' })];
  const acceptance = accept('net/*', given);
  assert.equal(applyAcceptances(reportOf([regressed('net/rps', -0.12, { direction: 'higher' })]), [acceptance]).verdict, 'pass');
  assert.equal(applyAcceptances(reportOf([regressed('net/rps', -0.3, { direction: 'higher' })]), [acceptance]).verdict, 'fail');
});

test('an exceeded budget of severity fail still fails an accepted row: the budget file is where a hard limit changes', () => {
  const overBudget = regressed('scan/parse', 0.08, {
    budget: { kind: 'max', limit: 1, stat: 'median', value: 2, result: 'fail', baselineResult: 'pass', severity: 'fail', source: 'budgets/scan.yml:3' },
  });
  const report = applyAcceptances(reportOf([overBudget]), [accept('scan/parse', [overBudget])]);
  assert.equal(report.rows[0]!.status, 'accepted');
  assert.equal(report.verdict, 'fail');
});
