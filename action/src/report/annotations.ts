import { unconfirmedText } from './stage-text.js';
import type { GateReport, VerdictRow } from '../gate/types.js';
import { stripVTControlCharacters } from 'node:util';
import { FLAG_TEXT } from './flags.js';
import { reasonText } from './reason-text.js';
import { warningText } from './warning-text.js';
import { formatChange, formatChecked, formatLimit, formatP, formatSide, formatTolerance, rowScale } from './format.js';
import { statusLabel } from './table.js';

/**
 * Annotations: the rows worth a line of their own in a check run or the
 * workflow log. One record shape serves both; the GitHub layer sends records
 * to the check-runs API (in batches of 50) and `workflowCommands` prints them
 * as `::error …::` lines. Text here is plain (neither API renders Markdown).
 *
 * Which rows: a failed benchmark and a gate-failing regression or budget are
 * `failure`; warn-severity ones `warning`; inconclusive, missing and noisier
 * rows `notice`; gate warnings `warning`. A budget annotation points at the
 * budget file and line it came from.
 */
export interface Annotation {
  level: 'failure' | 'warning' | 'notice';
  title: string;
  message: string;
  /** Repository-relative file, when the annotation belongs to one (a budget file). */
  file?: string;
  line?: number;
}

/** GitHub's limits: a title of 255 characters; messages are kept far below the 64 KB cap. */
const MAX_TITLE = 255;
const MAX_MESSAGE = 4000;
const LOG_TAIL_LINES = 10;

/** "budgets/scan.yml:7" → file and line; anything else → file only. */
export function parseSource(source: string): { file: string; line?: number } {
  const m = /^(.+?):(\d+)(?::\d+)?$/.exec(source);
  return m ? { file: m[1]!, line: Number(m[2]) } : { file: source };
}

/**
 * Annotations are plain text, so the only escaping is of what a terminal or
 * log viewer would act on: escape sequences are removed, other control
 * characters (except newline and tab in messages) become U+FFFD.
 */
export function plainText(text: string, multiline: boolean): string {
  const lines = stripVTControlCharacters(String(text)).replace(/\r\n?/g, '\n');
  const cleaned = multiline ? lines : lines.replace(/\n/g, ' ');
  return cleaned.replace(
    multiline ? /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g : /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g,
    '\uFFFD',
  );
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function make(level: Annotation['level'], title: string, message: string, where?: { file: string; line?: number }): Annotation {
  const a: Annotation = { level, title: clip(plainText(title, false), MAX_TITLE), message: clip(plainText(message, true), MAX_MESSAGE) };
  if (where) {
    a.file = plainText(where.file, false);
    if (where.line !== undefined) a.line = where.line;
  }
  return a;
}

function comparison(row: VerdictRow): string {
  const scale = rowScale(row);
  const p = row.p === null ? '' : `, ${formatP(row.p)}`;
  return `${row.metric}: ${formatSide(row.baseline, scale)} → ${formatSide(row.current, scale)} (${formatChange(row.change, row.ci)}${p}); tolerance ${formatTolerance(row.tolerance)}.`;
}

function rowAnnotations(row: VerdictRow): Annotation[] {
  const name = `${row.benchmark} · ${row.metric}`;
  const reason = reasonText(row.reason);
  const out: Annotation[] = [];
  if (row.status === 'failed') {
    const tail = row.error?.logTail
      ? `\n${row.error.logTail
          .replace(/\s+$/, '')
          .split(/\r\n|\r|\n/)
          .slice(-LOG_TAIL_LINES)
          .join('\n')}`
      : '';
    out.push(make('failure', `${row.benchmark} failed`, `${row.error?.message ?? reason}${tail}`));
  } else if (row.status === 'regressed') {
    out.push(make(row.failsGate ? 'failure' : 'warning', `${name} ${statusLabel(row)} ${formatChange(row.change, null)}`, `${comparison(row)} ${reason}`));
  } else if (row.status === 'suspected' && row.stage?.by === 'screen' && row.stage.suspect) {
    out.push(
      make(
        row.failsGate ? 'failure' : 'warning',
        `${name} suspected ${formatChange(row.change, null)}`,
        `${comparison(row)} ${unconfirmedText(row.stage.unconfirmed)}.`,
      ),
    );
  } else if (row.status === 'inconclusive') {
    const need = row.samplesNeeded !== null ? ` About ${row.samplesNeeded} samples per side would decide it.` : '';
    out.push(make('notice', `${name} inconclusive`, `${comparison(row)} ${reason}${need}`));
  } else if (row.status === 'missing') {
    out.push(make('notice', `${row.benchmark} missing`, `${row.metric} is in the baseline but not in this run. ${reason}`));
  }
  if (row.budget?.result === 'fail') {
    const b = row.budget;
    const scale = rowScale(row);
    out.push(
      make(
        b.severity === 'fail' ? 'failure' : 'warning',
        `${name} exceeds its budget`,
        `${formatChecked(b, scale)} breaks the budget ${formatLimit(b, scale)} (${b.source}, severity ${b.severity}).`,
        parseSource(b.source),
      ),
    );
  }
  if (row.flags.includes('noisier') && row.status !== 'failed') {
    out.push(make('notice', `${name} noisier`, `${comparison(row)} Noisier: ${FLAG_TEXT.noisier}.`));
  }
  return out;
}

/** Every annotation of a report, rows in the gate's order, then the gate's warnings. */
export function toAnnotations(report: GateReport): Annotation[] {
  return [...report.rows.flatMap(rowAnnotations), ...report.warnings.map((w) => make('warning', `perf-gate: ${w.code}`, warningText(w)))];
}

/** Escaping of a workflow command's message (actions/toolkit escapeData). */
export function escapeCommandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escaping of a workflow command's property value (actions/toolkit escapeProperty). */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const COMMAND: Record<Annotation['level'], string> = { failure: 'error', warning: 'warning', notice: 'notice' };

/** One `::error file=…,line=…,title=…::message` line per annotation, for the workflow log. */
export function workflowCommands(annotations: readonly Annotation[]): string {
  return annotations
    .map((a) => {
      const props: string[] = [];
      if (a.file !== undefined) props.push(`file=${escapeCommandProperty(a.file)}`);
      if (a.line !== undefined) props.push(`line=${a.line}`);
      props.push(`title=${escapeCommandProperty(a.title)}`);
      return `::${COMMAND[a.level]} ${props.join(',')}::${escapeCommandData(a.message)}\n`;
    })
    .join('');
}
