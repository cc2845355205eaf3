import type { Description } from '../../stats/index.js';
import type { MethodUsed } from '../reason.js';
import type { RowFlag } from '../types.js';

/**
 * What every comparison strategy returns: the shift of current against
 * baseline on a log-ratio scale (so that swapping the sides negates it
 * exactly), its interval, the raw p-value when a test was made, and the
 * facts the decision and the report need. compare/index.ts adjusts the
 * p-values across the call and classifies; strategies never decide a status.
 */
export interface StrategyResult {
  /** The method and the facts its name mentions (exact or approximate, rounds, drift); report/ words it. */
  method: MethodUsed;
  /** Estimated log(current / baseline); ±Infinity when one side is zero. */
  shift: number;
  /** Interval of the shift at the requested confidence; null when none. */
  interval: [number, number] | null;
  /** Raw p-value of the test; null when no test applies (tolerance alone). */
  pRaw: number | null;
  flags: RowFlag[];
  /** The test cannot reach the alpha with these sizes: at least this many per side are needed. */
  minimumNeeded: number | null;
  /** Samples per side (rounds when paired) to detect a tolerance-sized change with the configured power. */
  samplesNeeded: number | null;
  /** Descriptive statistics of the raw samples [baseline, current] when the strategy already has them sorted. */
  sides?: [Description, Description];
  /**
   * The same change read against the other level (gate/compare/levels.ts): a
   * side that settled in one level was compared with the other side's nearer
   * level; this is the comparison with its farther one.
   */
  otherLevel?: { shift: number; interval: [number, number] | null };
}

export type ComparisonMethod = MethodUsed['id'];

/** Thresholds of the methods, with their defaults in compare/index.ts. */
export interface StrategyOptions {
  confidence: number;
  /** Significance of the dispersion checks behind `noisier`. */
  dispersionAlpha: number;
  /** Spread ratio (current over baseline) below which `noisier` is never set. */
  dispersionRatio: number;
  /** A current run slower than this multiple of its median is an upper-tail run (the baseline's count from its square root). */
  tailFactor: number;
  /** Upper-tail runs the current side needs before `noisier` can be set for them. */
  tailMinCount: number;
  /** Share of runs by which the current's tail must exceed the baseline's before `noisier` can be set for it. */
  tailMinExcess: number;
  /** Significance of the upper-tail excess over the baseline's tail rate. */
  tailAlpha: number;
  /** Power of the samples-needed calculation. */
  power: number;
  /** Compare a benchmark that flips between two levels level by level. */
  levels: boolean;
}
