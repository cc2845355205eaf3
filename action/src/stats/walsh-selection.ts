/**
 * The k-th smallest Walsh average (s[i] + s[j]) / 2, i ≤ j, of an ascending
 * sample without materialising the n(n+1)/2 averages: a bisection over the
 * ordered bit patterns of float64 values, each step counting the averages at
 * or below a candidate with one two-pointer sweep. 64 steps bound the search
 * (one per bit), so the cost is O(64·n) time and O(1) memory, where
 * materialising needs n²/2 numbers (40 GB at 100,000 rounds).
 *
 * Every average is computed exactly as `(s[i] + s[j]) / 2`, and rounding is
 * monotone, so the answer is bit-identical to sorting the materialised
 * averages: the smallest float t with at least k averages ≤ t is itself one
 * of the averages.
 */

const bits = new Float64Array(1);
const key = new BigUint64Array(bits.buffer);
const SIGN = 1n << 63n;
const ALL = (1n << 64n) - 1n;

/** A key that orders like the float (negative floats reversed below positive ones). */
function orderKey(x: number): bigint {
  bits[0] = x;
  const b = key[0] as bigint;
  return b & SIGN ? ALL ^ b : b | SIGN;
}

function fromOrderKey(k: bigint): number {
  key[0] = k & SIGN ? k ^ SIGN : ALL ^ k;
  return bits[0] as number;
}

/** How many Walsh averages of ascending `s` are ≤ t. */
export function walshCountAtMost(s: Float64Array, t: number): number {
  const n = s.length;
  let count = 0;
  // For a larger s[i] the last partner j with an average ≤ t can only move left.
  let j = n - 1;
  for (let i = 0; i < n; i++) {
    const si = s[i] as number;
    while (j >= i && (si + (s[j] as number)) / 2 > t) j--;
    if (j < i) break;
    count += j - i + 1;
  }
  return count;
}

/** k-th smallest (1-based) Walsh average of ascending `s`; NaN when k is out of range. */
export function kthWalshAverage(s: Float64Array, k: number): number {
  const n = s.length;
  const total = (n * (n + 1)) / 2;
  if (n === 0 || k < 1 || k > total || !Number.isFinite(s[0]) || !Number.isFinite(s[n - 1])) return NaN;
  let lo = orderKey(s[0] as number); // the smallest average: count ≥ 1
  let hi = orderKey(s[n - 1] as number); // the largest: count = total ≥ k
  // `+ 0`: −0 and 0 count alike and −0 orders first; the averages of a sample without −0 are +0.
  if (walshCountAtMost(s, fromOrderKey(lo)) >= k) return fromOrderKey(lo) + 0;
  // Invariant: count(lo) < k ≤ count(hi).
  while (hi - lo > 1n) {
    const mid = lo + (hi - lo) / 2n;
    if (walshCountAtMost(s, fromOrderKey(mid)) >= k) hi = mid;
    else lo = mid;
  }
  return fromOrderKey(hi) + 0;
}
