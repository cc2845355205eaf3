/**
 * Change points in a series of per-run values (one point per run of main, in
 * commit order): the E-Divisive means method with a Student's t significance
 * test, as Apache Otava (formerly Hunter, MongoDB's change-point detector)
 * computes it by default (`otava.analysis.compute_change_points`, window 50,
 * p ≤ 0.001, no minimum magnitude).
 *
 * Two steps (Fleming et al., "Hunter: Using Change Point Detection to Hunt for
 * Performance Regressions", ICPE 2023):
 * 1. Split: slide a window of `windowLength` points, half a window at a time,
 *    and inside each window split recursively at the point that maximises
 *    Matteson and James's divergence Q̂ between the two sides, while the split
 *    is significant at a relaxed p (10 × the final one): the weak change points.
 * 2. Merge: over the whole series, drop the weakest point (the largest
 *    p-value above the final p, else the smallest step when a minimum
 *    magnitude is set) and re-test its neighbours, until every point remaining
 *    passes.
 *
 * One deliberate difference from Otava 0.8.0: after dropping a point, Otava
 * re-tests the point after it and the one after that, leaving the point
 * before it with the statistics of intervals that no longer exist; this
 * re-tests the two neighbours whose intervals changed (`reTest:
 * 'neighbours'`). With `reTest: 'otava'` the result is Otava's, point for
 * point; agreement of both with Otava is measured by the change-point tests
 * (docs/history.md).
 *
 * Q̂ uses |x − y| (power 1). Each window's pairwise sums come from a 2-D
 * prefix sum, so a window's candidate search is O(w²), not O(w⁴).
 */
import tCdf from '@stdlib/stats-base-dists-t-cdf';

export interface ChangePointOptions {
  /** Points per split window (Otava: 50). */
  windowLength: number;
  /** The final significance level (Otava: 0.001); the split step uses 10 × this below 0.05. */
  maxPValue: number;
  /** Steps smaller than this relative change are merged away even when significant (Otava: 0). */
  minMagnitude: number;
  /**
   * Which points the merge step re-tests after dropping one: the two whose
   * intervals changed (`neighbours`), or Otava 0.8.0's choice (`otava`), kept
   * so the tests can show the port matches Otava point for point.
   */
  reTest: 'neighbours' | 'otava';
}

export const DEFAULT_CHANGE_POINT_OPTIONS: ChangePointOptions = { windowLength: 50, maxPValue: 0.001, minMagnitude: 0, reTest: 'neighbours' };

/** Two sides of a change point and the t-test between them. */
export interface StepStats {
  meanBefore: number;
  meanAfter: number;
  /** Population standard deviations (numpy's default), as Otava reports them. */
  stdBefore: number;
  stdAfter: number;
  nBefore: number;
  nAfter: number;
  pValue: number;
}

export interface ChangePoint {
  /** The first point after the change (0-based). */
  index: number;
  stats: StepStats;
}

/** meanAfter / meanBefore − 1 (0 when the mean before is 0). */
export function forwardChange(s: StepStats): number {
  return s.meanBefore === 0 ? 0 : s.meanAfter / s.meanBefore - 1;
}

/** The larger of the forward and backward relative change (Otava's magnitude). */
export function changeMagnitude(s: StepStats): number {
  const backward = s.meanAfter === 0 ? 0 : s.meanBefore / s.meanAfter - 1;
  return Math.max(Math.abs(forwardChange(s)), Math.abs(backward));
}

function meanOf(xs: readonly number[]): number {
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

function populationStd(xs: readonly number[], mean: number): number {
  if (xs.length < 2) return 0;
  let sum = 0;
  for (const x of xs) sum += (x - mean) ** 2;
  return Math.sqrt(sum / xs.length);
}

/**
 * The two-sided pooled-variance t-test of scipy's `ttest_ind_from_stats`
 * given numpy's population standard deviations, as Otava calls it. Identical
 * sides (0/0) are never significant; a step between two constant sides is.
 */
export function stepStats(left: readonly number[], right: readonly number[]): StepStats {
  const meanBefore = meanOf(left);
  const meanAfter = meanOf(right);
  const stdBefore = populationStd(left, meanBefore);
  const stdAfter = populationStd(right, meanAfter);
  const n1 = left.length;
  const n2 = right.length;
  let pValue = 1;
  if (n1 + n2 > 2) {
    const df = n1 + n2 - 2;
    const pooled = ((n1 - 1) * stdBefore ** 2 + (n2 - 1) * stdAfter ** 2) / df;
    const denominator = Math.sqrt(pooled * (1 / n1 + 1 / n2));
    const t = (meanBefore - meanAfter) / denominator;
    if (Number.isNaN(t)) pValue = 1;
    else if (!Number.isFinite(t)) pValue = 0;
    else pValue = 2 * (1 - tCdf(Math.abs(t), df));
  }
  return { meanBefore, meanAfter, stdBefore, stdAfter, nBefore: n1, nAfter: n2, pValue };
}

/** Q̂ over one window: pairwise |x − y| sums in O(1) from a 2-D prefix sum. */
class Divergence {
  private readonly n: number;
  /** prefix[i * (n + 1) + j] = Σ_{a<i, b<j} |x_a − x_b|. */
  private readonly prefix: Float64Array;

  constructor(window: readonly number[]) {
    const n = window.length;
    this.n = n;
    const w = n + 1;
    const prefix = new Float64Array(w * w);
    for (let i = 0; i < n; i++) {
      let row = 0;
      for (let j = 0; j < n; j++) {
        row += Math.abs(window[i]! - window[j]!);
        prefix[(i + 1) * w + j + 1] = prefix[i * w + j + 1]! + row;
      }
    }
    this.prefix = prefix;
  }

  /** Σ over a ∈ [a0, a1), b ∈ [b0, b1) of |x_a − x_b|. */
  private rect(a0: number, a1: number, b0: number, b1: number): number {
    const w = this.n + 1;
    const p = this.prefix;
    return p[a1 * w + b1]! - p[a0 * w + b1]! - p[a1 * w + b0]! + p[a0 * w + b0]!;
  }

  /**
   * The best split of [start, end): τ and κ with start < τ < κ ≤ end maximising
   * Q(τ, κ) = 2/(n+m) Σ|X−Y| − 2m/((n+m)(n−1)) Σ_{i<k}|X_i−X_k| − 2n/((n+m)(m−1)) Σ_{j<k}|Y_j−Y_k|,
   * X = [start, τ), Y = [τ, κ) (a term whose n−1 or m−1 is 0 counts 0, as in
   * Otava). Ties go to the smallest τ, then κ (numpy's argmax order).
   */
  best(start: number, end: number): { index: number; qhat: number } {
    let best = { index: start + 1, qhat: -Infinity };
    for (let tau = start + 1; tau < end; tau++) {
      const n = tau - start;
      const withinX = this.rect(start, tau, start, tau) / 2;
      for (let kappa = tau + 1; kappa <= end; kappa++) {
        const m = kappa - tau;
        const cross = this.rect(start, tau, tau, kappa);
        const withinY = this.rect(tau, kappa, tau, kappa) / 2;
        const q = (2 / (n + m)) * cross - (n > 1 ? ((2 * m) / ((n + m) * (n - 1))) * withinX : 0) - (m > 1 ? ((2 * n) / ((n + m) * (m - 1))) * withinY : 0);
        if (q > best.qhat) best = { index: tau, qhat: q };
      }
    }
    return best;
  }
}

/** [start, stop) pieces of a series of `length` points cut at the sorted change points. */
function intervalsOf(indexes: readonly number[], length: number): [number, number][] {
  const bounds = [0, ...indexes, length];
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < bounds.length; i++) if (bounds[i] !== bounds[i + 1]) out.push([bounds[i]!, bounds[i + 1]!]);
  return out;
}

