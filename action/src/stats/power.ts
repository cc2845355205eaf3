/**
 * How many samples per side would decide a comparison: the normal-theory
 * power calculation n = (z₁₋α/₂ + z_power)² · V / (δ² · ARE), where V is the
 * variance of one sample's contribution to the estimate (σ²_baseline +
 * σ²_current for two independent samples, σ²_d for paired differences), δ the
 * shift to detect (on the same scale), and ARE the asymptotic relative
 * efficiency of the rank method against the t-test (3/π ≈ 0.955 under
 * normality; at least 0.864 for any distribution). A variance that does not
 * shrink with n (between-run drift) makes some shifts undetectable at any n:
 * the answer is then null. Reference: Noether (1987), JASA 82:645; Lehmann,
 * Nonparametrics, 2.4.
 */
import { zQuantile } from './normal.js';

export interface PowerInput {
  /** Per-sample variance term V (see above), on the scale of delta. */
  variance: number;
  /** Variance that more samples do not reduce (e.g. 2·drift²); 0 when none. */
  fixedVariance: number;
  /** Smallest shift worth detecting, > 0. */
  delta: number;
  alpha: number;
  /** Desired probability of detecting a shift of delta. Default 0.8. */
  power: number;
  /** Efficiency of the test relative to the t-test (3/π for rank tests). */
  efficiency: number;
}

/** Samples per side (or rounds) needed; null when no finite number suffices. */
export function samplesNeeded(input: PowerInput): number | null {
  const { variance, fixedVariance, delta, alpha, power, efficiency } = input;
  if (!(delta > 0) || !(variance >= 0) || !(alpha > 0 && alpha < 1)) return null;
  const z = zQuantile(1 - alpha / 2) + zQuantile(power);
  const budget = (delta * delta) / (z * z) - fixedVariance;
  if (!(budget > 0)) return null;
  return Math.max(2, Math.ceil(variance / (budget * efficiency)));
}

/** Efficiency of Mann–Whitney and signed-rank tests against t under normality. */
export const RANK_TEST_EFFICIENCY = 3 / Math.PI;
