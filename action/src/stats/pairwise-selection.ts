/**
 * The k-th smallest of the m·n pairwise differences y[j] − x[i] without
 * materialising them: selection in X+Y after Monahan (1984, ACM Algorithm
 * 616) and Johnson & Mizoguchi (1978). Each row i of the implicit matrix is
 * sorted in j, so one two-pointer sweep counts the differences below a pivot
 * in O(m + n), and each row keeps the window of candidates still possible.
 * Pivots are interpolated from the counts at the bracketing values (the
 * differences' distribution is smooth, so a few rounds suffice), with a
 * random candidate as fallback whenever a round discards too little. A Hodges–Lehmann interval on
 * 100 × 100 samples then costs a few hundred microseconds instead of sorting
 * 10,000 numbers three times.
 *
 * Every difference is computed exactly as `y[j] - x[i]` (floating-point
 * subtraction is monotone), so the answer is bit-identical to sorting the
 * materialised differences.
 */

import { zQuantile } from './normal.js';

/** Below this many remaining candidates, collect and sort them. */
const COLLECT_AT = 64;

/**
 * Scratch arrays for one selection, reusable across calls on samples of the
 * same (or smaller) first size: typed-array allocation costs more than a
 * selection round, and a Hodges–Lehmann interval makes three selections.
 */
export interface SelectionWorkspace {
  lo: Int32Array;
  hi: Int32Array;
  less1: Int32Array;
  le1: Int32Array;
  less2: Int32Array;
  le2: Int32Array;
  collect: Float64Array;
}

export function selectionWorkspace(m: number): SelectionWorkspace {
  const ints = new Int32Array(6 * m);
  return {
    lo: ints.subarray(0, m),
    hi: ints.subarray(m, 2 * m),
    less1: ints.subarray(2 * m, 3 * m),
    le1: ints.subarray(3 * m, 4 * m),
    less2: ints.subarray(4 * m, 5 * m),
    le2: ints.subarray(5 * m, 6 * m),
    collect: new Float64Array(COLLECT_AT),
  };
}

/**
 * k-th smallest (1-based) of { y[j] − x[i] }, x and y ascending.
 */
