import type { GateReport, VerdictRow } from '../gate/types.js';
import { codeBlock, escapeMarkdown } from './escape-markdown.js';
import { FLAG_TEXT, flagsIn, rowNotes } from './flags.js';
import { reasonText } from './reason-text.js';
import { warningText } from './warning-text.js';
import { environmentSentence } from './environment-text.js';
import { markdownProfiles } from './profile-text.js';
import { whyInconclusive } from './why-inconclusive.js';
import { formatCount, formatValue, plural, rowScale, shortCommit } from './format.js';
import { sparkline } from './sparkline.js';
import { stagesText } from './stage-text.js';
import {
  COLUMNS,
  DELTA_EXPLAINED,
  NUMERIC_COLUMNS,
  groupRows,
  outcomeOf,
  statusLabel,
  tableCells,
  verdictText,
  type CellHooks,
  type Outcome,
  type Section,
} from './table.js';

/**
 * The Markdown report: a PR comment or a job summary. Pure: report and options
 * in, text out; the caller decides where it goes.
 *
 * Layout: the one-line verdict, the truncation notice (when truncated), the
 * baseline/current line, one table of what needs attention (failed,
 * regressed, budget, inconclusive, new/missing), the improved and unchanged
 * rows folded under <details>, failure logs, warnings, a legend of the flags
 * shown, the marker. Every untrusted string goes through escapeMarkdown (or
 * codeBlock for logs).
 *
 * Size: GitHub refuses comments over 65,536 characters. The report never
 * exceeds `maxLength`: it leaves out unchanged rows first, then improved rows,
 * then failure logs, then rows of the main table from the end, and says how
 * much is missing and where the full report is. The marker stays the last line.
 */
export interface MarkdownOptions {
  /** Heading text after the icon; default "perf-gate". Escaped (it may come from config). */
  title?: string;
  /**
   * A hidden HTML comment placed at the very end, for finding the sticky
   * comment again (github/sticky-comment.ts owns its format). Must be one
   * comment: "<!--", text without "-->", "-->".
   */
  marker?: string;
  /** Upper bound of the result's size (see `measure`). Default 65,536, GitHub's comment limit. */
  maxLength?: number;
  /**
   * Trusted Markdown saying where the full report is, used in the truncation
   * notice, e.g. "See the job summary and the `perf-gate-report` artifact."
   */
  fullReportHint?: string;
  /** The previous run of this gate failed: a passing report announces "✅ resolved". */
  previouslyFailed?: boolean;
  /** How size is counted: UTF-16 characters (comments) or UTF-8 bytes (the job summary). */
  measure?: 'chars' | 'utf8-bytes';
}

export const GITHUB_COMMENT_LIMIT = 65_536;
const DEFAULT_HINT = 'The JSON report (`--json FILE`) has every row.';
/** How much of a failed benchmark's log a comment shows; the JSON keeps all of it. */
const LOG_TAIL_LINES = 40;
const LOG_TAIL_CHARS = 4000;
const MAX_WARNINGS = 20;
const MAX_WARNING_CHARS = 600;

const ICON: Record<VerdictRow['status'], string> = {
  failed: '💥',
  regressed: '❌',
  improved: '🚀',
  unchanged: '➖',
  inconclusive: '❔',
  suspected: '⚠️',
  accepted: '☑️',
  new: '🆕',
  missing: '🚫',
};

const OUTCOME_ICON: Record<Outcome, string> = { fail: '❌', pass: '✅', 'pass-with-warnings': '⚠️', resolved: '✅' };

/** Markdown's cell hooks, shared with the release report. */
export const MARKDOWN_HOOKS: CellHooks = {
  escape: escapeMarkdown,
  verdict(row) {
    const icon = row.status === 'regressed' && !row.failsGate ? '⚠️' : ICON[row.status];
    const notes = rowNotes(row);
    const sub = notes.length > 0 ? `<br><sub>${escapeMarkdown(notes.join(' · '))}</sub>` : '';
    return `${icon} ${escapeMarkdown(statusLabel(row))}${sub}`;
  },
  budgetMark(result, severity) {
    if (result === 'pass') return '✅';
    return severity === 'warn' ? '⚠️' : '❌';
  },
};

/** A Markdown table of rows (header included), one line per row. */
export function markdownTable(rows: readonly VerdictRow[], hooks: CellHooks = MARKDOWN_HOOKS): string {
  return [tableHeader(), ...rows.map((r) => tableLine(r, hooks))].join('\n');
}

