import type { GateReport, VerdictRow } from '../gate/types.js';
import { NONE, formatBreach, formatChange, formatCount, formatCiLabel, formatLimit, formatSide, plural, rowScale, type DisplayScale } from './format.js';

/**
 * The table every human-readable report shares: its columns, which section a
 * row belongs to and in what order sections come, the text of each cell and
 * the one-line verdict. Formats plug in only what differs (escaping, icons,
 * how a budget mark looks) through CellHooks, so Markdown, terminal, HTML and
 * the release report always agree on what a row says.
 */

/** Column headings, in order. The Δ heading names the usual confidence level. */
export const COLUMNS = ['Benchmark', 'Metric', 'Baseline', 'Current', 'Δ (95% CI)', 'Budget', 'Verdict'] as const;

/** Which columns hold numbers (right-aligned where a format aligns). */
export const NUMERIC_COLUMNS: ReadonlySet<number> = new Set([2, 3, 4]);

/**
 * Sections in reading order: what fails or needs attention first, good news
 * and non-news last. "budget" holds rows whose only problem is a budget.
 */
export type Section = 'failed' | 'regressed' | 'suspected' | 'budget' | 'accepted' | 'inconclusive' | 'new-missing' | 'improved' | 'unchanged';
export const SECTIONS: readonly Section[] = ['failed', 'regressed', 'suspected', 'budget', 'accepted', 'inconclusive', 'new-missing', 'improved', 'unchanged'];

/** Sections a short report folds away (Markdown `<details>`). */
export const FOLDED_SECTIONS: ReadonlySet<Section> = new Set<Section>(['improved', 'unchanged']);

export function sectionOf(row: VerdictRow): Section {
  if (row.status === 'failed') return 'failed';
  if (row.status === 'regressed') return 'regressed';
  if (row.status === 'suspected') return 'suspected';
  if (row.budget?.result === 'fail') return 'budget';
  if (row.status === 'accepted') return 'accepted';
  if (row.status === 'inconclusive') return 'inconclusive';
  if (row.status === 'new' || row.status === 'missing') return 'new-missing';
  return row.status;
}

/** Rows grouped by section, each group in the gate's order (a stable order). */
export function groupRows(rows: readonly VerdictRow[]): Record<Section, VerdictRow[]> {
  const groups = Object.fromEntries(SECTIONS.map((s) => [s, [] as VerdictRow[]])) as Record<Section, VerdictRow[]>;
  for (const row of rows) groups[sectionOf(row)].push(row);
  return groups;
}

/** Rows in reading order. */
export function orderRows(rows: readonly VerdictRow[]): VerdictRow[] {
  const groups = groupRows(rows);
  return SECTIONS.flatMap((s) => groups[s]);
}

/** The status word, with "(warn)" for a regression that only warns. */
export function statusLabel(row: VerdictRow): string {
  if (row.status === 'regressed' && !row.failsGate && row.severity === 'warn') return 'regressed (warn)';
  return row.status;
}

/**
 * What a format supplies: its escaper for untrusted text, and how verdict and
 * budget marks look. Numbers are formatted here and are safe in every format;
 * the only untrusted parts of a value cell are the unit symbol (custom metrics
 * carry the harness's unit) and names, and those are escaped.
 */
export interface CellHooks {
  /** Escapes untrusted text (names, units) for the format. */
  escape(text: string): string;
  /** The whole Verdict cell, already safe for the format. */
  verdict(row: VerdictRow): string;
  /** How a budget's outcome looks next to its limit (icons, colour); already safe. */
  budgetMark(result: 'pass' | 'fail', severity: 'fail' | 'warn'): string;
}

/** The Budget cell: "≤ 10 ms ✅"; on failure the checked value, "mean 10.4 ms > 10 ms ❌"; "(was ✅)" when the baseline differed. */
export function budgetCell(row: VerdictRow, scale: DisplayScale, hooks: CellHooks): string {
  const b = row.budget;
  if (!b) return NONE;
  const mark = hooks.budgetMark(b.result, b.severity);
  const text = b.result === 'fail' ? formatBreach(b, scale) : formatLimit(b, scale);
  const was = b.baselineResult !== null && b.baselineResult !== b.result ? ` (baseline ${hooks.budgetMark(b.baselineResult, b.severity)})` : '';
  return `${text} ${mark}${was}`;
}

