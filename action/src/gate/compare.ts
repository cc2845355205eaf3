import type { Metric } from '../model/index.js';
import type { RowFlag, SideStats } from './types.js';

/**
 * The statistical comparison of one metric between baseline and current, the
 * heart of the decision rule in DESIGN.md ("Deciding regressed"). This module
 * picks the method from what each side has (samples, summary, single value,
 * exact count, paired rounds), applies Benjamini–Hochberg across all inputs of
 * one call (one call = one suite), and classifies each row. It knows nothing of
 * budgets, benchmark names or files.
 */

export interface ComparisonInput {
  baseline: Metric;
  current: Metric;
  /** Deterministic count: compare against the tolerance directly, no test. */
  exact: boolean;
  /** Samples are index-aligned by round (interleaved A/B): use the paired analysis. */
  paired: boolean;
  /** Regression tolerance as a fraction (0.05 = 5 %): a shift must exceed it to regress. */
  regression: number;
  /** Noise floor as a fraction: intervals inside ±noise are "unchanged". */
  noise: number;
  /** Significance level for this row, after false-discovery control across the call. */
  alpha: number;
}

export interface ComparisonOptions {
  /** Confidence level of the reported interval. Default 0.95. */
  confidence: number;
  /** Seed for any resampling, so verdicts are reproducible. */
  seed: number;
}

export const DEFAULT_COMPARISON_OPTIONS: ComparisonOptions = { confidence: 0.95, seed: 1 };

export interface Comparison {
  status: 'regressed' | 'improved' | 'unchanged' | 'inconclusive';
  /** current/baseline − 1 of the compared statistic (signed); "higher is worse" is NOT applied here. */
  change: number;
  ci: [number, number] | null;
  ciLevel: number | null;
  /** p-value after Benjamini–Hochberg across the call; null when no test was made. */
  p: number | null;
  /** Raw p-value before adjustment. */
  pRaw: number | null;
  flags: RowFlag[];
  /** Samples per side that would decide an inconclusive row; null otherwise. */
  samplesNeeded: number | null;
  /** One sentence: the method and why this status. */
  reason: string;
  baseline: SideStats;
  current: SideStats;
}

/** Compares every input; rows are returned in input order. */
export function compareMetrics(
  inputs: readonly ComparisonInput[],
  options: ComparisonOptions = DEFAULT_COMPARISON_OPTIONS,
): Comparison[] {
  void inputs;
  void options;
  throw new Error('compareMetrics: not implemented yet');
}

/** Descriptive statistics of one side (used for new/missing rows too). */
export function describeMetric(metric: Metric): SideStats {
  void metric;
  throw new Error('describeMetric: not implemented yet');
}