function tableHeader(): string {
  const align = COLUMNS.map((_c, i) => (NUMERIC_COLUMNS.has(i) ? '--:' : ':--'));
  return `| ${COLUMNS.join(' | ')} |\n| ${align.join(' | ')} |`;
}

function tableLine(row: VerdictRow, hooks: CellHooks): string {
  return `| ${tableCells(row, hooks).join(' | ')} |`;
}

/** The one-line verdict: "❌ perf-gate — 3 regressions, 1 budget exceeded, 12 unchanged". */
export function markdownHeadline(report: GateReport, options: { title?: string; previouslyFailed?: boolean } = {}): string {
  const outcome = outcomeOf(report, options.previouslyFailed);
  const title = escapeMarkdown(options.title ?? 'perf-gate');
  return `### ${OUTCOME_ICON[outcome]} ${title} — ${escapeMarkdown(verdictText(report, outcome))}`;
}

/** The two stages of a two-stage verdict and their cost, or '' for a run of one stage. */
export function markdownStages(report: GateReport): string {
  return report.stages
    ? stagesText(report.stages)
        .map((l) => escapeMarkdown(l))
        .join('<br>\n')
    : '';
}

/** "Baseline abc1234 (refs/heads/main) → current def5678", or why there is no baseline, and how to read Δ. */
export function markdownContext(report: GateReport): string {
  const side = (s: GateReport['current']): string | null => {
    if (!s.commit && !s.ref) return null;
    const commit = s.commit ? `<code>${escapeMarkdown(shortCommit(s.commit))}</code>` : 'working tree';
    return s.ref ? `${commit} (${escapeMarkdown(s.ref)})` : commit;
  };
  const current = side(report.current);
  const baseline = report.baseline ? side(report.baseline) : null;
  const context = !report.baseline
    ? `No baseline${current ? `; current ${current}` : ''}.`
    : baseline || current
      ? `Baseline ${baseline ?? 'file'} → current ${current ?? 'file'}.`
      : '';
  return `<sub>${context ? `${context} ` : ''}${DELTA_EXPLAINED}</sub>`;
}

/** The environment change since the baseline, in bold above the table, or ''. */
export function markdownEnvironment(report: GateReport): string {
  const sentence = environmentSentence(report.environment);
  return sentence === '' ? '' : `🔧 **${escapeMarkdown(sentence)}**`;
}

interface Failure {
  row: VerdictRow;
  text: string;
}

function failureEntry(row: VerdictRow): Failure {
  const message = row.error?.message ?? reasonText(row.reason);
  const head = `💥 <b>${escapeMarkdown(row.benchmark)}</b>: ${escapeMarkdown(message)}`;
  const tail = row.error?.logTail;
  if (!tail || tail.trim() === '') return { row, text: head };
  return { row, text: `<details><summary>${head}</summary>\n\n${codeBlock(lastLines(tail))}\n\n</details>` };
}

/** The "Failed benchmarks" block: one entry per failed benchmark, its log tail folded. */
export function markdownFailures(rows: readonly VerdictRow[]): string {
  const entries = dedupeFailures(rows.filter((r) => r.status === 'failed')).map((r) => failureEntry(r).text);
  return entries.length > 0 ? ['**Failed benchmarks**', ...entries].join('\n\n') : '';
}

/** The warnings list, or '' when there are none. */
export function markdownWarnings(report: GateReport): string {
  return warningLines(report);
}

/** The legend of the flags the rows carry, or '' when none. */
export function markdownLegend(rows: readonly VerdictRow[]): string {
  return legend(rows);
}

function lastLines(text: string): string {
  const lines = text.replace(/\s+$/, '').split(/\r\n|\r|\n/);
  let tail = lines.slice(-LOG_TAIL_LINES).join('\n');
  if (tail.length > LOG_TAIL_CHARS) tail = tail.slice(-LOG_TAIL_CHARS);
  return lines.length > LOG_TAIL_LINES || tail.length < text.length ? `… (last lines of the log)\n${tail}` : tail;
}

function warningLines(report: GateReport): string {
  if (report.warnings.length === 0) return '';
  const shown = report.warnings.slice(0, MAX_WARNINGS).map((w) => {
    const message = warningText(w);
    const text = message.length > MAX_WARNING_CHARS ? `${message.slice(0, MAX_WARNING_CHARS)}…` : message;
    return `- ⚠️ ${escapeMarkdown(text)}`;
  });
  const more = report.warnings.length > MAX_WARNINGS ? [`- … and ${formatCount(report.warnings.length - MAX_WARNINGS)} more warnings`] : [];
  return ['**Warnings**', '', ...shown, ...more].join('\n');
}