/** The row's display scale with its unit symbol escaped for the format. */
export function escapedScale(row: VerdictRow, hooks: CellHooks): DisplayScale {
  const scale = rowScale(row);
  return { factor: scale.factor, symbol: hooks.escape(scale.symbol) };
}

/** The seven cells of a row, in COLUMNS order. */
export function tableCells(row: VerdictRow, hooks: CellHooks): string[] {
  const scale = escapedScale(row, hooks);
  const change = formatChange(row.change, row.ci);
  const level = row.ci && row.ciLevel !== null && Math.abs(row.ciLevel - 0.95) > 1e-9 ? ` (${formatCiLabel(row.ciLevel)})` : '';
  return [
    hooks.escape(row.benchmark),
    hooks.escape(row.metric),
    formatSide(row.baseline, scale),
    formatSide(row.current, scale),
    `${change}${level}`,
    budgetCell(row, scale, hooks),
    hooks.verdict(row),
  ];
}

/**
 * The one-line verdict without its icon: "3 regressions, 1 budget exceeded,
 * 12 unchanged". Counts come from the gate (report.counts), never recounted;
 * only failures are said per benchmark (a benchmark that failed fails every
 * metric it has, and "5 benchmarks failed" for one would be wrong).
 */
export function verdictParts(report: GateReport): string[] {
  const c = report.counts;
  const parts: string[] = [];
  if (c.failed) parts.push(`${plural(new Set(report.rows.filter((r) => r.status === 'failed').map((r) => r.benchmark)).size, 'benchmark')} failed`);
  if (c.regressed) parts.push(plural(c.regressed, 'regression'));
  if (c.budgetFailed) parts.push(`${plural(c.budgetFailed, 'budget')} exceeded`);
  if (c.suspected) parts.push(`${formatCount(c.suspected)} suspected`);
  if (c.accepted) parts.push(`${formatCount(c.accepted)} accepted`);
  if (c.budgetWarned) parts.push(plural(c.budgetWarned, 'budget warning'));
  if (c.inconclusive) parts.push(`${formatCount(c.inconclusive)} inconclusive`);
  if (c.new) parts.push(`${formatCount(c.new)} new`);
  if (c.missing) parts.push(`${formatCount(c.missing)} missing`);
  if (c.improved) parts.push(`${formatCount(c.improved)} improved`);
  if (c.unchanged) parts.push(`${formatCount(c.unchanged)} unchanged`);
  return parts;
}

/** How the verdict line opens: the gate's outcome in words. */
export type Outcome = 'fail' | 'pass' | 'pass-with-warnings' | 'resolved';

/**
 * The outcome to announce. "resolved" when the caller knows the previous run
 * failed and this one passes; "pass-with-warnings" when only warn-severity
 * regressions or budgets remain.
 */
export function outcomeOf(report: GateReport, previouslyFailed = false): Outcome {
  if (report.verdict === 'fail') return 'fail';
  if (previouslyFailed) return 'resolved';
  // An accepted regression passes, but is still a slowdown a reviewer should see on the verdict line.
  if (report.counts.regressed > 0 || report.counts.suspected > 0 || report.counts.accepted > 0 || report.counts.budgetWarned > 0) return 'pass-with-warnings';
  return 'pass';
}

/** "3 regressions, 1 budget exceeded, 12 unchanged" with its lead-in, no icon. */
export function verdictText(report: GateReport, outcome: Outcome): string {
  const parts = verdictParts(report);
  const list = parts.length > 0 ? parts.join(', ') : 'no benchmarks compared';
  switch (outcome) {
    case 'fail':
      return list;
    case 'pass-with-warnings':
      return `passes with warnings: ${list}`;
    case 'resolved':
      return `resolved, no regressions left: ${list}`;
    case 'pass':
      return report.counts.regressed === 0 && parts.length > 0 ? `no regressions: ${list}` : list;
  }
}

/** How to read the numbers: Δ is an estimate of its own, not the ratio of the two shown values. */
export const DELTA_EXPLAINED =
  'Values are medians (means where only summaries exist) ± standard deviation. Δ is the estimated change, current ÷ baseline − 1 (the median of all pairwise ratios), with its confidence interval.';
