import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { GITHUB_COMMENT_LIMIT, renderMarkdown } from '../../src/report/markdown.js';
import { renderJobSummary } from '../../src/report/summary.js';
import type { VerdictRow } from '../../src/gate/types.js';
import { HOSTILE_NAMES, hostileReport, mixedReport, passingReport, reportOf, row, side } from './handwritten-reports.js';

const MARKER = '<!-- perf-gate:sticky gate=scan verdict=fail digest=0a1b -->';

/** Lines of the Markdown that are table rows (header and alignment rows included). */
function tableLines(md: string): string[] {
  return md.split('\n').filter((l) => l.startsWith('| '));
}

/** Text outside fenced code blocks (where Markdown syntax is live). */
function outsideFences(md: string): string {
  return md.replace(/^(`{3,})[^\n]*\n[^]*?\n\1$/gm, '');
}

function manyRows(n: number, status: VerdictRow['status']): VerdictRow[] {
  return Array.from({ length: n }, (_x, i) =>
    row({ benchmark: `suite/benchmark-with-a-long-name-${String(i).padStart(5, '0')} --flag value`, status, failsGate: status === 'regressed' }),
  );
}

describe('renderMarkdown layout', () => {
  test('opens with the one-line verdict and ends with the marker', () => {
    const md = renderMarkdown(mixedReport(), { marker: MARKER });
    assert.equal(
      md.split('\n')[0],
      '### ❌ perf-gate — 1 benchmark failed, 2 regressions, 1 budget warning, 2 inconclusive, 1 new, 1 missing, 1 improved, 3 unchanged',
    );
    assert.ok(md.endsWith(`\n${MARKER}`));
  });

  test('a passing report says so; after a failing run it says resolved', () => {
    assert.match(renderMarkdown(passingReport()).split('\n')[0]!, /^### ✅ perf-gate — no regressions: 1 improved, 2 unchanged$/);
    assert.match(renderMarkdown(passingReport(), { previouslyFailed: true }).split('\n')[0]!, /^### ✅ perf-gate — resolved, no regressions left/);
  });

  test('the title is escaped', () => {
    assert.match(renderMarkdown(passingReport(), { title: 'gate @team <b>' }), /^### ✅ gate @&#8203;team &lt;b&gt; — /);
  });

  test('regressions and failures come first; improved and unchanged rows are folded', () => {
    const md = renderMarkdown(mixedReport());
    const firstDetails = md.indexOf('<details>');
    const mainTable = md.slice(0, firstDetails);
    assert.ok(mainTable.indexOf('💥 failed') < mainTable.indexOf('❌ regressed'));
    assert.ok(!mainTable.includes('➖ unchanged |') || mainTable.includes('memory&#95;peak'), 'only the budget row is unchanged in the main table');
    assert.match(md, /<details><summary>1 improved<\/summary>\n\n\| Benchmark/);
    assert.match(md, /<details><summary>3 unchanged \(2 shown\)<\/summary>|<details><summary>2 unchanged<\/summary>/);
  });

  test('a failed row shows its error and log tail in a details block', () => {
    const md = renderMarkdown(mixedReport());
    assert.match(
      md,
      /<details><summary>💥 <b>sim\/tick&#91;nodes=64&#93;<\/b>: exit code 137 \(killed by SIGKILL\)<\/summary>\n\n```text\n\[info\] warming up\n/,
    );
    assert.match(md, /java.lang.OutOfMemoryError: Java heap space/);
  });

  test('a long log shows only its last lines', () => {
    const tail = Array.from({ length: 500 }, (_x, i) => `log line ${i}`).join('\n');
    const md = renderMarkdown(reportOf([row({ benchmark: 'b', status: 'failed', failsGate: true, error: { message: 'exit 1', logTail: tail } })]));
    assert.ok(md.includes('log line 499') && !md.includes('log line 100\n'));
  });

  test('flags are explained in a legend, with samples needed in the row', () => {
    const md = renderMarkdown(mixedReport());
    assert.match(md, /\*\*Flags\*\*\n\n- \*\*noisier\*\*: /);
    assert.match(md, /- \*\*insufficient-samples\*\*: /);
    assert.match(md, /needs ≈ 40 samples per side/);
    assert.ok(!md.includes('**different-testbed**'), 'only flags present are explained');
  });

  test('warnings are listed', () => {
    assert.match(renderMarkdown(mixedReport()), /\*\*Warnings\*\*\n\n- ⚠️ Budget "legacy\/&#42;" in budgets\/scan.yml:12 matches no benchmark/);
  });

  test('NaN and missing sides are shown, not thrown', () => {
    const md = renderMarkdown(mixedReport());
    assert.match(md, /\| odd\/nan-data \| time \| NaN ± NaN \| 3.00 ms \| NaN % \[NaN, Infinity\] \|/);
    assert.match(md, /\| scan\/prtip --udp -p 53 \| time \| — \| 4.49 ms ± 0.41 \| — \|/);
  });

  test('a marker that is not one well-formed comment is refused', () => {
    assert.throws(() => renderMarkdown(passingReport(), { marker: 'perf-gate' }), /marker must be one HTML comment/);
    assert.throws(() => renderMarkdown(passingReport(), { marker: '<!-- a --> b <!-- c -->' }), /marker/);
    assert.ok(renderMarkdown(passingReport(), { marker: '<!-- perf-gate:sticky gate=a--b -->' }).endsWith('<!-- perf-gate:sticky gate=a--b -->'));
  });
});

