import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { EMPTY_BUDGETS } from '../../src/model/index.js';
import { decide } from '../../src/gate/index.js';
import { newResultSet } from '../../src/model/index.js';
import { FLAG_TEXT } from '../../src/report/flags.js';
import { reasonText } from '../../src/report/reason-text.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

// Issue 11, item 12: a test that failed in the baseline but still recorded its time is compared.
// The fixtures are HAND-WRITTEN after SwiftPM's XUnitGenerator (see fixtures/junit/README.md).
const fixtures = fileURLToPath(new URL('../fixtures/junit/', import.meta.url));
const baseline = `${fixtures}swift-xctest-baseline-failed-handwritten.xml`;
const current = `${fixtures}swift-xctest-baseline-failed-now-passes-handwritten.xml`;
const SCAN = 'ScannerTests.PerformanceTests.testScanThousandPortsUnderTwoSeconds';

describe('a JUnit testcase that failed in the baseline and passes now', () => {
  const dir = tempDir();

  test('perf-gate compare shows it improved (−80 %), flagged baseline-failed, not new', async () => {
    const result = await runCli(['compare', '--current', current, '--baseline', baseline, '--json', 'report.json'], dir);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    const lines = result.stdout.split('\n').filter((l) => l.includes('testScanThousandPortsUnderTwoSeconds'));
    assert.ok(lines.length > 0, result.stdout);
    assert.match(lines.join('\n'), /improved/);
    assert.match(lines.join('\n'), /-80(\.\d)? ?%|−80(\.\d)? ?%/);
    assert.match(lines.join('\n'), /baseline-failed/);
    assert.doesNotMatch(lines.join('\n'), /\bnew\b/);
    // The legend explains the flag.
    assert.ok(result.stdout.includes(FLAG_TEXT['baseline-failed']), result.stdout);

    const { readFileSync } = await import('node:fs');
    const report = JSON.parse(readFileSync(`${dir}/report.json`, 'utf8')) as {
      rows: { benchmark: string; status: string; change: number; flags: string[]; reason: string }[];
    };
    const row = report.rows.find((r) => r.benchmark === SCAN)!;
    assert.equal(row.status, 'improved');
    assert.ok(Math.abs(row.change - (1.2012019157409668 / 6.0612340211868286 - 1)) < 1e-9, `change ${row.change}`);
    assert.ok(row.flags.includes('baseline-failed'));
    assert.match(row.reason, /baseline run of this benchmark failed, this run passes/);
    // A test that passed on both sides carries no such flag.
    const codec = report.rows.find((r) => r.benchmark === 'ScannerTests.CodecTests.testRoundTrip')!;
    assert.ok(!codec.flags.includes('baseline-failed'));
  });

  test('a baseline that failed without a value stays new', () => {
    const base = newResultSet('2026-11-21T12:00:00Z', [{ id: 'x', status: 'failed', metrics: {}, error: { message: 'crashed' } }]);
    const cur = newResultSet('2026-11-21T12:00:00Z', [{ id: 'x', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', value: 1.2 } } }]);
    const row = decide(base, cur, EMPTY_BUDGETS).rows.find((r) => r.benchmark === 'x')!;
    assert.equal(row.status, 'new');
    assert.match(reasonText(row.reason), /baseline run of this benchmark failed: nothing to compare with/);
    assert.ok(!row.flags.includes('baseline-failed'));
  });
});
