import { mean, quantileOfSorted } from '../../../action/src/stats/descriptive.js';
import { seededRandom, type Random } from '../../../action/src/stats/prng.js';
import type { Rule, TrialSamples } from './rule.js';

/**
 * criterion.rs's comparison with the saved baseline:
 * 1. Welch's t statistic of the two samples; its null distribution is
 *    bootstrapped by drawing both resamples from the pooled samples
 *    ("mixed" bootstrap); two-tailed p-value; "changed" when p < 0.05.
 * 2. The relative change of the mean, mean(current*) / mean(baseline*) − 1,
 *    bootstrapped with independent resamples of each side; its 95 %
 *    percentile interval.
 * 3. "Regressed" when changed and the whole interval lies above
 *    +noise_threshold (0.01); "improved" symmetrically; else within noise.
 * criterion resamples 100,000 times by default; we use 10,000 (p-values near
 * 0.05 move by less than 0.005), with a fixed seed per call.
 * Source: bheisler/criterion.rs, src/analysis/compare.rs (t_test with
 * mixed::bootstrap, estimates with univariate::bootstrap,
 * compare_to_threshold) and the defaults in src/lib.rs (significance_level
 * 0.05, noise_threshold 0.01, confidence_level 0.95).
 */
export interface CriterionOptions {
  significance: number;
  noiseThreshold: number;
  confidence: number;
  resamples: number;
  seed: number;
}

export const CRITERION_DEFAULTS: CriterionOptions = {
  significance: 0.05,
  noiseThreshold: 0.01,
  confidence: 0.95,
  resamples: 10_000,
  seed: 7,
};

function welchT(a: ArrayLike<number>, na: number, b: ArrayLike<number>, nb: number): number {
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < na; i++) ma += a[i] as number;
  for (let i = 0; i < nb; i++) mb += b[i] as number;
  ma /= na;
  mb /= nb;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < na; i++) va += ((a[i] as number) - ma) ** 2;
  for (let i = 0; i < nb; i++) vb += ((b[i] as number) - mb) ** 2;
  va /= na - 1;
  vb /= nb - 1;
  return (ma - mb) / Math.sqrt(va / na + vb / nb);
}

export interface CriterionResult {
  p: number;
  ci: [number, number];
  change: number;
  regressed: boolean;
}

function resampleInto(out: Float64Array, from: ArrayLike<number>, n: number, random: Random): void {
  for (let i = 0; i < out.length; i++) out[i] = from[random.int(n)] as number;
}

export function criterionCompare(trial: TrialSamples, options: CriterionOptions = CRITERION_DEFAULTS): CriterionResult {
  const cur = trial.current;
  const base = trial.baseline;
  const nc = cur.length;
  const nb = base.length;
  const random = seededRandom(options.seed);
  const t = welchT(cur, nc, base, nb);
  const pooled = [...cur, ...base];
  const xa = new Float64Array(nc);
  const xb = new Float64Array(nb);
  let below = 0;
  for (let r = 0; r < options.resamples; r++) {
    resampleInto(xa, pooled, pooled.length, random);
    resampleInto(xb, pooled, pooled.length, random);
    if (welchT(xa, nc, xb, nb) < t) below++;
  }
  const fraction = below / options.resamples;
  const p = Number.isFinite(t) ? 2 * Math.min(fraction, 1 - fraction) : 1;
  const changes = new Float64Array(options.resamples);
  for (let r = 0; r < options.resamples; r++) {
    resampleInto(xa, cur, nc, random);
    resampleInto(xb, base, nb, random);
    let sa = 0;
    let sb = 0;
    for (const x of xa) sa += x;
    for (const x of xb) sb += x;
    changes[r] = sa / nc / (sb / nb) - 1;
  }
  const sorted = changes.sort(); // typed arrays sort numerically
  const tail = (1 - options.confidence) / 2;
  const ci: [number, number] = [quantileOfSorted(sorted, tail), quantileOfSorted(sorted, 1 - tail)];
  const change = mean(cur) / mean(base) - 1;
  const regressed = p < options.significance && ci[0] > options.noiseThreshold && ci[1] > options.noiseThreshold;
  return { p, ci, change, regressed };
}

export const criterionRule: Rule = {
  name: 'criterion.rs',
  note: 'bootstrapped t-test p < 0.05 and the whole 95 % bootstrap interval of the mean change above +1 %',
  flagsSlower: (trial) => criterionCompare(trial).regressed,
};
