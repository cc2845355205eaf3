/**
 * Wilcoxon signed-rank test on paired differences, and the Hodges–Lehmann
 * centre (median of the Walsh averages) with its rank-based interval.
 *
 * For interleaved benchmark rounds (baseline and current measured
 * alternately), the per-round log ratio log(current/baseline) cancels the slow
 * drift of the machine that makes independent-sample tests over-flag; this is
 * the test for those ratios. Assumes the differences are independent and
 * symmetric about their centre. Wrong tool when rounds are not truly
 * interleaved (the pairing is then arbitrary and the test loses power).
 *
 * Zero differences are dropped (Wilcoxon's convention, scipy's default
 * zero_method="wilcox"). Exact p-values without ties or zeros for n ≤
 * `exactLimit`; otherwise the normal approximation with the tie-corrected
 * variance and, by default, a continuity correction (scipy's
 * wilcoxon(correction=True)). Reference: Hollander & Wolfe, ch. 3.
 */
import { rank } from './ranks.js';
import { sortedCopy, sortNumbers } from './descriptive.js';
import { phi, upperTail, zQuantile } from './normal.js';
import type { Alternative } from './mann-whitney.js';
import { kthWalshAverage } from './walsh-selection.js';

const MEMO_LIMIT = 64;
const memo = new Map<number, Float64Array>();

/** cdf[t] = P(T⁺ ≤ t) for the signed-rank statistic of n untied, non-zero differences. */
export function signedRankCdf(n: number): Float64Array {
  const hit = memo.get(n);
  if (hit) return hit;
  const max = (n * (n + 1)) / 2;
  let pmf = new Float64Array(max + 1);
  pmf[0] = 1;
  // Each rank r joins T⁺ with probability ½: pmf ← ½·pmf + ½·pmf shifted by r.
  for (let r = 1; r <= n; r++) {
    const next = new Float64Array(max + 1);
    for (let t = 0; t <= max; t++) {
      const keep = pmf[t] as number;
      if (keep === 0) continue;
      next[t] = (next[t] as number) + keep / 2;
      next[t + r] = (next[t + r] as number) + keep / 2;
    }
    pmf = next;
  }
  const cdf = new Float64Array(max + 1);
  let acc = 0;
  for (let t = 0; t <= max; t++) {
    acc += pmf[t] as number;
    cdf[t] = Math.min(1, acc);
  }
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as number);
  memo.set(n, cdf);
  return cdf;
}

export interface SignedRankOptions {
  alternative: Alternative;
  method: 'auto' | 'exact' | 'asymptotic';
  /** Largest n for the exact method under 'auto'. Default 50 (as scipy). */
  exactLimit: number;
  continuity: boolean;
}

export const DEFAULT_SIGNED_RANK: SignedRankOptions = {
  alternative: 'two-sided',
  method: 'auto',
  exactLimit: 50,
  continuity: true,
};

export interface SignedRankResult {
  /** Sum of the ranks of the positive differences. */
  tPlus: number;
  p: number;
  /** Non-zero differences used. */
  n: number;
  zeros: number;
  method: 'exact' | 'asymptotic';
}

export function wilcoxonSignedRank(d: readonly number[] | Float64Array, options: Partial<SignedRankOptions> = {}): SignedRankResult {
  const o = { ...DEFAULT_SIGNED_RANK, ...options };
  const nonzero: number[] = [];
  for (const v of d) if (v !== 0) nonzero.push(v);
  const n = nonzero.length;
  const zeros = d.length - n;
  if (n === 0) return { tPlus: 0, p: 1, n, zeros, method: 'asymptotic' };
  const { ranks, tieTerm, hasTies } = rank(nonzero.map(Math.abs));
  let tPlus = 0;
  for (let i = 0; i < n; i++) if ((nonzero[i] as number) > 0) tPlus += ranks[i] as number;
  const max = (n * (n + 1)) / 2;
  const tMinus = max - tPlus;
  const exact = o.method === 'exact' || (o.method === 'auto' && !hasTies && zeros === 0 && n <= o.exactLimit);
  if (exact) {
    const cdf = signedRankCdf(n);
    const at = (t: number): number => (t < 0 ? 0 : (cdf[Math.min(max, Math.floor(t))] as number));
    let p: number;
    if (o.alternative === 'two-sided') p = Math.min(1, 2 * at(Math.min(tPlus, tMinus)));
    else if (o.alternative === 'greater')
      p = at(tMinus); // P(T⁺ ≥ t) = P(T⁺ ≤ max − t)
    else p = at(tPlus);
    return { tPlus, p, n, zeros, method: 'exact' };
  }
  const mu = max / 2;
  const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48);
  if (!(sigma > 0)) return { tPlus, p: 1, n, zeros, method: 'asymptotic' };
  // The continuity correction moves the statistic half a unit towards H0 (scipy's convention).
  const cc = o.continuity ? 0.5 : 0;
  const dev = tPlus - mu;
  let p: number;
  if (o.alternative === 'two-sided') p = Math.min(1, 2 * upperTail(Math.abs(dev - Math.sign(dev) * cc) / sigma));
  else if (o.alternative === 'greater') p = upperTail((dev - cc) / sigma);
  else p = phi((dev + cc) / sigma);
  return { tPlus, p, n, zeros, method: 'asymptotic' };
}

