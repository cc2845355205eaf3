import {
  medianOfSorted,
  sortedAbsoluteDeviations,
  stddev,
  upperTailExcess,
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
 *   `tailFactor` × the current median, a share of the runs at least
 *   `tailMinExcess` above the baseline's share of runs beyond √`tailFactor` ×
 *   its median, and more than the baseline's rate explains (one-sided
 *   binomial test at `tailAlpha`: stats/upper-tail.ts). A few runs 1.5–2.5×
 *   as slow as the rest barely move the ranks, so the spread test alone would
 *   miss exactly what users notice; the minimum excess keeps a few stray
 *   runs in a long sample from counting.
 * Values are ascending, log values when the metric is positive, raw values
 * otherwise (then only the spread test runs).
 */
export function noisierSamples(baselineSide: SortedSide, currentSide: SortedSide, onLogScale: boolean, options: StrategyOptions): boolean {
  const baseline = baselineSide.values;
  const current = currentSide.values;
  if (baseline.length < 3 || current.length < 3) return false;
  const spread = widerSpreadOfDeviations(baselineSide.deviations, currentSide.deviations);
  if (spread.p < options.dispersionAlpha && spread.ratio >= options.dispersionRatio) return true;
  if (!onLogScale) return false;
  const tail = upperTailExcess(baseline, current, { factor: options.tailFactor, presorted: true });
  return tail.currentCount >= options.tailMinCount && tail.excess >= options.tailMinExcess && tail.p < options.tailAlpha;
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
