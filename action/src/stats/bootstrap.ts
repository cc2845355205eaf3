/**
 * Percentile bootstrap interval of the ratio of medians (current / baseline),
 * resampling each side independently with a seeded generator. Kept to compare
 * with the Hodges–Lehmann interval (docs/statistics.md says which the gate
 * uses and why): the bootstrap needs no shift model but is discrete and too
 * narrow for small samples, and costs B resamples per row.
 * Reference: Efron & Tibshirani, An Introduction to the Bootstrap, ch. 13.
 */
import { medianOfSorted, sortedCopy, sortNumbers, quantileOfSorted, median } from './descriptive.js';
import { seededRandom } from './prng.js';

export interface BootstrapOptions {
  confidence: number;
  resamples: number;
  seed: number;
}

export const DEFAULT_BOOTSTRAP: BootstrapOptions = { confidence: 0.95, resamples: 2000, seed: 1 };

export interface RatioInterval {
  estimate: number;
  lower: number;
  upper: number;
}

export function bootstrapMedianRatio(
  baseline: readonly number[] | Float64Array,
  current: readonly number[] | Float64Array,
  options: Partial<BootstrapOptions> = {},
): RatioInterval {
  const o = { ...DEFAULT_BOOTSTRAP, ...options };
  const rng = seededRandom(o.seed);
  const b = new Float64Array(baseline);
  const c = new Float64Array(current);
  const bufB = new Float64Array(b.length);
  const bufC = new Float64Array(c.length);
  const ratios = new Float64Array(o.resamples);
  for (let r = 0; r < o.resamples; r++) {
    for (let i = 0; i < b.length; i++) bufB[i] = b[rng.int(b.length)] as number;
    for (let i = 0; i < c.length; i++) bufC[i] = c[rng.int(c.length)] as number;
    sortNumbers(bufB);
    sortNumbers(bufC);
    ratios[r] = medianOfSorted(bufC) / medianOfSorted(bufB);
  }
  const sorted = sortedCopy(ratios);
  const alpha = 1 - o.confidence;
  return {
    estimate: median(c) / median(b),
    lower: quantileOfSorted(sorted, alpha / 2),
    upper: quantileOfSorted(sorted, 1 - alpha / 2),
  };
}
