/**
 * The first stage of a pull request's two-stage verdict: which rows of a
 * comparison with a stored baseline point towards a slowdown the gate cares
 * about (suspects, measured again interleaved against the base commit), and
 * which show no such sign (clear: they keep the screen's verdict).
 *
 * Against a stored baseline whole runs drift together, so "not provably
 * unchanged" would make almost every row a suspect and the second stage would
 * run on every pull request. The screen asks a narrower question: a one-sided
 * test of "worse by more than the tolerance", at a relaxed level. A failed
 * row, a row the comparison already called regressed, and a row that became
 * noisier in the worse direction are suspects whatever the test says. Pure:
 * rows in, calls out.
 */
import { upperTail, zQuantile } from '../stats/index.js';
import type { SuspectWhy, VerdictRow } from './types.js';

export type { SuspectWhy } from './types.js';

/**
 * The screen's one-sided level: a row is a suspect when the evidence that it
 * is worse by more than its tolerance reaches this p-value. Below one half
 * it sends on nothing the estimate rule (screenRow) does not already send:
 * a p-value under 0.5 means an estimate worse than the tolerance. It would
 * matter only above one half, sending on rows just inside their tolerance
 * too; the replay in docs/detection.md ("Two stages", "Tuning the screen")
 * shows the levels side by side, and why it is not a setting (0.7 catches a
 * few more slowdowns for half again the runner time).
 */
export const DEFAULT_SCREEN_ALPHA = 0.3;

export type ScreenCall =
  /** `p`: the one-sided p-value of "worse by more than the tolerance" (null when no interval was computed). */
  | { suspect: true; why: SuspectWhy; p: number | null }
  /**
   * `bound`: the largest slowdown (a fraction, in the row's worse direction)
   * the screen's interval leaves possible; null when the row had no interval.
   * `blind`: the interval's worse end lies beyond the tolerance while the
   * estimate is within it (the runner drifts more than the tolerance), so the
   * screen could not have told a slowdown of the size the gate cares about
   * from noise: the row is cleared only of what it could see.
   */
  | { suspect: false; bound: number | null; blind: boolean };

/** The worse direction as a sign: +1 when an increase is worse (times, sizes), −1 when a decrease is (throughput). */
function worseSign(row: Pick<VerdictRow, 'direction'>): 1 | -1 {
  return row.direction === 'higher' ? -1 : 1;
}

/** A relative change in the worse direction on the log scale. */
function worseLog(change: number, sign: 1 | -1): number {
  return sign * Math.log1p(change);
}

/**
 * One-sided p-value of "worse by more than the tolerance", from the row's
 * estimate and its two-sided interval read as a normal interval on the log
 * scale (the comparison builds it there, drift included).
 */
export function worseBeyondToleranceP(row: Pick<VerdictRow, 'change' | 'ci' | 'ciLevel' | 'tolerance' | 'direction'>): number | null {
  if (row.change === null || row.ci === null || row.ciLevel === null) return null;
  const sign = worseSign(row);
  const shift = worseLog(row.change, sign);
  const margin = Math.log1p(Math.max(0, row.tolerance));
  const width = Math.abs(Math.log1p(row.ci[1]) - Math.log1p(row.ci[0]));
  const se = width / (2 * zQuantile(1 - (1 - row.ciLevel) / 2));
  if (!Number.isFinite(shift) || !Number.isFinite(se)) return null;
  if (se === 0) return shift > margin ? 0 : 1;
  return upperTail((shift - margin) / se);
}

/** The worse end of the row's interval as a fraction (0 when the whole interval is better). */
function worseBound(row: VerdictRow): number | null {
  if (row.ci === null) return null;
  const sign = worseSign(row);
  const worst = Math.max(worseLog(row.ci[0], sign), worseLog(row.ci[1], sign));
  return Math.max(0, Math.expm1(worst));
}

