import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeLedger, encodeLedger, ledgerOf, MAX_LEDGER_CHARS, recordAcceptance, stillFailing } from '../../src/pipeline/pr-ledger.js';
import { reportOf, row } from '../report/handwritten-reports.js';
import { acceptanceRecordMarkdown } from '../../src/report/acceptance-text.js';

const regressed = (benchmark: string, change: number) =>
  row({ benchmark, status: 'regressed', change, ci: [change - 0.01, change + 0.01], tolerance: 0.05, failsGate: true });

test('a ledger survives its trip through the marker, and an acceptance re-decides it without measuring', () => {
  const crashed = row({ benchmark: 'io/crash', status: 'failed', change: null, failsGate: true });
  const ledger = ledgerOf(reportOf([regressed('scan/parse', 0.08), crashed]), 'a'.repeat(40), []);
  const back = decodeLedger(encodeLedger(ledger))!;
  assert.deepEqual(back, ledger);
  assert.deepEqual(stillFailing(back), ['scan/parse time: regressed +8.0 %', 'io/crash time: failed']);
  const outcome = recordAcceptance(back, {
    benchmarks: 'scan/*',
    reason: 'intended',
    by: 'ana',
    at: '2026-11-20T10:00:00Z',
    source: { kind: 'label', label: 'x' },
  });
  assert.ok(outcome.accepted);
  assert.deepEqual(outcome.stillFailing, ['io/crash time: failed'], 'a crash cannot be accepted');
  assert.equal(decodeLedger('not base64 json'), null);
  assert.equal(decodeLedger(Buffer.from(JSON.stringify({ ...ledger, version: 2 })).toString('base64')), null, 'another version is not read as this one');
});

test('long benchmark names cannot crowd the report out of the comment: the encoded ledger stays within its share', () => {
  const rows = Array.from({ length: 100 }, (_, i) => regressed(`suite/${'x'.repeat(3000)}-${i}`, 0.1));
  const text = encodeLedger(ledgerOf(reportOf(rows), 'b'.repeat(40), []));
  assert.ok(text.length <= MAX_LEDGER_CHARS, `${text.length} characters`);
  const kept = decodeLedger(text)!;
  assert.ok(kept.rows.length > 0 && kept.rows.length < 100, `${kept.rows.length} rows kept`);
});

test('the record of acceptances above the report is bounded however many and however long', () => {
  const rows = Array.from({ length: 100 }, (_, i) => regressed(`suite/${'y'.repeat(4000)}-${i}`, 0.1));
  const ledger = ledgerOf(reportOf(rows), 'c'.repeat(40), []);
  const many = Array.from({ length: 50 }, (_, i) => ({
    benchmarks: `suite/${'y'.repeat(4000)}*`,
    reason: 'r'.repeat(500),
    by: `user${i}`,
    commit: 'c'.repeat(40),
    at: '2026-11-20T10:00:00Z',
    source: { kind: 'comment' as const, url: 'https://github.example.com/acme/x/pull/1#issuecomment-1' },
    rows: ledger.rows,
  }));
  const record = acceptanceRecordMarkdown(many, []);
  assert.ok(record.length < 30_000, `${record.length} characters`);
  assert.match(record, /30 earlier acceptances not shown/);
  assert.match(record, /and 95 more/);
});
