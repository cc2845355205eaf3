/**
 * The exact null distribution of the Mann–Whitney U statistic for samples of
 * sizes m and n without ties: U counts the pairs (x, y) with x > y, and under
 * H0 every interleaving of the pooled order is equally likely.
 *
 * Computed with the recurrence on the pooled maximum (Mann & Whitney 1947):
 * p(m, n, u) = m/(m+n)·p(m−1, n, u−n) + n/(m+n)·p(m, n−1, u). Every term is a
 * positive probability, so there is no cancellation and no overflow, and
 * O(m²n²/4) work is a few milliseconds at m = n = 50. Results are memoised
 * (a bounded, invisible cache) because a suite asks for the same sizes again
 * and again.
 */

const MEMO_LIMIT = 64;
const memo = new Map<string, Float64Array>();

/** cdf[u] = P(U ≤ u) for u = 0 … m·n. */
export function uDistributionCdf(m: number, n: number): Float64Array {
  if (m > n) return uDistributionCdf(n, m); // U's distribution is symmetric in (m, n)
  const key = `${m},${n}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const pmf = uPmf(m, n);
  const cdf = new Float64Array(pmf.length);
  let acc = 0;
  for (let u = 0; u < pmf.length; u++) {
    acc += pmf[u] as number;
    cdf[u] = Math.min(1, acc);
  }
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  memo.set(key, cdf);
  return cdf;
}

function uPmf(m: number, n: number): Float64Array {
  // prev[j] = distribution for (i − 1, j); cur[j] = for (i, j), j = 0 … n.
  let prev: Float64Array[] = [];
  for (let j = 0; j <= n; j++) prev.push(Float64Array.of(1));
  for (let i = 1; i <= m; i++) {
    const cur: Float64Array[] = [Float64Array.of(1)];
    for (let j = 1; j <= n; j++) {
      const out = new Float64Array(i * j + 1);
      const a = i / (i + j);
      const b = j / (i + j);
      const up = prev[j] as Float64Array; // (i − 1, j): support 0 … (i−1)·j, shifted by j
      const left = cur[j - 1] as Float64Array; // (i, j − 1): support 0 … i·(j−1)
      for (let u = 0; u < up.length; u++) out[u + j] = a * (up[u] as number);
      for (let u = 0; u < left.length; u++) out[u] = (out[u] as number) + b * (left[u] as number);
      cur.push(out);
    }
    prev = cur;
  }
  return prev[n] as Float64Array;
}

/**
 * The smallest u with P(U ≤ u) ≥ q: the lower critical value used for the
 * Moses confidence interval (R's qwilcox).
 */
export function uQuantile(q: number, m: number, n: number): number {
  const cdf = uDistributionCdf(m, n);
  // Tolerate rounding in the accumulated cdf, as R does with its fuzz factor.
  const target = q * (1 - 64 * Number.EPSILON);
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cdf[mid] as number) >= target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
