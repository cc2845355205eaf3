/**
 * Samples that settle in one of two levels: a benchmark whose process draws
 * its code alignment, hash seed or JIT tier once, and then runs at one of
 * two speeds. The method is the optimal two-group split of the log values
 * (the split of the sorted values that minimises the within-group sum of
 * squares: one-dimensional 2-means, found exactly by trying every split,
 * Fisher's 1958 grouping), accepted as two levels only when the groups are
 * far apart for their spread: the gap between their median logs is at
 * least `minSeparation` times the larger of their robust standard
 * deviations (the normal-consistent MAD; a per-group, robust form of
 * Ashman's D, so a tight level beside a spread-out one does not pass on the
 * tight one's account, and a run between the levels or a stall beside one
 * does not hide them), the set holds `minValues` values and each group at
 * least `minCount` and `minShare` of them, and the slow level is at most
 * `maxRatio` times the fast one (runs several times slower are stalls, which
 * the `noisier` check reads).
 *
 * The default 5 was set on simulated sets (test/stats/levels.test.ts):
 * fewer than 1 % of one-level samples (normal or skewed noise, an outlier,
 * two stalls) pass it; two levels 10–22 % apart with 1–3 % scatter do in
 * 70–95 % of 20–30-value sets. Stalls scattered over 1.2–2.2× in a sixth of
 * the runs are read as a level about half the time; the decision then
 * compares stalls with stalls, which is what such a tail deserves anyway.
 *
 * Checked against a NumPy implementation of the same split and separation
 * (test/stats/levels.test.ts).
 */
import { medianOfSorted } from './descriptive.js';

export interface LevelOptions {
  /** How many of the larger group standard deviations (of the logs) the two groups' mean logs must be apart. */
  minSeparation: number;
  /** Values each level needs: a median absolute deviation of three values is too unsteady to measure a level's spread. */
  minCount: number;
  /** Values the whole set needs before it can be said to hold two levels. */
  minValues: number;
  /** Share of the values each level needs. */
  minShare: number;
  /** The slow level's median over the fast one's may not exceed this: runs several times slower are stalls (`noisier`), not a level. */
  maxRatio: number;
}

export const DEFAULT_LEVEL_OPTIONS: LevelOptions = { minSeparation: 5, minCount: 4, minShare: 0.1, maxRatio: 2, minValues: 12 };

/** One level: its values (in the input's units, ascending), and their median. */
export interface Level {
  values: number[];
  median: number;
}

/** The optimal split of positive values on the log scale: where, and how far apart the two groups are. */
export interface LevelSplit {
  /** The values below `at` form the fast group. */
  at: number;
  fast: Level;
  slow: Level;
  /** The gap between the groups' median logs over the larger of their robust standard deviations (normal-consistent MAD). */
  separation: number;
}

function levelOf(values: number[]): Level {
  const mid = values.length >> 1;
  const median = values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
  return { values, median };
}

/**
 * The best two-group split of positive values on the log scale, sought among
 * the core values (within a factor two of the median, so a stall several
 * times slower cannot draw it onto itself), the groups holding all the
 * values; null for fewer than 4 values, or one not positive.
 */
export function bestSplit(values: readonly number[]): LevelSplit | null {
  if (values.length < 4 || values.some((v) => !(v > 0) || !Number.isFinite(v))) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const logs = sorted.map(Math.log);
  const [from, to] = coreRange(logs);
  // Prefix sums: the within-group sum of squares of logs[from..k) and logs[k..to) in O(1) each.
  const sum = [0];
  const squares = [0];
  for (let i = from; i < to; i++) {
    sum.push(sum.at(-1)! + logs[i]!);
    squares.push(squares.at(-1)! + logs[i]! * logs[i]!);
  }
  const within = (a: number, b: number): number => {
    const m = b - a;
    const s = sum[b - from]! - sum[a - from]!;
    return squares[b - from]! - squares[a - from]! - (s * s) / m;
  };
  let best = -1;
  let bestCost = Infinity;
  for (let k = from + 1; k < to; k++) {
    if (logs[k] === logs[k - 1]) continue;
    const cost = within(from, k) + within(k, to);
    if (cost < bestCost) {
      bestCost = cost;
      best = k;
    }
  }
  if (best < 0) return null;
  const fastLogs = logs.slice(0, best);
  const slowLogs = logs.slice(best);
  // Robust: a run between the levels or a stall beside one moves a mean and a standard deviation, not a median and a MAD.
  const spread = Math.max(madSigma(fastLogs), madSigma(slowLogs));
  const gap = medianOfSorted(slowLogs) - medianOfSorted(fastLogs);
  return {
    at: sorted[best]!,
    fast: levelOf(sorted.slice(0, best)),
    slow: levelOf(sorted.slice(best)),
    separation: spread > 0 ? gap / spread : Infinity,
  };
}

