import { test } from 'node:test';
import { MAX_LEDGER_CHARS } from '../../src/github/sticky-comment.js';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeLedger, encodeLedger, ledgerOf, MAX_GLOB_CHARS, recordAcceptance, redecide, stillFailing, withdrawLabel } from '../../src/pipeline/pr-ledger.js';
import { applyAcceptances, type CheckPolicy } from '../../src/gate/index.js';
import { reportOf, row } from '../report/handwritten-reports.js';
import { acceptanceRecordMarkdown } from '../../src/report/acceptance-text.js';

const regressed = (benchmark: string, change: number) =>
  row({ benchmark, status: 'regressed', change, ci: [change - 0.01, change + 0.01], tolerance: 0.05, failsGate: true });
const POLICY: CheckPolicy = { failOn: 'fail', inconclusive: 'pass', selfReported: false };
const given = (benchmarks: string) => ({
  benchmarks,
  reason: 'intended',
  by: 'ana',
  at: '2026-11-20T10:00:00Z',
  source: { kind: 'comment' as const, url: 'https://github.example.com/acme/x/pull/1#issuecomment-1' },
});

test('a ledger survives its trip through the marker, and an acceptance re-decides it without measuring', () => {
  const crashed = row({ benchmark: 'io/crash', status: 'failed', change: null, failsGate: true });
  const ledger = ledgerOf(reportOf([regressed('scan/parse', 0.08), crashed]), 'a'.repeat(40), [], POLICY);
  const back = decodeLedger(encodeLedger(ledger, MAX_LEDGER_CHARS))!;
  assert.deepEqual(back, ledger);
  assert.deepEqual(stillFailing(back), ['scan/parse time: regressed +8.0 %', 'io/crash time: failed']);
  const outcome = recordAcceptance(back, { ...given('scan/*'), source: { kind: 'label', label: 'x' } });
  assert.ok(outcome.accepted);
  assert.deepEqual(outcome.stillFailing, ['io/crash time: failed'], 'a crash cannot be accepted');
  assert.equal(decodeLedger('not base64 json'), null);
  assert.equal(decodeLedger(Buffer.from(JSON.stringify({ ...ledger, version: 3 })).toString('base64')), null, 'another version is not read as this one');
});

test('a version-1 ledger is read with its acceptances, but cannot re-decide the check', () => {
  const v2 = ledgerOf(reportOf([regressed('scan/parse', 0.08)]), 'a'.repeat(40), [], POLICY);
  const { leftOut: _l, inconclusive: _i, policy: _p, ...v1 } = { ...v2, version: 1 };
  const back = decodeLedger(Buffer.from(JSON.stringify(v1)).toString('base64'))!;
  assert.deepEqual([back.version, back.leftOut, back.policy], [2, null, null]);
  const outcome = recordAcceptance(back, given('scan/*'));
  assert.ok(outcome.accepted);
  assert.equal(redecide(outcome.ledger).conclusion, null);
});

test('120 regressed rows: the ledger holds 100, counts the 20 it left out, and accepting * re-decides nothing', () => {
  const report = reportOf(Array.from({ length: 120 }, (_, i) => regressed(`suite/b${i}`, 0.2)));
  const ledger = decodeLedger(encodeLedger(ledgerOf(report, 'd'.repeat(40), [], POLICY), MAX_LEDGER_CHARS))!;
  assert.deepEqual([ledger.rows.length, ledger.leftOut], [100, 20]);
  const outcome = recordAcceptance(ledger, given('*'));
  assert.ok(outcome.accepted);
  assert.equal(outcome.acceptance.rows.length, 100);
  assert.deepEqual(redecide(outcome.ledger), { failing: ["20 more failing rows the comment's ledger could not hold"], conclusion: null });
});

test('six rows with 4,000-character names: the rows cut to fit the comment are counted, not forgotten', () => {
  const report = reportOf(Array.from({ length: 6 }, (_, i) => regressed(`suite/${'n'.repeat(4000)}${i}`, 0.2)));
  const text = encodeLedger(ledgerOf(report, 'e'.repeat(40), [], POLICY), MAX_LEDGER_CHARS);
  assert.ok(text.length <= MAX_LEDGER_CHARS);
  const ledger = decodeLedger(text)!;
  assert.equal(ledger.rows.length + ledger.leftOut!, 6, `${ledger.rows.length} kept, ${ledger.leftOut} left out`);
  assert.ok(ledger.leftOut! > 0);
  const outcome = recordAcceptance(ledger, given('*'));
  assert.ok(outcome.accepted);
  assert.equal(redecide(outcome.ledger).conclusion, null);
});

