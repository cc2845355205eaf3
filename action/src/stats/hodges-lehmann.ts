/**
 * Hodges–Lehmann estimate of the shift between two samples and its
 * distribution-free (Moses) confidence interval.
 *
 * The estimate is the median of the m·n differences y[j] − x[i]; the interval
 * runs from the k-th smallest to the k-th largest difference, with k taken
 * from the null distribution of the Mann–Whitney U statistic, so it is the set
 * of shifts the rank test would not reject. Applied to log-transformed
 * benchmark times, the shift is a log ratio and exp(shift) − 1 a relative
 * change that is invariant to the unit and to scaling both sides.
 *
 * Assumptions: independent samples that differ by a shift (on the scale
 * used). Wrong tool when the runs drift in blocks (the interval is then too
 * narrow: clear a noise floor with it, or pair the runs) or when the change is
 * not a shift (e.g. only the tail grew: see dispersion.ts).
 *
 * Exact critical values (no ties assumed) for sizes up to `exactLimit`, as R's
 * wilcox.test(conf.int = TRUE); beyond, the normal approximation
 * k = ⌊mn/2 − z·√(mn(m+n+1)/12)⌋, which is slightly conservative.
 * Reference: Hollander & Wolfe, Nonparametric Statistical Methods, 4.3;
 * Lehmann, Nonparametrics (1975), ch. 2.
 */
import { sortedCopy } from './descriptive.js';
import { kthPairwiseDifference, nextPairwiseDifference, selectionWorkspace, type SelectionWorkspace } from './pairwise-selection.js';
import { uDistributionCdf, uQuantile } from './u-distribution.js';
import { zQuantile } from './normal.js';

export interface ShiftInterval {
  /** Median of the pairwise differences y − x. */
  estimate: number;
  lower: number;
  upper: number;
  /** Coverage the chosen order statistics actually give (≥ the requested level when exact). */
  achievedLevel: number;
  /** Rank k of the lower limit among the m·n sorted differences (1-based). */
  k: number;
  method: 'exact' | 'asymptotic';
}

export interface HodgesLehmannOptions {
  /** Requested coverage, default 0.95. */
  confidence: number;
  /** Largest size per side for exact critical values. Default 50. */
  exactLimit: number;
  /** Both samples are already ascending Float64Arrays (skips two sorted copies). Default false. */
  presorted: boolean;
}

export const DEFAULT_HODGES_LEHMANN: HodgesLehmannOptions = { confidence: 0.95, exactLimit: 50, presorted: false };

/** The shift of y relative to x (y − x): positive when y is larger. */
export function hodgesLehmannShift(
  x: readonly number[] | Float64Array,
  y: readonly number[] | Float64Array,
  options: Partial<HodgesLehmannOptions> = {},
): ShiftInterval {
  const o = { ...DEFAULT_HODGES_LEHMANN, ...options };
  const xs = o.presorted && x instanceof Float64Array ? x : sortedCopy(x);
  const ys = o.presorted && y instanceof Float64Array ? y : sortedCopy(y);
  const m = xs.length;
  const n = ys.length;
  const total = m * n;
  if (total === 0) return { estimate: NaN, lower: NaN, upper: NaN, achievedLevel: NaN, k: 0, method: 'asymptotic' };
  // Not `total >> 1`: m·n passes 2³¹ at about 46,341 samples a side, and a 32-bit shift would wrap it negative.
  const half = Math.floor(total / 2);
  const ws = selectionWorkspace(m);
  const estimate = total % 2 === 1 ? kthPairwiseDifference(xs, ys, half + 1, ws) : middlePair(xs, ys, half, ws);
  const alpha = 1 - o.confidence;
  let k: number;
  let achievedLevel: number;
  let method: 'exact' | 'asymptotic';
  if (m <= o.exactLimit && n <= o.exactLimit) {
    method = 'exact';
    k = Math.max(1, uQuantile(alpha / 2, m, n));
    achievedLevel = 1 - 2 * (uDistributionCdf(m, n)[k - 1] as number);
  } else {
    method = 'asymptotic';
    const sigma = Math.sqrt((total * (m + n + 1)) / 12);
    k = Math.max(1, Math.floor(total / 2 - zQuantile(1 - alpha / 2) * sigma));
    achievedLevel = o.confidence;
  }
  return {
    estimate,
    lower: kthPairwiseDifference(xs, ys, k, ws),
    upper: kthPairwiseDifference(xs, ys, total - k + 1, ws),
    achievedLevel,
    k,
    method,
  };
}

/** Mean of the k-th and (k+1)-th smallest differences; the second comes from the first in one sweep. */
function middlePair(xs: Float64Array, ys: Float64Array, k: number, ws: SelectionWorkspace): number {
  const a = kthPairwiseDifference(xs, ys, k, ws);
  return (a + nextPairwiseDifference(xs, ys, a, k)) / 2;
}
