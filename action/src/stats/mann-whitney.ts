/**
 * Mann–Whitney U test (Wilcoxon rank-sum) for two independent samples.
 *
 * Assumptions: the observations of each sample are independent and the two
 * samples are independent of each other. Benchmark runs drift in blocks
 * (docs/design.md, "What the noise really looks like"), which breaks the first
 * assumption: the test then over-rejects, and more samples from the same
 * block do not help. Prefer interleaved rounds with the signed-rank test, or
 * require the shift's interval to clear a noise floor (gate/compare/).
 *
 * Exact p-values come from the null distribution of U (no ties, both sizes at
 * most `exactLimit`); otherwise the normal approximation with the tie-corrected
 * variance and a continuity correction. Conventions follow
 * scipy.stats.mannwhitneyu (and agree with benchstat's Mann–Whitney for
 * untied samples). Reference: Mann & Whitney (1947); Hollander & Wolfe,
 * Nonparametric Statistical Methods, ch. 4.
 */
import { sortedCopy } from './descriptive.js';
import { uDistributionCdf } from './u-distribution.js';
import { upperTail } from './normal.js';

/** 'greater': x tends to be larger than y; 'less': smaller; 'two-sided': either. */
export type Alternative = 'two-sided' | 'greater' | 'less';

export interface MannWhitneyOptions {
  alternative: Alternative;
  /** 'auto' is exact without ties when both sizes ≤ exactLimit. */
  method: 'auto' | 'exact' | 'asymptotic';
  /** Largest sample size for the exact method under 'auto'. Default 50 (as benchstat). */
  exactLimit: number;
  /** Continuity correction of the normal approximation. Default true (as scipy). */
  continuity: boolean;
  /** Both samples are already ascending (skips two sorted copies). Default false. */
  presorted: boolean;
}

export const DEFAULT_MANN_WHITNEY: MannWhitneyOptions = {
  alternative: 'two-sided',
  method: 'auto',
  exactLimit: 50,
  continuity: true,
  presorted: false,
};

export interface MannWhitneyResult {
  /** U of the first sample: pairs (x, y) with x > y, ties counting one half. */
  u: number;
  p: number;
  method: 'exact' | 'asymptotic';
  nx: number;
  ny: number;
  hasTies: boolean;
}

export function mannWhitney(
  x: readonly number[] | Float64Array,
  y: readonly number[] | Float64Array,
  options: Partial<MannWhitneyOptions> = {},
): MannWhitneyResult {
  const o = { ...DEFAULT_MANN_WHITNEY, ...options };
  const nx = x.length;
  const ny = y.length;
  if (nx === 0 || ny === 0) return { u: NaN, p: NaN, method: 'asymptotic', nx, ny, hasTies: false };
  const { r1, tieTerm, hasTies } = o.presorted ? rankSumOfFirst(x, y) : rankSumOfFirst(sortedCopy(x), sortedCopy(y));
  const u1 = r1 - (nx * (nx + 1)) / 2;
  const u2 = nx * ny - u1;
  const exact = o.method === 'exact' || (o.method === 'auto' && !hasTies && nx <= o.exactLimit && ny <= o.exactLimit);
  if (exact) {
    const cdf = uDistributionCdf(nx, ny);
    const at = (u: number): number => (u < 0 ? 0 : (cdf[Math.min(cdf.length - 1, Math.floor(u))] as number));
    let p: number;
    if (o.alternative === 'two-sided') p = Math.min(1, 2 * at(Math.min(u1, u2)));
    else if (o.alternative === 'greater')
      p = at(u2); // P(U ≥ u1) = P(U ≤ mn − u1) by symmetry
    else p = at(u1);
    return { u: u1, p, method: 'exact', nx, ny, hasTies };
  }
  const n = nx + ny;
  const mu = (nx * ny) / 2;
  const sigma = Math.sqrt(((nx * ny) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  if (!(sigma > 0)) return { u: u1, p: 1, method: 'asymptotic', nx, ny, hasTies };
  const cc = o.continuity ? 0.5 : 0;
  let p: number;
  if (o.alternative === 'two-sided') p = Math.min(1, 2 * upperTail((Math.max(u1, u2) - mu - cc) / sigma));
  else if (o.alternative === 'greater') p = upperTail((u1 - mu - cc) / sigma);
  else p = upperTail((u2 - mu - cc) / sigma);
  return { u: u1, p, method: 'asymptotic', nx, ny, hasTies };
}

/**
 * The smallest two-sided p-value the exact test can give for sizes (m, n):
 * 2 / C(m+n, m), reached when the samples do not overlap at all. Below the
 * alpha in use, no amount of difference can be significant.
 */
export function smallestExactP(m: number, n: number): number {
  // C(m+n, m) via a product of ratios, in floating point (exact enough here).
  let c = 1;
  const k = Math.min(m, n);
  for (let i = 1; i <= k; i++) c = (c * (m + n - k + i)) / i;
  return Math.min(1, 2 / c);
}

/** Smallest equal size per side whose exact two-sided test can reach p < alpha. */
export function minSamplesPerSide(alpha: number): number {
  for (let n = 2; n <= 64; n++) if (smallestExactP(n, n) < alpha) return n;
  return 64;
}

/**
 * Rank sum of x in the pooled sample, with the tie term, by merging the two
 * sorted samples (as benchstat does): two native sorts instead of an index sort.
 */
function rankSumOfFirst(a: readonly number[] | Float64Array, b: readonly number[] | Float64Array): { r1: number; tieTerm: number; hasTies: boolean } {
  let i = 0;
  let j = 0;
  let position = 0; // pooled values consumed so far
  let r1 = 0;
  let tieTerm = 0;
  while (i < a.length || j < b.length) {
    const va = i < a.length ? (a[i] as number) : Infinity;
    const vb = j < b.length ? (b[j] as number) : Infinity;
    const v = va < vb ? va : vb;
    let ca = 0;
    let cb = 0;
    while (i < a.length && a[i] === v) {
      i++;
      ca++;
    }
    while (j < b.length && b[j] === v) {
      j++;
      cb++;
    }
    const t = ca + cb;
    r1 += ca * (position + (t + 1) / 2);
    if (t > 1) tieTerm += t * t * t - t;
    position += t;
  }
  return { r1, tieTerm, hasTies: tieTerm > 0 };
}