export function kthPairwiseDifference(x: Float64Array, y: Float64Array, k: number, workspace: SelectionWorkspace = selectionWorkspace(x.length)): number {
  const m = x.length;
  const n = y.length;
  const total = m * n;
  if (m === 0 || n === 0 || k < 1 || k > total) return NaN;
  if (workspace.lo.length < m) workspace = selectionWorkspace(m);
  const { lo, hi, less1, le1, less2, le2, collect } = workspace;
  lo.fill(0, 0, m);
  hi.fill(n, 0, m);
  // xorshift32 state for fallback pivots: only speed depends on it, never the answer.
  let state = (m * 2654435761 + n * 40503 + k) >>> 0 || 1;
  // Bracket of values around the answer, with the counts of differences ≤ each.
  let tLo = (y[0] as number) - (x[m - 1] as number);
  let cLo = 0;
  let tHi = (y[n - 1] as number) - (x[0] as number);
  let cHi = total;
  let active = total;
  let below = 0;
  let previousActive = Infinity;
  for (let round = 0; round <= total; round++) {
    if (active <= COLLECT_AT) {
      // Few candidates left: gather them and insertion-sort in place (cheaper than
      // a typed-array sort call at this size).
      let c = 0;
      for (let i = 0; i < m; i++) {
        const xi = x[i] as number;
        const end = hi[i] as number;
        for (let j = lo[i] as number; j < end; j++) {
          const v = (y[j] as number) - xi;
          let q = c++;
          while (q > 0 && (collect[q - 1] as number) > v) {
            collect[q] = collect[q - 1] as number;
            q--;
          }
          collect[q] = v;
        }
      }
      return collect[k - 1 - below] as number;
    }
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    const u = state / 4294967296;
    // Two pivots interpolated a little below and above the target rank (regula
    // falsi on the count, from both sides so it cannot stall); when a round
    // fails to halve the candidates, a uniformly drawn candidate instead (quickselect).
    let p1 = NaN;
    let p2 = NaN;
    if (round === 0 && m >= 8 && n >= 8) {
      // First guess: a normal approximation of the differences from the samples'
      // medians and interquartile ranges, bracketing the target by ±3 % of the ranks.
      const iqr = (v: Float64Array, len: number): number => ((v[Math.floor(0.75 * (len - 1))] as number) - (v[Math.floor(0.25 * (len - 1))] as number)) / 1.349;
      const centre = (y[n >> 1] as number) - (x[m >> 1] as number);
      const spread = Math.hypot(iqr(x, m), iqr(y, n));
      const gap = Math.max(8, 0.03 * total);
      p1 = centre + spread * zQuantile(Math.max(0.5, k - gap) / total);
      p2 = centre + spread * zQuantile(Math.min(total - 0.5, k + gap) / total);
    } else if (active * 2 <= previousActive) {
      const gap = Math.max(8, active / 16);
      const at = (r: number): number => tLo + ((r - cLo) / (cHi - cLo)) * (tHi - tLo);
      p1 = at(k - gap);
      p2 = at(k + gap);
    }
    if (!(p1 > tLo && p1 < p2 && p2 < tHi)) {
      let pick = Math.floor(u * active);
      for (let i = 0; i < m; i++) {
        const w = (hi[i] as number) - (lo[i] as number);
        if (pick < w) {
          p1 = (y[(lo[i] as number) + pick] as number) - (x[i] as number);
          break;
        }
        pick -= w;
      }
      p2 = p1;
    }
    previousActive = active;
    let l1 = 0;
    let e1 = 0;
    let l2 = 0;
    let e2 = 0;
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    for (let i = 0; i < m; i++) {
      const xi = x[i] as number;
      while (a < n && (y[a] as number) - xi < p1) a++;
      if (b < a) b = a;
      while (b < n && (y[b] as number) - xi <= p1) b++;
      if (c < b) c = b;
      while (c < n && (y[c] as number) - xi < p2) c++;
      if (d < c) d = c;
      while (d < n && (y[d] as number) - xi <= p2) d++;
      less1[i] = a;
      le1[i] = b;
      less2[i] = c;
      le2[i] = d;
      l1 += a;
      e1 += b;
      l2 += c;
      e2 += d;
    }
    if (k > l1 && k <= e1) return p1;
    if (k > l2 && k <= e2) return p2;
    let newLo: Int32Array | null = null;
    let newHi: Int32Array | null = null;
    if (k <= l1) {
      newHi = less1;
      tHi = p1;
      cHi = l1;
    } else if (k <= l2) {
      newLo = le1;
      newHi = less2;
      tLo = p1;
      cLo = e1;
      tHi = p2;
      cHi = l2;
    } else {
      newLo = le2;
      tLo = p2;
      cLo = e2;
    }
    active = 0;
    below = 0;
    for (let i = 0; i < m; i++) {
      const l = newLo ? Math.max(lo[i] as number, newLo[i] as number) : (lo[i] as number);
      const h = newHi ? Math.min(hi[i] as number, newHi[i] as number) : (hi[i] as number);
      lo[i] = l;
      hi[i] = h;
      active += h - l;
      below += l;
    }
  }
  return NaN; // not reached: every round discards at least the pivot's side
}

/**
 * The (k+1)-th smallest difference given that `value` is the k-th: `value`
 * again when more than k differences are ≤ it, otherwise the smallest
 * difference above it (the first one past `value` in each row).
 */
export function nextPairwiseDifference(x: Float64Array, y: Float64Array, value: number, k: number): number {
  const m = x.length;
  const n = y.length;
  let le = 0;
  let next = Infinity;
  let j = 0;
  // As x[i] grows the differences in row i shrink, so the first index past `value` only moves right.
  for (let i = 0; i < m; i++) {
    const xi = x[i] as number;
    while (j < n && (y[j] as number) - xi <= value) j++;
    le += j;
    if (j < n) {
      const d = (y[j] as number) - xi;
      if (d < next) next = d;
    }
  }
  return le > k ? value : next;
}