/** How far from the median (a ratio) the core reaches: two levels at most twice apart (maxRatio) both fall within it. */
const CORE_REACH = Math.log(2);

/** The index range [from, to) of the ascending logs within a factor two of their median. */
export function coreRange(logs: readonly number[]): [number, number] {
  const m = medianOfSorted(logs);
  let from = 0;
  let to = logs.length;
  while (from < to && logs[from]! < m - CORE_REACH) from++;
  while (to > from && logs[to - 1]! > m + CORE_REACH) to--;
  return [from, to];
}

/** The normal-consistent MAD of ascending values: 1.4826 × the median absolute deviation from their median. */
export function madSigma(sorted: readonly number[]): number {
  const m = medianOfSorted(sorted);
  return MAD_TO_SIGMA * medianOfSorted(sorted.map((x) => Math.abs(x - m)).sort((a, b) => a - b));
}

const MAD_TO_SIGMA = 1.482602218505602;

/** The two levels the values settle in, or null when they do not (one level, a tail, too few values). */
export function twoLevels(values: readonly number[], options: LevelOptions = DEFAULT_LEVEL_OPTIONS): LevelSplit | null {
  if (values.length < options.minValues) return null;
  const split = bestSplit(values);
  if (!split) return null;
  const least = Math.max(options.minCount, Math.ceil(options.minShare * values.length));
  if (split.fast.values.length < least || split.slow.values.length < least) return null;
  if (split.slow.median > options.maxRatio * split.fast.median) return null;
  return split.separation >= options.minSeparation ? split : null;
}

/** A level one side settled in and the other never drew, with the other side's level nearest to it. */
export interface UnsharedLevel {
  side: 'baseline' | 'current';
  rank: 'fast' | 'slow';
  level: Level;
  nearest: Level;
}

/**
 * The levels only one side drew, when both sides settle in two levels (a
 * third level: a change of the code moved one side's levels by about the gap
 * between them, or one level moved onto new ground). A side's level is
 * unshared when the other side drew no value within its range (its values
 * within the side's core, so a stall does not stretch it) and it lies
 * `minSeparation` robust deviations from the other side's nearest level: the
 * rule that tells two levels apart, applied across the sides. A level the
 * other side shares moves with it, which the level-by-level comparison reads;
 * a side that settles in one level has nothing of its own to compare, and a
 * level missing from it may be a rare one missing by chance.
 */
export function unsharedLevels(baseline: readonly number[], current: readonly number[], options: LevelOptions = DEFAULT_LEVEL_OPTIONS): UnsharedLevel[] {
  const splits = [twoLevels(baseline, options), twoLevels(current, options)] as const;
  return splits[0] && splits[1] ? unsharedOfSplits(baseline, current, [splits[0], splits[1]], options) : [];
}

/** unsharedLevels for sides whose two levels the caller has already found (twoLevels of each). */
export function unsharedOfSplits(
  baseline: readonly number[],
  current: readonly number[],
  splits: readonly [LevelSplit, LevelSplit],
  options: LevelOptions = DEFAULT_LEVEL_OPTIONS,
): UnsharedLevel[] {
  const sides = [
    { side: 'baseline' as const, split: splits[0], values: baseline },
    { side: 'current' as const, split: splits[1], values: current },
  ];
  const found: UnsharedLevel[] = [];
  sides.forEach((own, i) => {
    const other = sides[1 - i]!;
    const [low, high] = coreBounds(own.values);
    for (const rank of ['fast', 'slow'] as const) {
      const level = own.split[rank];
      const inCore = level.values.filter((v) => v >= low && v <= high);
      const nearest = [other.split.fast, other.split.slow].reduce((a, b) =>
        Math.abs(Math.log(b.median / level.median)) < Math.abs(Math.log(a.median / level.median)) ? b : a,
      );
      const drawn = other.values.some((v) => v >= inCore[0]! && v <= inCore.at(-1)!);
      if (inCore.length > 0 && !drawn && levelSeparation(level, nearest) >= options.minSeparation) found.push({ side: own.side, rank, level, nearest });
    }
  });
  return found;
}

/** The smallest and largest of the values within a factor two of their median (coreRange). */
function coreBounds(values: readonly number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const [from, to] = coreRange(sorted.map(Math.log));
  return [sorted[from]!, sorted[to - 1]!];
}

/** Two levels' median logs apart, over the larger of their robust standard deviations (the separation of bestSplit). */
function levelSeparation(a: Level, b: Level): number {
  const spread = Math.max(madSigma(a.values.map(Math.log)), madSigma(b.values.map(Math.log)));
  const gap = Math.abs(Math.log(a.median / b.median));
  return spread > 0 ? gap / spread : gap > 0 ? Infinity : 0;
}
