import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { renderHtml } from '../../src/report/html.js';
import { escapeHtml } from '../../src/report/escape-html.js';
import { hostileReport, mixedReport } from './handwritten-reports.js';

describe('renderHtml', () => {
  test('is a standalone page that forbids scripts', () => {
    const html = renderHtml(mixedReport());
    assert.match(html, /^<!doctype html>/);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/);
    assert.doesNotMatch(html, /<script|<link|src=/);
  });

  test('shows every row in sections, failure logs and the verdict', () => {
    const report = mixedReport();
    const html = renderHtml(report);
    assert.equal((html.match(/<tr><td>/g) ?? []).length, report.rows.length);
    assert.match(html, /<h2>Failed \(1\)<\/h2>/);
    assert.match(html, /<h2>Unchanged \(2\)<\/h2>/);
    assert.match(html, /<pre>\[info\] warming up\n/);
    assert.match(html, /FAIL — 1 benchmark failed/);
  });

  test('escapes hostile names', () => {
    const html = renderHtml(hostileReport());
    assert.ok(!html.includes('<script>alert'));
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(!html.includes('<!-- perf-gate -->'));
    assert.ok(!html.includes('<b>@x</b>'));
  });
});

describe('escapeHtml', () => {
  test('escapes the five special characters and controls', () => {
    assert.equal(escapeHtml(`<a href="x">'&'</a>\u0007`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;\uFFFD');
    assert.equal(escapeHtml('a\nb'), 'a b');
    assert.equal(escapeHtml('a\nb', { multiline: true }), 'a\nb');
  });
});
