/**
 * How much a whole run's level moves from one run to the next on the same
 * machine, beyond what its own samples explain: the "drift" a comparison with
 * a stored baseline must allow for (docs/history.md, "Drift learned from
 * history").
 *
 * Each run contributes its level on the log scale (the median of its log
 * samples) and the variance of that level from its own samples. With a
 * run-to-run component of standard deviation σ_b, the difference of two
 * consecutive levels has variance 2σ_b² + v_i + v_(i−1). So
 *
 *   σ_total = 1.4826 · median |x_i − x_(i−1)| / √2   (robust scale of the differences)
 *   σ_b     = √max(0, σ_total² − mean v_i)
 *
 * Consecutive differences make the estimate robust to a real change in the
 * window (a step is one large difference, and the median ignores it) and to
 * a slow trend (it cancels in each difference), where the spread of the levels
 * themselves would count a step as drift. The median of |d| rather than the
 * MAD around the differences' median: the differences are centred on zero by
 * construction, and the uncentred form is more efficient at small counts.
 */
import { medianOfSorted, sortedCopy } from './descriptive.js';

/** 1 / Φ⁻¹(3/4): turns a median absolute value into a normal standard deviation. */
const MAD_TO_SIGMA = 1.482602218505602;

/** One run's level: a log-scale location and its variance from the run's own samples. */
export interface RunLevel {
  level: number;
  /** Variance of `level` due to the run's own samples (0 for a single value). */
  variance: number;
}

export interface BetweenRunDrift {
  /** Run-to-run standard deviation of the level, on the log scale. */
  sigma: number;
  /** Standard deviation of consecutive levels' differences / √2, before the within-run part is removed. */
  sigmaTotal: number;
  /** Levels used. */
  runs: number;
}

/**
 * The between-run drift of runs given in time order; null with fewer than two
 * levels (no difference to measure). Non-finite levels are skipped.
 */
export function betweenRunDrift(runs: readonly RunLevel[]): BetweenRunDrift | null {
  const usable = runs.filter((r) => Number.isFinite(r.level) && Number.isFinite(r.variance) && r.variance >= 0);
  if (usable.length < 2) return null;
  const diffs = new Float64Array(usable.length - 1);
  for (let i = 1; i < usable.length; i++) diffs[i - 1] = Math.abs(usable[i]!.level - usable[i - 1]!.level);
  const sigmaTotal = (MAD_TO_SIGMA * medianOfSorted(sortedCopy(diffs))) / Math.SQRT2;
  const within = usable.reduce((sum, r) => sum + r.variance, 0) / usable.length;
  const sigma = Math.sqrt(Math.max(0, sigmaTotal * sigmaTotal - within));
  return { sigma, sigmaTotal, runs: usable.length };
}

/**
 * A run's level from its samples: the median of the logs, and the variance of
 * that median, (π/2)·s²/n with s the robust standard deviation of the logs
 * (the large-sample variance of a normal sample's median). Null when a sample
 * is not positive (no log scale) or there is none.
 */
export function levelOfSamples(samples: readonly number[]): RunLevel | null {
  if (samples.length === 0 || samples.some((x) => !(x > 0) || !Number.isFinite(x))) return null;
  const logs = sortedCopy(samples.map(Math.log));
  const level = medianOfSorted(logs);
  const deviations = sortedCopy(Array.from(logs, (x) => Math.abs(x - level)));
  const s = MAD_TO_SIGMA * medianOfSorted(deviations);
  return { level, variance: (Math.PI / 2) * ((s * s) / logs.length) };
}
