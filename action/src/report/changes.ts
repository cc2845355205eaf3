/**
 * The change points of `perf-gate history changes`, for people: a terminal
 * table and a Markdown table (benchmark ids are untrusted text: escaped).
 * Newest first, as the pipeline sorts them.
 */
import type { ChangeRow, ChangesReport } from '../gate/change-rows.js';
import { escapeMarkdown } from './escape-markdown.js';
import { escapeTerminal } from './escape-terminal.js';
import { formatChange, formatP, formatValue, plural, scaleFor, shortCommit } from './format.js';

const HEADER = ['benchmark', 'metric', 'testbed', 'commits', 'before → after', 'change (95% CI)', 'p', 'verdict'];

function cells(row: ChangeRow, escape: (text: string) => string): string[] {
  const scale = scaleFor(row.unit, [row.stats.meanBefore, row.stats.meanAfter]);
  return [
    escape(row.benchmark),
    escape(row.metric),
    escape(row.testbed),
    `${shortCommit(row.previousCommit)}..${shortCommit(row.commit)}`,
    `${formatValue(row.stats.meanBefore, scale)} → ${formatValue(row.stats.meanAfter, scale)} (${row.stats.nBefore} | ${row.stats.nAfter} runs)`,
    formatChange(row.change, row.interval),
    formatP(row.pValue),
    row.regression ? 'slower' : 'faster',
  ];
}

function summary(report: ChangesReport): string {
  const runs = Object.entries(report.runs).map(([testbed, n]) => `${n} on ${testbed}`).join(', ') || 'none';
  const regressions = report.changes.filter((c) => c.regression).length;
  return `${plural(report.changes.length, 'change point')} (${regressions} slower) in the runs (${runs}); E-Divisive means, window ${report.options.windowLength}, p ≤ ${report.options.maxPValue}`;
}

/** Aligned columns for the terminal. */
export function changesText(report: ChangesReport): string {
  const head = `${summary(report)}\n`;
  if (report.changes.length === 0) return head;
  const rows = [HEADER, ...report.changes.map((c) => cells(c, (t) => escapeTerminal(t)))];
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
  return head + rows.map((r) => r.map((cell, i) => cell + ' '.repeat(widths[i]! - [...cell].length)).join('  ').trimEnd()).join('\n') + '\n';
}

/** A Markdown table (the commit range as `a..b`), for a job summary or a file. */
export function changesMarkdown(report: ChangesReport): string {
  const lines = [`### Change points on main`, '', escapeMarkdown(summary(report)), ''];
  if (report.changes.length === 0) return `${lines.join('\n')}\n`;
  lines.push(`| ${HEADER.join(' | ')} |`, `| ${HEADER.map(() => '---').join(' | ')} |`);
  for (const c of report.changes) lines.push(`| ${cells(c, escapeMarkdown).join(' | ')} |`);
  return `${lines.join('\n')}\n`;
}
