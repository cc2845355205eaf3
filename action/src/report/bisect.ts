/**
 * `perf-gate bisect`'s report for people: the evidence (one row per
 * measurement: commit, subject, change with its interval, the gate's verdict,
 * and the side bisect put the commit on) and the outcome, as terminal text
 * and as Markdown. Commit subjects and authors are untrusted text: escaped.
 */
import type { BisectCommit, BisectReport, BisectStep, SideReason } from '../gate/bisect-steps.js';
import { escapeMarkdown } from './escape-markdown.js';
import { escapeTerminal } from './escape-terminal.js';
import { formatChange, formatCiLabel } from './format.js';

type Escape = (text: string) => string;

const SUBJECT_WIDTH = 48;

/** Why a step is on its side, in a few words. */
const REASON: Record<SideReason, string> = {
  'is-the-change': 'the change',
  'same-verdict-overlapping': 'same verdict, interval overlaps the change',
  unchanged: 'unchanged against good',
  'rules-out-change': 'interval rules the change out',
  'cannot-tell': 'cannot tell',
  'opposite-direction': 'a change the other way',
  'smaller-than-change': 'part of the change only',
  'larger-than-change': 'larger than the change',
  'not-measured': 'not measured on a side',
};

function shortSha(commit: BisectCommit): string {
  return commit.sha.slice(0, 7);
}

function clip(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, width - 1).join('')}…`;
}

function header(report: BisectReport): string[] {
  const level = report.steps.find((s) => s.ciLevel !== null)?.ciLevel ?? null;
  return ['step', 'commit', 'subject', `change (${formatCiLabel(level)})`, 'rounds', 'verdict', 'side'];
}

function cells(step: BisectStep, escape: Escape): string[] {
  return [
    `${step.step}${step.attempt > 1 ? ' (again)' : ''}`,
    shortSha(step.commit),
    escape(clip(step.commit.subject, SUBJECT_WIDTH)),
    formatChange(step.change, step.ci),
    String(step.rounds),
    step.status,
    `${step.side} (${REASON[step.reason]})`,
  ];
}

function commitLine(commit: BisectCommit, escape: Escape): string {
  return `${commit.sha} "${escape(commit.subject)}" by ${escape(commit.author)}`;
}

/** One sentence: what the search found. */
function outcomeText(report: BisectReport, escape: Escape): string[] {
  const o = report.outcome;
  const range = `${shortSha(report.good)} and ${shortSha(report.bad)}`;
  switch (o.kind) {
    case 'culprit':
      return [
        `culprit: ${commitLine(o.commit, escape)}`,
        `  the first commit whose step against good matches the change (${report.commits} commit(s) searched, ${report.steps.length} measurement(s))`,
      ];
    case 'no-step':
      return [`no step found between ${range}: bad against good is ${o.status}${o.status === 'inconclusive' ? ' (also with more rounds)' : ''}`];
    case 'inconclusive':
      return [
        `inconclusive at ${commitLine(o.commit, escape)}`,
        '  it could not be placed on either side, also with more rounds; the steps above are the evidence',
      ];
    case 'differs':
      return [
        `the change is not one step: ${commitLine(o.commit, escape)}`,
        '  shows a change of its own against good that differs from the full change (see its row); bisect the narrower ranges separately',
      ];
    case 'failed':
      return [`the benchmark could not be measured at ${commitLine(o.commit, escape)}`, '  see its step folder for the logs'];
  }
}

function title(report: BisectReport, escape: Escape): string {
  return `bisect ${escape(report.benchmark)} (${escape(report.metric)}): good ${shortSha(report.good)}, bad ${shortSha(report.bad)}, ${report.commits} commit(s) on the first-parent path`;
}

/** Aligned columns for the terminal. */
export function bisectText(report: BisectReport): string {
  const escape: Escape = (t) => escapeTerminal(t);
  const rows = [header(report), ...report.steps.map((s) => cells(s, escape))];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
  const table = rows.map((r) =>
    r
      .map((cell, i) => cell + ' '.repeat(widths[i]! - [...cell].length))
      .join('  ')
      .trimEnd(),
  );
  return `${title(report, escape)}\n\n${table.join('\n')}\n\n${outcomeText(report, escape).join('\n')}\n`;
}

/** A Markdown table and the outcome, for a job summary or an issue. */
export function bisectMarkdown(report: BisectReport): string {
  const head = header(report);
  const lines = [`### ${title(report, escapeMarkdown)}`, '', `| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const s of report.steps) lines.push(`| ${cells(s, escapeMarkdown).join(' | ')} |`);
  const [first, ...rest] = outcomeText(report, escapeMarkdown);
  lines.push('', `**${first!}**`, ...rest.map((l) => l.trim()));
  return `${lines.join('\n')}\n`;
}
