import stringWidth from 'string-width';
import type { GateReport, VerdictRow } from '../gate/types.js';
import { escapeTerminal } from './escape-terminal.js';
import { FLAG_TEXT, flagsIn, rowNotes } from './flags.js';
import { warningText } from './warning-text.js';
import { environmentSentence } from './environment-text.js';
import { terminalProfiles } from './profile-text.js';
import { whyInconclusive } from './why-inconclusive.js';
import { stagesText } from './stage-text.js';
import { NUMERIC_COLUMNS, COLUMNS, orderRows, outcomeOf, statusLabel, tableCells, verdictText, type CellHooks } from './table.js';

/**
 * The terminal report of `perf-gate compare`: an aligned table (no Markdown),
 * failure logs, warnings and flags, and the verdict as the LAST line, where a
 * reader's eye lands after a long run. Colour only when asked (the caller
 * knows whether stdout is a TTY and whether NO_COLOR is set).
 */
export interface TerminalOptions {
  color: boolean;
  /** Terminal width in columns; the Benchmark column shrinks (middle ellipsis) to fit. */
  width?: number;
  /** Blocks of plain, already escaped text printed after the flags and before the verdict (the release report's change points and recommendations). */
  sections?: readonly string[];
}

const LOG_TAIL_LINES = 20;
const MIN_NAME_WIDTH = 16;
/** Room for the longest verdict label, "regressed (warn)". */
const VERDICT_LABEL_WIDTH = 16;

type Paint = (text: string, style: keyof typeof SGR) => string;
const SGR = { red: [31, 39], green: [32, 39], yellow: [33, 39], dim: [2, 22], bold: [1, 22] } as const;

function painter(color: boolean): Paint {
  return color ? (text, style) => `\u001b[${SGR[style][0]}m${text}\u001b[${SGR[style][1]}m` : (text) => text;
}

function statusStyle(row: VerdictRow): keyof typeof SGR {
  if (row.status === 'failed' || (row.status === 'regressed' && row.failsGate)) return 'red';
  if (['regressed', 'suspected', 'accepted', 'inconclusive', 'missing'].includes(row.status)) return 'yellow';
  if (row.status === 'improved') return 'green';
  return 'dim';
}

function hooksFor(paint: Paint): CellHooks {
  return {
    escape: (t) => escapeTerminal(t),
    verdict(row) {
      const notes = rowNotes(row);
      const label = paint(statusLabel(row), statusStyle(row));
      return notes.length > 0 ? `${label} (${escapeTerminal(notes.join(', '))})` : label;
    },
    budgetMark(result, severity) {
      if (result === 'pass') return paint('pass', 'green');
      return severity === 'warn' ? paint('warn', 'yellow') : paint('FAIL', 'red');
    },
  };
}

/**
 * Display width in columns. string-width handles emoji and East Asian wide
 * characters but is slow; text made only of printable ASCII, Latin letters
 * and the narrow symbols the table uses (±, —, ≤, µ, …) is measured by length.
 */
function width(text: string): number {
  return NARROW.test(text) ? text.length : stringWidth(text);
}
const NARROW = /^[\u0020-\u007e\u00a0-\u02ff\u2010-\u2027\u2030-\u205e\u2190-\u2319]*$/;

/** Shortens text to `width` columns, keeping both ends ("scan/prtip…127.0.0.1"). */
function fit(text: string, columns: number): string {
  if (width(text) <= columns) return text;
  const chars = [...text];
  let head = '';
  let tail = '';
  let i = 0;
  let j = chars.length - 1;
  let takeHead = true;
  while (i <= j) {
    const ch = takeHead ? chars[i]! : chars[j]!;
    if (width(head) + width(tail) + width(ch) + 1 > columns) break;
    if (takeHead) {
      head += ch;
      i++;
    } else {
      tail = ch + tail;
      j--;
    }
    takeHead = !takeHead;
  }
  return `${head}…${tail}`;
}