test("the re-decision applies the run's policy: inconclusive: fail fails, report mode is neutral, fail-on: never is neutral", () => {
  const rows = [regressed('scan/parse', 0.08), row({ benchmark: 'scan/noisy', status: 'inconclusive', change: 0.01, failsGate: false })];
  const accepted = (policy: CheckPolicy) => {
    const outcome = recordAcceptance(ledgerOf(reportOf(rows), 'f'.repeat(40), [], policy), given('scan/parse'));
    assert.ok(outcome.accepted);
    return redecide(outcome.ledger).conclusion;
  };
  assert.equal(accepted(POLICY), 'success');
  assert.equal(accepted({ ...POLICY, inconclusive: 'fail' }), 'failure');
  assert.equal(accepted({ ...POLICY, inconclusive: 'neutral' }), 'neutral');
  assert.equal(accepted({ ...POLICY, selfReported: true }), 'neutral');
  const crashed = row({ benchmark: 'io/crash', status: 'failed', change: null, failsGate: true });
  const outcome = recordAcceptance(ledgerOf(reportOf([...rows, crashed]), 'f'.repeat(40), [], { ...POLICY, failOn: 'never' }), given('scan/*'));
  assert.ok(outcome.accepted);
  assert.deepEqual(redecide(outcome.ledger), { failing: ['io/crash time: failed'], conclusion: 'neutral' });
});

test('an accept glob longer than a stored run keeps is refused before it is recorded', () => {
  const ledger = ledgerOf(reportOf([regressed('scan/parse', 0.08)]), 'a'.repeat(40), [], POLICY);
  const outcome = recordAcceptance(ledger, given(`scan/${'*'.repeat(MAX_GLOB_CHARS)}`));
  assert.deepEqual(outcome, { accepted: false, why: 'glob-too-long', acceptable: [] });
});

test('removing a label that accepted nothing changes nothing', () => {
  const ledger = ledgerOf(reportOf([regressed('scan/parse', 0.08)]), 'a'.repeat(40), [], POLICY);
  assert.equal(withdrawLabel(ledger, 'perf-gate-accept'), null);
  const outcome = recordAcceptance(ledger, { ...given('*'), source: { kind: 'label', label: 'perf-gate-accept' } });
  assert.ok(outcome.accepted);
  assert.deepEqual(withdrawLabel(outcome.ledger, 'perf-gate-accept')?.acceptances, []);
});

test('property: however the ledger is truncated, accepting from it never passes a check the full report would fail', () => {
  const arbRow = fc.record({
    name: fc.string({ minLength: 1, maxLength: 6 }),
    pad: fc.integer({ min: 0, max: 6000 }),
    status: fc.constantFrom('regressed', 'suspected', 'failed', 'inconclusive', 'not-regressed'),
    change: fc.double({ min: -0.5, max: 2, noNaN: true }),
    failsGate: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.array(arbRow, { minLength: 1, maxLength: 160 }), fc.constantFrom('*', '*a*', 's*'), (specs, glob) => {
      const rows = specs.map((s, i) =>
        row({
          benchmark: `s${i}/${s.name}${'x'.repeat(s.pad)}`,
          status: s.status as 'regressed',
          change: s.status === 'failed' ? null : s.change,
          tolerance: 0.05,
          failsGate: s.status === 'not-regressed' || s.status === 'inconclusive' ? false : s.failsGate,
        }),
      );
      const report = reportOf(rows);
      const ledger = decodeLedger(encodeLedger(ledgerOf(report, 'a'.repeat(40), [], POLICY), MAX_LEDGER_CHARS))!;
      const outcome = recordAcceptance(ledger, given(glob));
      if (!outcome.accepted) return;
      const decided = redecide(outcome.ledger);
      // The truth: the whole report with the recorded acceptance applied, as the next measured run would decide.
      const truth = applyAcceptances(report, [outcome.acceptance]).verdict;
      if (decided.conclusion === 'success') assert.equal(truth, 'pass', `ledger passed ${decided.failing.length} failing; truth ${truth}`);
    }),
    { numRuns: 150 },
  );
});

test('long benchmark names cannot crowd the report out of the comment: the encoded ledger stays within its share', () => {
  const rows = Array.from({ length: 100 }, (_, i) => regressed(`suite/${'x'.repeat(3000)}-${i}`, 0.1));
  const text = encodeLedger(ledgerOf(reportOf(rows), 'b'.repeat(40), [], POLICY), MAX_LEDGER_CHARS);
  assert.ok(text.length <= MAX_LEDGER_CHARS, `${text.length} characters`);
  const kept = decodeLedger(text)!;
  assert.ok(kept.rows.length > 0 && kept.rows.length < 100, `${kept.rows.length} rows kept`);
});

test('the record of acceptances above the report is bounded however many and however long, and so is what still fails', () => {
  const rows = Array.from({ length: 100 }, (_, i) => regressed(`suite/${'y'.repeat(4000)}-${i}`, 0.1));
  const ledger = ledgerOf(reportOf(rows), 'c'.repeat(40), [], POLICY);
  const many = Array.from({ length: 50 }, (_, i) => ({
    ...given(`suite/${'y'.repeat(4000)}*`),
    reason: 'r'.repeat(500),
    by: `user${i}`,
    commit: 'c'.repeat(40),
    rows: ledger.rows,
  }));
  const failing = Array.from({ length: 300 }, (_, i) => `suite/${'z'.repeat(200)}${i} time: regressed +10.0 %`);
  const record = acceptanceRecordMarkdown(many, { failing, decided: true });
  assert.ok(record.length < 32_000, `${record.length} characters`);
  assert.match(record, /30 earlier acceptances not shown/);
  assert.match(record, /and 95 more/);
  assert.match(record, /; and 290 more\./);
});