/** Regressed rows shown with their trend on main at most. */
const MAX_TRENDS = 10;

/**
 * The last runs on main of each shown regressed row, then this run, as a
 * sparkline on one scale: a step at the end is this change; bars that already
 * wander say the baseline itself was not stable. '' when no row has a trend.
 */
function trendLines(rows: readonly VerdictRow[]): string {
  const withTrend = rows.filter((r) => r.trend && r.trend.length >= 2 && r.current);
  if (withTrend.length === 0) return '';
  const items = withTrend.slice(0, MAX_TRENDS).map((r) => {
    const trend = r.trend!;
    const now = r.current!.value;
    const all = [...trend, now];
    const scale = { ...rowScale(r) };
    scale.symbol = escapeMarkdown(scale.symbol);
    const lo = Math.min(...trend);
    const hi = Math.max(...trend);
    return `- **${escapeMarkdown(r.benchmark)}** ${escapeMarkdown(r.metric)}: \`${sparkline(trend, Math.min(...all), Math.max(...all))}\` → \`${sparkline([now], Math.min(...all), Math.max(...all))}\` main ${formatValue(lo, scale)} … ${formatValue(hi, scale)} over ${trend.length} runs, this run ${formatValue(now, scale)}`;
  });
  const more = withTrend.length > MAX_TRENDS ? [`- … and ${formatCount(withTrend.length - MAX_TRENDS)} more`] : [];
  return ["**Trend on main** (each run's median, oldest first, then this run):", '', ...items, ...more].join('\n');
}

/** Why the shown inconclusive rows are inconclusive, folded; '' when none is. */
function inconclusiveLines(rows: readonly VerdictRow[]): string {
  const why = whyInconclusive(rows);
  if (why.lines.length === 0) return '';
  const items = why.lines.map((l) => `- **${escapeMarkdown(l.benchmark)}** ${escapeMarkdown(l.metric)}: ${escapeMarkdown(l.reason)}`);
  const more = why.more > 0 ? [`- … and ${formatCount(why.more)} more (every row's reason is in the JSON report)`] : [];
  const count = why.lines.length + why.more;
  return `<details><summary>Why ${plural(count, 'row is', 'rows are')} inconclusive</summary>

${[...items, ...more].join('\n')}

</details>`;
}

function legend(rows: readonly VerdictRow[]): string {
  const flags = flagsIn(rows);
  if (flags.length === 0) return '';
  return ['**Flags**', '', ...flags.map((f) => `- **${f}**: ${FLAG_TEXT[f]}`)].join('\n');
}

function folded(section: Section, rows: readonly VerdictRow[], total: number, table: (rows: readonly VerdictRow[]) => string): string {
  if (rows.length === 0) return '';
  const label = section === 'improved' ? `${formatCount(total)} improved` : `${formatCount(total)} unchanged`;
  const shown = rows.length < total ? ` (${formatCount(rows.length)} shown)` : '';
  return `<details><summary>${label}${shown}</summary>\n\n${table(rows)}\n\n</details>`;
}

/** How many of each kind of item a rendering keeps; the rest is left out, in this priority order. */
interface Keep {
  main: number;
  failures: number;
  improved: number;
  unchanged: number;
}

