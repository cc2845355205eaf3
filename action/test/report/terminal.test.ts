import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import stringWidth from 'string-width';
import { renderTerminal } from '../../src/report/terminal.js';
import { escapeTerminal } from '../../src/report/escape-terminal.js';
import { hostileReport, mixedReport, passingReport, reportOf, row } from './handwritten-reports.js';

describe('renderTerminal', () => {
  test('the verdict is the last line', () => {
    const lines = renderTerminal(mixedReport(), { color: false }).trimEnd().split('\n');
    assert.equal(lines.at(-1), '✗ FAIL — 1 benchmark failed, 2 regressions, 1 budget warning, 2 inconclusive, 1 new, 1 missing, 1 improved, 3 unchanged');
    assert.equal(renderTerminal(passingReport(), { color: false }).trimEnd().split('\n').at(-1), '✓ PASS — no regressions: 1 improved, 2 unchanged');
  });

  test('columns line up: every column starts at the same place on each table line', () => {
    const text = renderTerminal(mixedReport(), { color: false });
    const lines = text.split('\n').slice(0, mixedReport().rows.length + 1);
    const metricStart = stringWidth(lines[0]!.slice(0, lines[0]!.indexOf('Metric')));
    for (const line of lines.slice(1)) {
      assert.match(line.slice(metricStart), /^(time|throughput|memory_peak|latency_p99|syscalls) /, line);
    }
    // Numbers are right-aligned: every row's Baseline and Current cells end where their headings end.
    for (const heading of ['Baseline', 'Current']) {
      const end = lines[0]!.indexOf(heading) + heading.length;
      for (const line of lines.slice(1)) {
        assert.notEqual(line[end - 1], ' ', `${heading} ends at ${end}: ${line}`);
        assert.equal(line[end], ' ', `${heading} ends at ${end}: ${line}`);
      }
    }
  });

  test('no colour codes without colour, colour codes with it', () => {
    assert.ok(!renderTerminal(mixedReport(), { color: false }).includes('\u001b'));
    assert.match(renderTerminal(mixedReport(), { color: true }), /\u001b\[31mregressed\u001b\[39m/);
  });

  test('a narrow terminal shortens benchmark names in the middle', () => {
    const text = renderTerminal(mixedReport(), { color: false, width: 120 });
    assert.match(text, /^scan\/prt…7\.0\.0\.1  time /m);
    // The name column gave up its width down to the minimum of 16 columns.
    assert.equal(text.split('\n')[0]!.indexOf('Metric'), 18);
    assert.ok(stringWidth(renderTerminal(mixedReport(), { color: false }).split('\n')[0]!) > 120, 'the unconstrained table is wider');
  });

  test('hostile names cannot inject terminal controls or break a line', () => {
    const text = renderTerminal(hostileReport(), { color: false });
    assert.ok(!text.includes('\u001b') && !text.includes('\u202E') && !text.includes('\r'));
    assert.match(text, /two\\nlines\\r\\nthree/);
    assert.match(text, /\\x1b\[31mred\\x1b\[0m/);
    const tableLines = text.split('\n\n')[0]!.split('\n');
    assert.equal(tableLines.length, hostileReport().rows.length + 1);
  });
});

describe('escapeTerminal', () => {
  test('shows control characters as escapes', () => {
    assert.equal(escapeTerminal('a\u0007b\tc\u009bd\u202Ee'), 'a\\x07b\\tc\\x9bd\\u202ee');
  });

  test('multi-line text keeps lines and drops colour sequences', () => {
    assert.equal(escapeTerminal('\u001b[32mok\u001b[0m\r\nnext\u0007', { multiline: true }), 'ok\nnext\\x07');
  });
});

describe('why rows are inconclusive', () => {
  test('each inconclusive row says why in words under the table, at most five, and how many more', () => {
    const text = renderTerminal(mixedReport(), { color: false });
    assert.match(
      text,
      /\n\nWhy inconclusive\n {2}http\/wrk GET \/index\.html latency_p99: The interval spans both sides of the tolerance with 3 samples per side\.\n {2}odd\/nan-data time: Baseline samples are not numbers\.\n/,
    );
    const many = reportOf(
      Array.from({ length: 7 }, (_, i) => row({ benchmark: `b${i}`, status: 'inconclusive', reason: { code: 'text', text: `reason ${i}` } })),
    );
    const lines = renderTerminal(many, { color: false }).split('\n');
    const at = lines.indexOf('Why inconclusive');
    assert.deepEqual(lines.slice(at + 1, at + 7), [
      '  b0 time: reason 0',
      '  b1 time: reason 1',
      '  b2 time: reason 2',
      '  b3 time: reason 3',
      '  b4 time: reason 4',
      "  … and 2 more (every row's reason is in the JSON report)",
    ]);
    assert.doesNotMatch(renderTerminal(passingReport(), { color: false }), /Why inconclusive/);
  });
});