/**
 * How much slower the screen saw a row, as a relative change in its worse
 * direction (0 when not comparable): its estimate, or, for a row that flips,
 * its runs read as one distribution when those are worse (the levels can
 * read a level that moved onto the other as a small change). The second
 * stage measures the likeliest regressions first by it.
 */
export function screenedSlowdown(row: VerdictRow): number {
  const sign = worseSign(row);
  const estimate = row.change === null ? -Infinity : worseLog(row.change, sign);
  const values = row.flags.includes('flips') && row.baseline && row.current ? worseLog(row.current.value / row.baseline.value - 1, sign) : -Infinity;
  const worst = Math.max(estimate, values);
  return Number.isFinite(worst) ? Math.expm1(worst) : 0;
}

/**
 * Screens one decided row; rows that were not compared (new, missing) are
 * clear with no bound. A row whose own estimate is worse than its tolerance
 * is a suspect however wide its interval: when the runner drifts more than
 * the tolerance, the one-sided test is close to a coin toss, and a visible
 * slowdown must never be cleared by the width of the noise.
 */
export function screenRow(row: VerdictRow, alpha: number = DEFAULT_SCREEN_ALPHA): ScreenCall {
  if (row.status === 'failed') return { suspect: true, why: 'failed', p: null };
  const p = worseBeyondToleranceP(row);
  if (row.status === 'regressed') return { suspect: true, why: 'regressed', p };
  if (row.baseline === null || row.current === null) return { suspect: false, bound: null, blind: false };
  const sign = worseSign(row);
  if (row.flags.includes('noisier') && row.change !== null && worseLog(row.change, sign) > 0) return { suspect: true, why: 'noisier', p };
  const margin = Math.log1p(Math.max(0, row.tolerance));
  if (row.change !== null && worseLog(row.change, sign) > margin) return { suspect: true, why: 'estimate-beyond-tolerance', p };
  // A benchmark that flips is decided by its levels, and a level that moved by more than half the gap onto the other
  // level looks like a change of the mix (a side that drew one level only is compared on it alone). The screen cannot
  // tell the two apart, so it sends on a flipping row whose runs, read as one distribution, are worse than the
  // tolerance: the interleaved rounds decide, and a mix alone still fails nothing.
  if (row.flags.includes('flips') && Math.log1p(screenedSlowdown(row)) > margin) {
    return { suspect: true, why: 'flips-values-beyond-tolerance', p };
  }
  // A side in one level that is neither of the other side's: read against the other level, the change may be a
  // slowdown beyond the tolerance, and only the rounds can show it (or say again that they cannot tell).
  if (row.reason.code === 'level-unknown' && worseLog(row.reason.other.change, sign) > margin) {
    return { suspect: true, why: 'other-level-beyond-tolerance', p };
  }
  if (p !== null && p < alpha) return { suspect: true, why: 'worse-beyond-tolerance', p };
  const bound = worseBound(row);
  // Blind only when a slowdown beyond the tolerance is still possible: a wide interval whose worse end stays within it has cleared the row.
  return { suspect: false, bound, blind: bound !== null && Math.log1p(bound) > margin };
}

/**
 * How often the screen sends an unchanged row to the second stage at a
 * between-run drift (a fraction): the chance that a run-to-run difference of
 * standard deviation √2·drift (on the log scale) has an estimate worse than
 * the tolerance (or, at a level above one half, looks worse at that level). The within-run noise is left out, so this
 * is a lower bound; `history noise` shows it per benchmark.
 */
export function screenSuspectRate(drift: number, tolerance: number, alpha: number = DEFAULT_SCREEN_ALPHA): number {
  const se = Math.SQRT2 * Math.log1p(drift);
  if (!(se > 0)) return 0;
  // An estimate worse than the tolerance is a suspect whatever the level: the level counts only above one half.
  return upperTail(Math.log1p(tolerance) / se + zQuantile(1 - Math.max(alpha, 0.5)));
}
