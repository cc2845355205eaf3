/**
 * The change points of `perf-gate history changes`, for people: a terminal
 * table and a Markdown table (benchmark ids are untrusted text: escaped).
 * Newest first, as the pipeline sorts them.
 */
import type { ChangeRow, ChangesReport } from '../gate/change-rows.js';
import { escapeMarkdown } from './escape-markdown.js';
import { escapeTerminal } from './escape-terminal.js';
import { formatChange, formatP, formatValue, plural, scaleFor, shortCommit } from './format.js';
import { acceptedChangeText } from './acceptance-text.js';
import { environmentChangesText } from './environment-text.js';

const HEADER = ['benchmark', 'metric', 'testbed', 'commits', 'before → after', 'change (95% CI)', 'p', 'verdict'];

function cells(row: ChangeRow, escape: (text: string) => string): string[] {
  const scale = scaleFor(row.unit, [row.stats.meanBefore, row.stats.meanAfter]);
  return [
    escape(row.benchmark),
    escape(row.metric),
    escape(row.testbed),
    `${shortCommit(row.previousCommit)}..${shortCommit(row.commit)}`,
    // Escaped as a whole: the `|` between the run counts would end a Markdown cell.
    escape(`${formatValue(row.stats.meanBefore, scale)} → ${formatValue(row.stats.meanAfter, scale)} (${row.stats.nBefore} | ${row.stats.nAfter} runs)`),
    formatChange(row.change, row.interval),
    formatP(row.pValue),
    (row.regression ? (row.accepted ? escape(acceptedChangeText(row.accepted)) : 'slower') : 'faster') +
      (row.environment ? escape(`; environment changed: ${environmentChangesText(row.environment)}`) : ''),
  ];
}

/** "new", "same", "moved from abc1234 (2 runs later)": against --previous. */
function sinceText(row: ChangeRow): string {
  const since = row.since;
  if (!since) return '';
  if (since.kind !== 'moved') return since.kind;
  return `moved from ${shortCommit(since.commit)} (${plural(Math.abs(since.runs), 'run')} ${since.runs < 0 ? 'earlier' : 'later'})`;
}

/** The earlier report's points this one no longer finds. */
function goneLines(report: ChangesReport, escape: (text: string) => string, bullet: string): string[] {
  return (report.gone ?? []).map(
    (g) =>
      `${bullet}${escape(g.benchmark)} ${escape(g.metric)} on ${escape(g.testbed)}: ${shortCommit(g.previousCommit)}..${shortCommit(g.commit)} ${formatChange(g.change, g.interval)} is no longer found`,
  );
}

function summary(report: ChangesReport): string {
  const runs =
    Object.entries(report.runs)
      .map(([testbed, n]) => `${n} on ${testbed}`)
      .join(', ') || 'none';
  const regressions = report.changes.filter((c) => c.regression).length;
  const byTime = Object.entries(report.order ?? {}).flatMap(([testbed, o]) =>
    o.by === 'time' ? [`\nruns of ${testbed} in the order they were recorded, not by commit: ${o.why}`] : [],
  );
  return `${plural(report.changes.length, 'change point')} (${regressions} slower) in the runs (${runs}); E-Divisive means, window ${report.options.windowLength}, p ≤ ${report.options.maxPValue}${byTime.join('')}`;
}

/** Aligned columns for the terminal. */
export function changesText(report: ChangesReport): string {
  const gone = goneLines(report, (t) => escapeTerminal(t), '  ');
  const head = `${summary(report)}\n${gone.length > 0 ? `gone since --previous:\n${gone.join('\n')}\n` : ''}`;
  if (report.changes.length === 0) return head;
  const compared = report.gone !== undefined;
  const header = compared ? [...HEADER, 'since --previous'] : HEADER;
  const rows = [header, ...report.changes.map((c) => [...cells(c, (t) => escapeTerminal(t)), ...(compared ? [sinceText(c)] : [])])];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
  return (
    head +
    rows
      .map((r) =>
        r
          .map((cell, i) => cell + ' '.repeat(widths[i]! - [...cell].length))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') +
    '\n'
  );
}

/** A Markdown table (the commit range as `a..b`), for a job summary or a file. */
export function changesMarkdown(report: ChangesReport): string {
  const gone = goneLines(report, escapeMarkdown, '- ');
  const lines = [
    `### Change points on main`,
    '',
    escapeMarkdown(summary(report)),
    '',
    ...(gone.length > 0 ? ['Gone since the earlier report:', '', ...gone, ''] : []),
  ];
  if (report.changes.length === 0) return `${lines.join('\n')}\n`;
  const compared = report.gone !== undefined;
  const header = compared ? [...HEADER, 'since earlier report'] : HEADER;
  lines.push(`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`);
  for (const c of report.changes) lines.push(`| ${[...cells(c, escapeMarkdown), ...(compared ? [sinceText(c)] : [])].join(' | ')} |`);
  return `${lines.join('\n')}\n`;
}