/** A point's statistics from the intervals on either side of it. */
function statsAt(series: readonly number[], index: number, indexes: readonly number[]): StepStats {
  const at = indexes.indexOf(index);
  const from = at > 0 ? indexes[at - 1]! : 0;
  const to = at + 1 < indexes.length ? indexes[at + 1]! : series.length;
  return stepStats(series.slice(from, index), series.slice(index, to));
}

/** E-divisive inside one window: keeps splitting the piece with the largest Q̂ while the split is significant. */
function windowChangePoints(window: readonly number[], maxPValue: number): number[] {
  const divergence = new Divergence(window);
  const found: number[] = [];
  for (;;) {
    const candidates = intervalsOf(found, window.length)
      .filter(([a, b]) => b - a > 1)
      .map(([a, b]) => ({ ...divergence.best(a, b), interval: [a, b] as const }));
    if (candidates.length === 0) break;
    // The first of equal Q̂s wins, as Python's max keeps the first.
    const candidate = candidates.reduce((p, c) => (c.qhat > p.qhat ? c : p));
    const [a, b] = candidate.interval;
    const stats = stepStats(window.slice(a, candidate.index), window.slice(candidate.index, b));
    if (!(stats.pValue <= maxPValue)) break;
    found.push(candidate.index);
    found.sort((p, q) => p - q);
  }
  return found;
}

/** The split step: weak change points from overlapping windows. */
function weakChangePoints(series: readonly number[], windowLength: number, maxPValue: number): number[] {
  const step = Math.floor(windowLength / 2);
  const found = new Set<number>();
  let start = 0;
  while (start < series.length) {
    const end = Math.min(start + windowLength, series.length);
    const local = windowChangePoints(series.slice(start, end), maxPValue).map((i) => i + start);
    for (const i of local) found.add(i);
    start = Math.max(local.length > 0 ? local[local.length - 1]! : 0, start + step);
  }
  return [...found].sort((p, q) => p - q);
}

/**
 * The change points of a series, oldest first, each with the statistics of
 * the stretches on either side of it. A series shorter than 3 points has none.
 */
export function changePoints(series: readonly number[], options: ChangePointOptions = DEFAULT_CHANGE_POINT_OPTIONS): ChangePoint[] {
  if (options.windowLength < 2) throw new RangeError('windowLength must be at least 2');
  if (series.length < 3) return [];
  const { maxPValue, minMagnitude } = options;
  const firstPass = maxPValue < 0.05 ? maxPValue * 10 : maxPValue < 0.5 ? maxPValue * 2 : maxPValue;
  const indexes = weakChangePoints(series, options.windowLength, firstPass);
  let points: ChangePoint[] = indexes.map((index) => ({ index, stats: statsAt(series, index, indexes) }));
  // The merge step.
  while (points.length > 0) {
    let weakest = points.reduce((p, c) => (c.stats.pValue > p.stats.pValue ? c : p));
    if (weakest.stats.pValue < maxPValue) {
      weakest = points.reduce((p, c) => (changeMagnitude(c.stats) < changeMagnitude(p.stats) ? c : p));
      if (changeMagnitude(weakest.stats) > minMagnitude) break;
    }
    const at = points.indexOf(weakest);
    points = points.filter((p) => p !== weakest);
    const remaining = points.map((p) => p.index);
    for (const i of options.reTest === 'neighbours' ? [at - 1, at] : [at, at + 1]) {
      if (i >= 0 && i < points.length) points[i] = { index: points[i]!.index, stats: statsAt(series, points[i]!.index, remaining) };
    }
  }
  return points;
}
