import { formatInScale, formatNumber, pickScale } from '../model/index.js';
import type { BudgetCheck, SideStats, VerdictRow } from '../gate/types.js';

/**
 * The one place numbers become display text, shared by every human-readable
 * format (Markdown, terminal, HTML, annotations). Output is plain text: each
 * format escapes it (units of custom metrics come from harness output). JSON
 * does not come here: it keeps full precision.
 *
 * Odd data (NaN, infinities, missing sides) is shown as it is, never thrown.
 */

export type DisplayScale = ReturnType<typeof pickScale>;

/** Shown where a value does not exist (no baseline, no interval). */
export const NONE = '—';

const PERCENT_SCALE: DisplayScale = { factor: 0.01, symbol: '%' };

/** One scale for a set of values of a unit; fractions are shown as percentages. */
export function scaleFor(unit: string, values: ReadonlyArray<number | null | undefined>): DisplayScale {
  if (unit === 'fraction') return PERCENT_SCALE;
  return pickScale(
    unit,
    values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)),
  );
}

/**
 * The display scale of a row: baseline and current share it, so "4.46 ms" sits
 * beside "5.85 ms", never beside "0.00585 s". A row with no finite value takes
 * the scale of its budget limit.
 */
export function rowScale(row: VerdictRow): DisplayScale {
  const values = [row.baseline?.value, row.current?.value].filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  // Exact counts (syscalls, allocations) are shown whole: "1234" against "1235", not "1.23 k" twice.
  if (row.unit === 'count' && values.length > 0 && values.every((v) => Number.isInteger(v) && Math.abs(v) < 1e7)) return UNIT_SCALE;
  return scaleFor(row.unit, values.length > 0 ? values : [row.budget?.limit]);
}

const UNIT_SCALE: DisplayScale = { factor: 1, symbol: '' };

/** "4.46 ms"; "NaN" or "Infinity" as they are. */
export function formatValue(value: number, scale: DisplayScale): string {
  return Number.isFinite(value) ? formatInScale(value, scale) : String(value);
}

/**
 * One side of a row: "4.46 ms ± 0.39" (compared statistic ± standard deviation,
 * the deviation with as many decimals as the value so the two line up).
 */
export function formatSide(side: SideStats | null, scale: DisplayScale): string {
  if (!side) return NONE;
  const value = formatValue(side.value, scale);
  if (side.stddev === null || side.stddev === undefined) return value;
  return `${value} ± ${formatSpread(side.stddev / scale.factor, side.value / scale.factor)}`;
}

/** The standard deviation of a side alone, in the row's scale: "0.39 ms". */
export function formatStddev(side: SideStats | null, scale: DisplayScale): string {
  if (!side || side.stddev === null || side.stddev === undefined) return NONE;
  if (!Number.isFinite(side.stddev)) return String(side.stddev);
  const s = formatSpread(side.stddev / scale.factor, side.value / scale.factor);
  return scale.symbol ? `${s} ${scale.symbol}` : s;
}

function formatSpread(spread: number, value: number): string {
  if (!Number.isFinite(spread)) return String(spread);
  const decimals = Number.isFinite(value) ? (formatNumber(value).split('.')[1] ?? '').length : 2;
  const fixed = spread.toFixed(decimals);
  // A spread far below the value's last digit still deserves two significant digits.
  if (spread !== 0 && Number(fixed) === 0) return spread.toPrecision(2);
  return fixed;
}

/** A signed percentage number without the sign "%": "+31.2", "-4.0", "0.0". */
export function formatPercentNumber(fraction: number): string {
  if (!Number.isFinite(fraction)) return String(fraction);
  const pct = fraction * 100;
  const abs = Math.abs(pct);
  let digits: string;
  if (abs >= 1000) digits = abs.toFixed(0);
  else if (abs === 0 || abs >= 0.095) digits = abs.toFixed(1);
  else digits = abs.toPrecision(1);
  const sign = pct > 0 && Number(digits) !== 0 ? '+' : pct < 0 && Number(digits) !== 0 ? '-' : '';
  return `${sign}${digits}`;
}

/** A signed percentage: "+31.2 %". */
export function formatPercent(fraction: number): string {
  return `${formatPercentNumber(fraction)} %`;
}

/** An unsigned percentage without needless zeros, for tolerances: "5 %", "2.5 %". */
export function formatTolerance(fraction: number): string {
  if (!Number.isFinite(fraction)) return String(fraction);
  return `${trimZeros(formatPercentNumber(Math.abs(fraction)).replace(/^\+/, ''))} %`;
}

/**
 * The change and its interval: "+31.2 % [+27.0, +35.5]", "+31.2 %" without
 * one, "—" when none, "from 0" for a count that was zero (no percentage of
 * zero exists: a 0 → 1 count is not "+Infinity %").
 */
export function formatChange(change: number | null, ci: readonly [number, number] | null): string {
  if (change === null) return NONE;
  if (change === Infinity) return 'from 0';
  const main = formatPercent(change);
  if (!ci) return main;
  return `${main} [${formatPercentNumber(ci[0])}, ${formatPercentNumber(ci[1])}]`;
}

/** The confidence level as a label: "95% CI"; plain "CI" when unknown. */
export function formatCiLabel(level: number | null): string {
  if (level === null || !Number.isFinite(level)) return 'CI';
  return `${trimZeros((level * 100).toFixed(1))}% CI`;
}

/** A p-value: "p < 0.001", "p = 0.012", "—" when no test was made. */
export function formatP(p: number | null): string {
  if (p === null) return NONE;
  if (!Number.isFinite(p)) return `p = ${String(p)}`;
  if (p < 0.001) return 'p < 0.001';
  return `p = ${p.toFixed(3)}`;
}

/** A count with thousands separators: "5,000". */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const [int, frac] = String(n).split('.');
  const grouped = (int ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/** The limit of a budget: "≤ 10 ms", "p95 ≤ 10 ms", "≥ 100 /s". */
export function formatLimit(budget: BudgetCheck, scale: DisplayScale): string {
  const op = budget.kind === 'max' ? '≤' : '≥';
  const limit = formatLimitValue(budget, scale);
  return budget.stat === 'mean' ? `${op} ${limit}` : `${budget.stat} ${op} ${limit}`;
}

/** The limit alone, as written in budget files: "10 ms". */
export function formatLimitValue(budget: BudgetCheck, scale: DisplayScale): string {
  return Number.isFinite(budget.limit) ? trimZeros(formatValue(budget.limit, scale)) : String(budget.limit);
}

/** A broken budget: "mean 10.4 ms > 10 ms", "mean 80 /s < 100 /s". */
export function formatBreach(budget: BudgetCheck, scale: DisplayScale): string {
  return `${formatChecked(budget, scale)} ${budget.kind === 'max' ? '>' : '<'} ${formatLimitValue(budget, scale)}`;
}

/** The value a budget checked: "mean 10.4 ms". */
export function formatChecked(budget: BudgetCheck, scale: DisplayScale): string {
  return `${budget.stat} ${formatValue(budget.value, scale)}`;
}

/** A short commit: the first 7 characters of a hex SHA, anything else as it is. */
export function shortCommit(commit: string): string {
  return /^[0-9a-f]{40}$/i.test(commit) ? commit.slice(0, 7) : commit;
}

/** "1 regression" / "3 regressions". */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : pluralForm}`;
}

function trimZeros(text: string): string {
  return text.replace(/(\d)\.(\d*?)0+(?=\D|$)/, (_m, int: string, frac: string) => (frac ? `${int}.${frac}` : int));
}
