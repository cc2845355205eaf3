/**
 * Welch's unequal-variance t-test from summaries (mean, variance, n), with the
 * confidence interval of the difference, and the log-scale moments of a
 * positive quantity known only by its mean and standard deviation.
 *
 * Used when a harness gives aggregates only. On the log scale the difference
 * of means is a log ratio, so the result reads as a relative change like the
 * rank methods'. Assumes roughly normal log values and independent runs; with
 * a handful of runs and skewed times it is the weakest method here, which is
 * why such rows are flagged summary-only. Matches
 * scipy.stats.ttest_ind(equal_var=False) / ttest_ind_from_stats.
 * Reference: Welch (1947), Biometrika 34:28.
 */
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';

export interface Moments {
  mean: number;
  /** Sample variance (n − 1 denominator). */
  variance: number;
  n: number;
}

export interface WelchResult {
  /** (mean_x − mean_y) / se, scipy's sign convention. */
  t: number;
  df: number;
  p: number;
  /** mean_x − mean_y. */
  difference: number;
  lower: number;
  upper: number;
  se: number;
}

export function welch(x: Moments, y: Moments, confidence = 0.95): WelchResult {
  const vx = x.variance / x.n;
  const vy = y.variance / y.n;
  const se = Math.sqrt(vx + vy);
  const difference = x.mean - y.mean;
  const df = ((vx + vy) * (vx + vy)) / ((vx * vx) / (x.n - 1) + (vy * vy) / (y.n - 1));
  if (!(se > 0) || !Number.isFinite(df)) {
    const p = difference === 0 ? 1 : 0;
    return { t: difference === 0 ? NaN : Math.sign(difference) * Infinity, df: NaN, p, difference, lower: difference, upper: difference, se: 0 };
  }
  const t = difference / se;
  const p = Math.min(1, 2 * tCdf(-Math.abs(t), df));
  const half = tQuantile(1 - (1 - confidence) / 2, df) * se;
  return { t, df, p, difference, lower: difference - half, upper: difference + half, se };
}

/**
 * Mean and variance of log(X) for a positive X with the given mean and
 * standard deviation, by matching a log-normal: σ² = log(1 + (sd/mean)²),
 * μ = log(mean) − σ²/2. To first order this is the delta method
 * (Var log X ≈ (sd/mean)²) and it stays sensible when sd/mean is large.
 */
export function logMoments(mean: number, sd: number, n: number): Moments {
  const cv = sd / mean;
  const variance = Math.log1p(cv * cv);
  return { mean: Math.log(mean) - variance / 2, variance, n };
}
