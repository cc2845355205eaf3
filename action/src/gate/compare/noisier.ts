import {
  medianOfSorted,
  sortedAbsoluteDeviations,
  stddev,
  tailExcess,
  varianceRatioTest,
  widerSpreadOfDeviations,
  type Moments,
} from '../../stats/index.js';
import type { StrategyOptions } from './strategy.js';

/** One side's ascending values and their ascending absolute deviations from the median, computed once. */
export interface SortedSide {
  values: Float64Array;
  deviations: Float64Array;
}

export function sortedSide(sorted: Float64Array): SortedSide {
  return { values: sorted, deviations: sortedAbsoluteDeviations(sorted) };
}

/**
 * The `noisier` flag: the current side is less stable than the baseline.
 * Two ways to earn it, because users read both as instability:
 * - a wider spread: the rank Brown–Forsythe test on absolute deviations from
 *   each side's median, one-sided, at the strict `dispersionAlpha`, and the
 *   spread at least `dispersionRatio` times the baseline's (so a tiny but
 *   "significant" widening on huge samples does not count);
 * - a heavier upper tail: at least `tailMinCount` runs slower than
 *   `tailFactor` × the current median, more than the baseline's rate of such
 *   runs explains (one-sided binomial test at `tailAlpha`). A few runs twice
 *   as slow as the rest barely move the ranks, so the spread test alone would
 *   miss exactly what users notice.
 * Values are ascending, log values when the metric is positive, raw values
 * otherwise (then only the spread test runs).
 */
export function noisierSamples(
  baselineSide: SortedSide,
  currentSide: SortedSide,
  onLogScale: boolean,
  options: StrategyOptions,
): boolean {
  const baseline = baselineSide.values;
  const current = currentSide.values;
  if (baseline.length < 3 || current.length < 3) return false;
  const spread = widerSpreadOfDeviations(baselineSide.deviations, currentSide.deviations);
  if (spread.p < options.dispersionAlpha && spread.ratio >= options.dispersionRatio) return true;
  if (!onLogScale) return false;
  const limit = Math.log(options.tailFactor);
  const tailCount = (sorted: Float64Array): number => {
    const m = medianOfSorted(sorted);
    let k = 0;
    for (let i = sorted.length - 1; i >= 0 && (sorted[i] as number) - m > limit; i--) k++;
    return k;
  };
  const kc = tailCount(current);
  if (kc < options.tailMinCount) return false;
  const kb = tailCount(baseline);
  return tailExcess(kb, baseline.length, kc, current.length) < options.tailAlpha;
}

/** Summaries only: the one-sided F test on log variances, same alpha and ratio. */
export function noisierSummary(baseline: Moments, current: Moments, options: StrategyOptions): boolean {
  const r = varianceRatioTest(baseline, current);
  return r.p < options.dispersionAlpha && r.ratio >= options.dispersionRatio;
}

/**
 * A robust per-sample standard deviation: 1.4826 × the median absolute
 * deviation, or the plain one when that is 0.
 */
export function robustSigma(side: SortedSide): number {
  const mad = 1.482602218505602 * medianOfSorted(side.deviations);
  if (mad > 0) return mad;
  return side.values.length > 1 ? stddev(side.values) : 0;
}
