/**
 * Power-law fit: how a metric grows with a parameter, y ≈ c · x^k, by
 * ordinary least squares of ln y on ln x. The slope k is the scaling exponent
 * (1 linear, 2 quadratic, 0.5 square-root), with a t-based confidence
 * interval from the residual spread.
 *
 * Assumptions: y and x positive; on the log scale the errors are roughly
 * normal, of equal size and independent across points (pass one central
 * value per point — the runs of one point share the block drift, so treating
 * them as independent points would overstate the confidence). The wrong tool
 * when a fixed cost dominates the small points (process start-up under a
 * millisecond-scale program bends the curve and lowers k) or when the growth
 * is not a power (exponential, or with a change of regime inside the range):
 * look at `r2` and the residuals. Reference: any regression text, e.g.
 * Draper & Smith, Applied Regression Analysis, ch. 1 (slope CI with t, n − 2 df).
 */
import tQuantile from '@stdlib/stats-base-dists-t-quantile';

export interface PowerLawOptions {
  /** Confidence level of the exponent's interval. Default 0.95. */
  confidence: number;
}

export const DEFAULT_POWER_LAW_OPTIONS: PowerLawOptions = { confidence: 0.95 };

export interface PowerLawFit {
  /** The fitted exponent k. */
  exponent: number;
  /** c in y ≈ c · x^k. */
  coefficient: number;
  /** Confidence interval of k; [−∞, ∞] with only two distinct x values. */
  ci: [number, number];
  confidence: number;
  /** Standard error of k (NaN with two points). */
  stderr: number;
  /** Points fitted. */
  n: number;
  /** Residual degrees of freedom (n − 2). */
  df: number;
  /** Share of the variance of ln y the fit explains. */
  r2: number;
  /** Things the caller must show, e.g. too few points for an interval. */
  warnings: string[];
}

/**
 * Fits y ≈ c · x^k. Throws RangeError for unusable input (mismatched lengths,
 * non-positive or non-finite values, fewer than two distinct x values): the
 * caller validates and names the data.
 */
export function fitPowerLaw(x: readonly number[], y: readonly number[], options: Partial<PowerLawOptions> = {}): PowerLawFit {
  const { confidence } = { ...DEFAULT_POWER_LAW_OPTIONS, ...options };
  if (x.length !== y.length) throw new RangeError(`x and y differ in length (${x.length} vs ${y.length})`);
  if ([...x, ...y].some((v) => !(v > 0) || !Number.isFinite(v))) throw new RangeError('a power-law fit needs positive, finite x and y');
  const n = x.length;
  const lx = x.map(Math.log);
  const ly = y.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / n;
  const my = ly.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = lx[i]! - mx;
    const dy = ly[i]! - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (!(sxx > 0)) throw new RangeError('a power-law fit needs at least two distinct x values');
  const exponent = sxy / sxx;
  const intercept = my - exponent * mx;
  const sse = Math.max(0, syy - exponent * sxy);
  const df = n - 2;
  const warnings: string[] = [];
  let stderr = NaN;
  let ci: [number, number] = [-Infinity, Infinity];
  if (df >= 1) {
    stderr = Math.sqrt(sse / df / sxx);
    const half = tQuantile(1 - (1 - confidence) / 2, df) * stderr;
    ci = [exponent - half, exponent + half];
  } else {
    warnings.push('two points give an exponent but no interval; measure at least three parameter values');
  }
  return { exponent, coefficient: Math.exp(intercept), ci, confidence, stderr, n, df, r2: syy > 0 ? 1 - sse / syy : 1, warnings };
}