/**
 * Smallest number of rounds whose exact two-sided test can reach p < alpha:
 * 2/2ⁿ < alpha. Among `family` tests adjusted together (Benjamini–Hochberg
 * multiplies the smallest p by their number), one significant row needs
 * 2/2ⁿ < alpha / family: two rows 9 rounds at α 0.01, twenty 12, two
 * hundred 16.
 */
export function minRounds(alpha: number, family = 1): number {
  const level = alpha / Math.max(1, family);
  for (let n = 1; n <= 64; n++) if (2 / 2 ** n < level) return n;
  return 64;
}

export interface CenterInterval {
  /** Median of the Walsh averages (dᵢ + dⱼ)/2, i ≤ j. */
  estimate: number;
  lower: number;
  upper: number;
  achievedLevel: number;
  k: number;
  method: 'exact' | 'asymptotic';
}

/**
 * Hodges–Lehmann centre of one sample with the signed-rank interval: the k-th
 * smallest and k-th largest Walsh averages, k from the signed-rank null
 * distribution (R's wilcox.test(conf.int = TRUE) for one sample). Up to
 * `MATERIALISE_LIMIT` differences the Walsh averages are materialised and
 * sorted; beyond, each of the three order statistics is selected without them
 * (walsh-selection.ts: same answer, O(n) memory instead of n²/2 numbers).
 */
export function hodgesLehmannCenter(d: readonly number[] | Float64Array, options: { confidence?: number; exactLimit?: number } = {}): CenterInterval {
  const confidence = options.confidence ?? 0.95;
  const exactLimit = options.exactLimit ?? 50;
  const s = sortedCopy(d);
  const n = s.length;
  const total = (n * (n + 1)) / 2;
  if (n === 0) return { estimate: NaN, lower: NaN, upper: NaN, achievedLevel: NaN, k: 0, method: 'asymptotic' };
  const kth = walshOrderStatistics(s);
  // Not `total >> 1`: n(n+1)/2 passes 2³¹ at 65,536 rounds, and a 32-bit shift would wrap it.
  const half = Math.floor(total / 2);
  const estimate = total % 2 === 1 ? kth(half + 1) : (kth(half) + kth(half + 1)) / 2;
  const alpha = 1 - confidence;
  let k: number;
  let achievedLevel: number;
  let method: 'exact' | 'asymptotic';
  if (n <= exactLimit) {
    method = 'exact';
    const cdf = signedRankCdf(n);
    const target = (alpha / 2) * (1 - 64 * Number.EPSILON);
    let q = 0;
    while (q < total && (cdf[q] as number) < target) q++;
    k = Math.max(1, q);
    achievedLevel = 1 - 2 * (cdf[k - 1] as number);
  } else {
    method = 'asymptotic';
    const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24);
    k = Math.max(1, Math.floor(total / 2 - zQuantile(1 - alpha / 2) * sigma));
    achievedLevel = confidence;
  }
  return {
    estimate,
    lower: kth(k),
    upper: kth(total - k + 1),
    achievedLevel,
    k,
    method,
  };
}

/** Above this many differences the Walsh averages are selected rather than sorted (2,000 → 16 MB of averages). */
const MATERIALISE_LIMIT = 2000;

/** k ↦ the k-th smallest Walsh average (1-based) of ascending `s`. */
function walshOrderStatistics(s: Float64Array): (k: number) => number {
  const n = s.length;
  if (n > MATERIALISE_LIMIT) return (k) => kthWalshAverage(s, k);
  const walsh = new Float64Array((n * (n + 1)) / 2);
  let c = 0;
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) walsh[c++] = ((s[i] as number) + (s[j] as number)) / 2;
  sortNumbers(walsh);
  return (k) => walsh[k - 1] as number;
}