describe('renderMarkdown against hostile names', () => {
  const md = renderMarkdown(hostileReport(), { marker: MARKER });

  test('every table line keeps exactly seven cells', () => {
    const lines = tableLines(md);
    assert.ok(lines.length >= HOSTILE_NAMES.length + 4);
    for (const line of lines) assert.equal(line.split('|').length - 2, 7, line);
  });

  test('each hostile name stays on one table row', () => {
    // 12 hostile rows + 1 failed row, two tables with header and alignment lines each.
    assert.equal(tableLines(md).length, HOSTILE_NAMES.length + 1 + 4);
  });

  test('no live mention anywhere outside code', () => {
    assert.doesNotMatch(outsideFences(md), /@(?!&#8203;)[A-Za-z0-9]/);
  });

  test('no comment marker survives except the real one at the end', () => {
    assert.equal(md.split('<!--').length - 1, 1);
    assert.equal(md.split('-->').length - 1, 1);
    assert.ok(md.endsWith(MARKER));
  });

  test('no raw HTML, backticks, dollar signs or link brackets from names outside code', () => {
    const outside = outsideFences(md);
    assert.ok(!outside.includes('<script'), 'script tag');
    assert.ok(!outside.includes('$('), 'dollar');
    assert.ok(!outside.includes('](http'), 'link');
    assert.ok(!/`/.test(outside), 'backtick outside a fence');
    assert.ok(!outside.includes('\u202E') && !outside.includes('\u001b'), 'controls');
  });

  test('the log tail cannot close its fence', () => {
    const fence = /^(`{3,})text$/m.exec(md)![1]!;
    const start = md.indexOf(`${fence}text\n`) + fence.length + 5;
    const end = md.indexOf(`\n${fence}\n`, start);
    const body = md.slice(start, end);
    assert.ok(body.includes('````') && body.includes('</details>'), 'the hostile log is inside');
    for (const line of body.split('\n')) assert.ok(!new RegExp(`^ {0,3}\`{${fence.length},}\\s*$`).test(line), line);
  });
});

describe('renderMarkdown size limit', () => {
  test('5,000 rows are truncated below 65,536 characters with a notice and the marker at the end', () => {
    const rows = [...manyRows(300, 'regressed'), ...manyRows(4700, 'unchanged')];
    const report = reportOf(rows);
    const md = renderMarkdown(report, { marker: MARKER, fullReportHint: 'See the job summary for every row.' });
    assert.ok(md.length <= GITHUB_COMMENT_LIMIT, `${md.length}`);
    assert.ok(md.length > GITHUB_COMMENT_LIMIT - 10_000, `uses the room it has (${md.length})`);
    assert.match(
      md,
      /\*\*Truncated:\*\* [\d,]+ of 5,000 rows are left out to stay within 65,536 characters; the verdict above counts every row\. See the job summary for every row\./,
    );
    assert.ok(md.endsWith(`\n${MARKER}`));
    assert.match(md.split('\n')[0]!, /300 regressions, 4,700 unchanged/);
    // Main-table rows are kept before any folded row.
    const regressedShown = md.split('\n').filter((l) => l.endsWith('❌ regressed |')).length;
    assert.equal(regressedShown, 300);
  });

  test('when even the main table does not fit, its last rows go and the folded sections are empty', () => {
    const report = reportOf([...manyRows(3000, 'regressed'), ...manyRows(100, 'unchanged')]);
    const md = renderMarkdown(report, { marker: MARKER });
    assert.ok(md.length <= GITHUB_COMMENT_LIMIT);
    assert.ok(!md.includes('<details><summary>100 unchanged'));
    assert.ok(md.includes('-00000 --flag value'), 'the first regressions are kept');
    assert.ok(!md.includes('-02999 --flag value'), 'the last ones are left out');
    assert.match(md, /of 3,100 rows are left out/);
  });

  test('the limit holds for any smaller maxLength too', () => {
    const report = reportOf([...manyRows(50, 'regressed'), ...manyRows(50, 'unchanged'), ...manyRows(5, 'improved')]);
    for (const maxLength of [3000, 5000, 8000, 12000, 20000]) {
      const md = renderMarkdown(report, { marker: MARKER, maxLength });
      assert.ok(md.length <= maxLength, `${maxLength}: ${md.length}`);
      assert.ok(md.endsWith(MARKER));
    }
  });

  test('a maxLength that cannot hold the verdict is a programming error', () => {
    assert.throws(() => renderMarkdown(reportOf(manyRows(100, 'regressed')), { maxLength: 100 }), RangeError);
  });

  test('a short report is not truncated', () => {
    assert.ok(!renderMarkdown(mixedReport()).includes('Truncated'));
  });

  test('the job summary counts bytes and has no marker', () => {
    const rows = manyRows(12_000, 'unchanged').map((r) => ({ ...r, benchmark: `${r.benchmark} 🚀🚀🚀🚀🚀🚀🚀🚀`, current: side(0.1, 0.01, 5) }));
    const summary = renderJobSummary(reportOf(rows));
    assert.ok(Buffer.byteLength(summary) <= 1024 * 1024, `${Buffer.byteLength(summary)}`);
    assert.match(summary, /bytes; the verdict above counts every row/);
    assert.ok(!summary.includes('<!--'));
  });
});

describe('why rows are inconclusive (Markdown)', () => {
  test('a folded list under the table, escaped, that says why each inconclusive row is', () => {
    const md = renderMarkdown(mixedReport());
    assert.match(
      md,
      /<details><summary>Why 2 rows are inconclusive<\/summary>\n\n- \*\*http\/wrk GET \/index\.html\*\* latency&#95;p99: The interval spans both sides of the tolerance with 3 samples per side\.\n- \*\*odd\/nan-data\*\* time: Baseline samples are not numbers\.\n\n<\/details>/,
    );
    const hostile = renderMarkdown(
      reportOf([row({ benchmark: '<img src=x onerror=alert(1)>', status: 'inconclusive', reason: { code: 'text', text: '@everyone *bold*' } })]),
    );
    const why = hostile.slice(hostile.indexOf('Why 1 row'));
    assert.doesNotMatch(why, /<img|@everyone|\*bold\*/);
    assert.doesNotMatch(renderMarkdown(passingReport()), /inconclusive<\/summary>/);
  });
});