function pad(text: string, columns: number, right: boolean): string {
  const gap = ' '.repeat(Math.max(0, columns - width(text)));
  return right ? gap + text : text + gap;
}

export function renderTerminal(report: GateReport, options: TerminalOptions): string {
  const paint = painter(options.color);
  const hooks = hooksFor(paint);
  const rows = orderRows(report.rows);
  const cells = rows.map((r) => tableCells(r, hooks));
  const header = COLUMNS.map((c) => c as string);
  const widths = header.map((h, i) => Math.max(width(h), ...cells.map((c) => width(c[i]!))));
  if (options.width !== undefined) {
    // The last column (verdict and notes) is not padded: only its label counts toward the fit.
    const fixed = widths.slice(0, -1).reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
    const total = fixed + Math.min(widths[widths.length - 1]!, VERDICT_LABEL_WIDTH);
    const over = total - options.width;
    if (over > 0) widths[0] = Math.max(MIN_NAME_WIDTH, widths[0]! - over);
  }
  const line = (cs: string[]): string =>
    cs
      .map((c, i) => pad(i === 0 ? fit(c, widths[0]!) : c, widths[i]!, NUMERIC_COLUMNS.has(i)))
      .join('  ')
      .trimEnd();

  const out: string[] = [];
  const environment = environmentSentence(report.environment);
  if (environment !== '') out.push(paint(escapeTerminal(environment), 'yellow'), '');
  if (rows.length > 0) {
    out.push(paint(line(header), 'bold'));
    for (const c of cells) out.push(line(c));
  }
  const failed = onePerFailure(rows.filter((r) => r.status === 'failed' && r.error));
  if (failed.length > 0) {
    out.push('', paint('Failed benchmarks', 'bold'));
    for (const r of failed) {
      out.push(`  ${escapeTerminal(r.benchmark)}: ${escapeTerminal(r.error!.message)}`);
      const tail = r.error!.logTail ? escapeTerminal(r.error!.logTail, { multiline: true }).replace(/\s+$/, '').split('\n') : [];
      for (const l of tail.slice(-LOG_TAIL_LINES)) out.push(paint(`    │ ${l}`, 'dim'));
    }
  }
  if (report.stages) {
    out.push('', paint('Two stages', 'bold'));
    for (const l of stagesText(report.stages)) out.push(`  ${escapeTerminal(l)}`);
  }
  if (report.profiles) out.push('', paint('Why it got slower', 'bold'), ...terminalProfiles(report.profiles));
  const why = whyInconclusive(rows);
  if (why.lines.length > 0) {
    out.push('', paint('Why inconclusive', 'bold'));
    for (const l of why.lines) out.push(`  ${escapeTerminal(l.benchmark)} ${escapeTerminal(l.metric)}: ${escapeTerminal(l.reason)}`);
    if (why.more > 0) out.push(`  … and ${why.more} more (every row's reason is in the JSON report)`);
  }
  if (report.warnings.length > 0) {
    out.push('', paint('Warnings', 'bold'));
    for (const w of report.warnings) out.push(`  - ${escapeTerminal(warningText(w))}`);
  }
  const flags = flagsIn(rows);
  if (flags.length > 0) {
    out.push('', paint('Flags', 'bold'));
    for (const f of flags) out.push(`  ${f}: ${FLAG_TEXT[f]}`);
  }
  for (const section of options.sections ?? []) out.push('', section.replace(/\n+$/, ''));
  const outcome = outcomeOf(report);
  const verdict = outcome === 'fail' ? paint('✗ FAIL', 'red') : outcome === 'pass' ? paint('✓ PASS', 'green') : paint('✓ PASS', 'yellow');
  out.push('', `${verdict} — ${escapeTerminal(verdictText(report, outcome))}`);
  return `${out.join('\n').replace(/^\n+/, '')}\n`;
}

/** A benchmark that failed fails every metric with the same error: said once. */
function onePerFailure(rows: readonly VerdictRow[]): VerdictRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = `${r.benchmark}\u0000${r.error!.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
