import type { Direction, RowStatus } from '../model/index.js';
import type { RowReason } from './reason.js';
import type { GateWarning } from './warning.js';

export type { RowStatus };
export type { RowReason, ComparisonReason, ScalingReason, MethodUsed, ComparisonNote, TestedFacts, ScalingFitFacts } from './reason.js';
export type { GateWarning, GateWarningCode, SkippedFile } from './warning.js';

/** Flags a row can carry; the report explains each (see report/ for the wording). */
export type RowFlag =
  | 'noisier'
  | 'single-sample'
  | 'insufficient-samples'
  | 'different-testbed'
  | 'summary-only'
  | 'exact'
  | 'paired'
  | 'confirmed'
  | 'not-confirmed'
  | 'ignored'
  | 'baseline-failed';

/** Statistics of one side of a row, in base units (null fields where unknown). */
export interface SideStats {
  /** The compared statistic's value (median with samples, mean with a summary, or the single value). */
  value: number;
  n: number;
  mean: number | null;
  median: number | null;
  stddev: number | null;
  min: number | null;
  max: number | null;
}

/** The result of checking one budget limit against one side. */
export interface BudgetCheck {
  /** Which limit: "max" or "min". */
  kind: 'max' | 'min';
  /** The limit in base units. */
  limit: number;
  /** Which statistic of the current side was checked ("exponent": the fitted scaling exponent of a sweep). */
  stat: 'mean' | 'median' | 'p95' | 'max' | 'min' | 'exponent';
  /** The value that was checked (current side). */
  value: number;
  result: 'pass' | 'fail';
  /** The same limit checked on the baseline, for context; null without a baseline. */
  baselineResult: 'pass' | 'fail' | null;
  severity: 'fail' | 'warn';
  /** Where the budget came from: "budgets/scan.yml:7". */
  source: string;
}

/** One fully decided row: reporters show it and compute nothing that changes it. */
export interface VerdictRow {
  benchmark: string;
  metric: string;
  unit: string;
  direction: Direction;
  baseline: SideStats | null;
  current: SideStats | null;
  /** current/baseline − 1 of the compared statistic, signed; null when not comparable. */
  change: number | null;
  /** Confidence interval of the relative change [lo, hi], same sign convention; null when none. */
  ci: [number, number] | null;
  /** Confidence level of `ci` (e.g. 0.95). */
  ciLevel: number | null;
  /** p-value after false-discovery control across the suite; null when no test was made. */
  p: number | null;
  status: RowStatus;
  flags: RowFlag[];
  budget: BudgetCheck | null;
  /** Severity of a regression on this row (from the budgets). */
  severity: 'fail' | 'warn';
  /** The regression tolerance used (fraction). */
  tolerance: number;
  /** For inconclusive / insufficient-samples rows: samples per side that would decide it. */
  samplesNeeded: number | null;
  /** Why the row has its status, as data (method, reason for inconclusive, error); report/ words it. */
  reason: RowReason;
  /** For failed rows: the error message and log tail. */
  error: { message: string; logTail?: string } | null;
  /** Does this row make the gate fail? */
  failsGate: boolean;
  /**
   * Regressed rows gated against the run history: the metric's level (median)
   * in the last runs on main, oldest first, so a reviewer sees whether the
   * baseline itself was stable (gate/trend.ts).
   */
  trend?: number[];
}

export const REPORT_SCHEMA = 'perf-gate/report@1';

/** The gate's whole decision: what every reporter renders. */
export interface GateReport {
  schema: typeof REPORT_SCHEMA;
  verdict: 'pass' | 'fail';
  counts: Record<RowStatus, number> & { budgetFailed: number; budgetWarned: number };
  rows: VerdictRow[];
  warnings: GateWarning[];
  baseline: { commit?: string; ref?: string; created?: string; testbed?: string } | null;
  current: { commit?: string; ref?: string; created?: string; testbed?: string };
}