export function renderMarkdown(report: GateReport, options: MarkdownOptions = {}): string {
  const maxLength = options.maxLength ?? GITHUB_COMMENT_LIMIT;
  const marker = options.marker ?? '';
  if (marker !== '' && !/^<!--(?:(?!-->|--!>)[^])*-->$/.test(marker)) {
    throw new Error(`renderMarkdown: marker must be one HTML comment like "<!-- perf-gate -->", got ${JSON.stringify(marker)}`);
  }
  const measure = options.measure === 'utf8-bytes' ? (t: string) => Buffer.byteLength(t, 'utf8') : (t: string) => t.length;

  const groups = groupRows(report.rows);
  const main = [
    ...groups.failed,
    ...groups.regressed,
    ...groups.suspected,
    ...groups.budget,
    ...groups.accepted,
    ...groups.inconclusive,
    ...groups['new-missing'],
  ];
  const failures = dedupeFailures(groups.failed).map(failureEntry);
  const all: Keep = { main: main.length, failures: failures.length, improved: groups.improved.length, unchanged: groups.unchanged.length };

  // Rows are rendered once and reused by every attempt at fitting the limit.
  const lines = new Map<VerdictRow, string>();
  const lineOf = (r: VerdictRow): string => {
    let l = lines.get(r);
    if (l === undefined) {
      l = tableLine(r, MARKDOWN_HOOKS);
      lines.set(r, l);
    }
    return l;
  };
  const table = (rows: readonly VerdictRow[]): string => [tableHeader(), ...rows.map(lineOf)].join('\n');
  const render = (keep: Keep, truncated: boolean): string => {
    const shownRows = [...main.slice(0, keep.main), ...groups.improved.slice(0, keep.improved), ...groups.unchanged.slice(0, keep.unchanged)];
    const mainTable = keep.main > 0 ? table(main.slice(0, keep.main)) : '';
    const blocks = [
      markdownHeadline(report, options),
      truncated
        ? truncationNotice(
            report.rows.length,
            shownRows.length,
            failures.length - keep.failures,
            `${formatCount(maxLength)} ${options.measure === 'utf8-bytes' ? 'bytes' : 'characters'}`,
            options.fullReportHint,
          )
        : '',
      markdownContext(report),
      markdownEnvironment(report),
      markdownStages(report),
      mainTable,
      folded('improved', groups.improved.slice(0, keep.improved), all.improved, table),
      folded('unchanged', groups.unchanged.slice(0, keep.unchanged), all.unchanged, table),
      keep.failures > 0 ? ['**Failed benchmarks**', ...failures.slice(0, keep.failures).map((f) => f.text)].join('\n\n') : '',
      trendLines(main.slice(0, keep.main)),
      markdownProfiles(report.profiles),
      inconclusiveLines(main.slice(0, keep.main)),
      warningLines(report),
      legend(shownRows),
      marker,
    ];
    return blocks.filter((b) => b !== '').join('\n\n');
  };

  const full = render(all, false);
  if (measure(full) <= maxLength) return full;
  return renderTruncated(render, all, measure, maxLength, {
    main: main.map((r) => measure(lineOf(r)) + 1),
    failures: failures.map((f) => measure(f.text) + 2),
    improved: groups.improved.map((r) => measure(lineOf(r)) + 1),
    unchanged: groups.unchanged.map((r) => measure(lineOf(r)) + 1),
  });
}

/**
 * Picks how much to keep: items are taken in priority order (main table rows,
 * failure logs, improved rows, unchanged rows) while they fit; the first one
 * that does not fit ends the filling, so nothing is skipped out of order.
 * Section overheads (table headers, <details>, legend) are estimated generously
 * and the result is checked; a rare overshoot removes more items.
 */
function renderTruncated(
  render: (keep: Keep, truncated: boolean) => string,
  all: Keep,
  measure: (t: string) => number,
  maxLength: number,
  costs: Record<keyof Keep, number[]>,
): string {
  const none: Keep = { main: 0, failures: 0, improved: 0, unchanged: 0 };
  const skeleton = render(none, true);
  if (measure(skeleton) > maxLength) {
    throw new RangeError(`renderMarkdown: maxLength ${maxLength} cannot hold even the verdict, notice and marker (${measure(skeleton)})`);
  }
  // Table headers, <details> wrappers, the "shown" counts and a legend of every flag.
  const overhead = 4 * 400 + Object.values(FLAG_TEXT).reduce((n, t) => n + t.length + 40, 0);
  let budget = maxLength - measure(skeleton) - overhead;
  const keep: Keep = { ...none };
  fill: for (const kind of ['main', 'failures', 'improved', 'unchanged'] as const) {
    for (const cost of costs[kind]) {
      if (cost > budget) break fill;
      budget -= cost;
      keep[kind] += 1;
    }
  }
  let text = render(keep, true);
  for (let guard = 0; measure(text) > maxLength && guard < 100; guard++) {
    const kind = (['unchanged', 'improved', 'failures', 'main'] as const).find((k) => keep[k] > 0);
    if (!kind) break;
    keep[kind] = Math.max(0, keep[kind] - Math.max(1, Math.ceil(keep[kind] / 10)));
    text = render(keep, true);
  }
  return measure(text) <= maxLength ? text : skeleton;
}

function truncationNotice(totalRows: number, shownRows: number, logsLeftOut: number, limit: string, hint?: string): string {
  const logs = logsLeftOut > 0 ? ` and ${plural(logsLeftOut, 'failure log')}` : '';
  return `> [!WARNING]\n> **Truncated:** ${formatCount(totalRows - shownRows)} of ${formatCount(totalRows)} rows${logs} are left out to stay within ${limit}; the verdict above counts every row. ${hint ?? DEFAULT_HINT}`;
}

/** One failure entry per benchmark and message (a failed benchmark may carry several metric rows). */
function dedupeFailures(rows: readonly VerdictRow[]): VerdictRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = `${r.benchmark}\u0000${r.error?.message ?? reasonText(r.reason)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
