/**
 * Has the second sample more runs far above its own median than the first?
 * The count of upper-tail runs on each side, compared with a one-sided
 * binomial test of the second count against the first side's rate.
 *
 * Why counts and not a spread test: a few runs twice as slow as the rest are
 * what users read as instability, yet they barely move ranks (the rank
 * Brown–Forsythe test in dispersion.ts) and they dominate a variance (the F
 * test then fires on a single stray run). Counting runs beyond a fixed
 * multiple of the median is robust to both.
 *
 * Pass natural-log values: a run is in the tail when its log value lies more
 * than log(factor) above its side's median log value (ratios, so the test is
 * blind to units and to a shift of location). The first side's tail starts
 * lower, at `baselineFactor` (default √factor, halfway on the log scale): a
 * baseline run that came even halfway towards the bar counts, so its tail rate
 * is over- rather than under-estimated, and the test errs towards silence
 * when the baseline itself has a heavy shoulder. With a baseline that never
 * came near the bar, the binomial test against the rate (kb + ½)/(nb + 1)
 * rewards what a human sees: 3 runs of 20 at 1.6–2.4× the median where the
 * baseline stayed within 1.2× gives p ≈ 0.011.
 *
 * Assumptions and limits: independent runs; the baseline's rate is estimated
 * and then treated as known, so the p-value is approximate and anti-
 * conservative for small baselines (Fisher's exact test, which does not
 * assume the rate, cannot go below 0.115 for 3 of 20 against 0 of 20: no
 * count test can call that case significant without using the baseline's
 * magnitudes). Callers therefore add a minimum count and a minimum excess of
 * the share, and measure the false-alarm rate (bench/noisier.ts). Wrong tool
 * for a uniformly wider spread (use dispersion.ts) and for values that can be
 * zero or negative (no logs).
 * Reference: the binomial upper tail, scipy.stats.binom.sf(kc − 1, nc, rate);
 * the ½-run correction is the Jeffreys prior's posterior mean of a rate.
 */
import binomialCdf from '@stdlib/stats-base-dists-binomial-cdf';
import { medianOfSorted, sortedCopy } from './descriptive.js';

export interface UpperTailOptions {
  /** A run of the second side is in the tail beyond this multiple of its median (a ratio above 1). */
  factor: number;
  /** A run of the first side counts from this multiple of its median. Default √factor. */
  baselineFactor?: number;
  /** Both inputs are already ascending (skips the copies and sorts). */
  presorted?: boolean;
}

export interface UpperTailResult {
  /** One-sided p-value for "the second side has more tail runs than the first side's rate explains". */
  p: number;
  /** Tail runs of the first side (beyond baselineFactor × its median). */
  baselineCount: number;
  baselineN: number;
  /** Tail runs of the second side (beyond factor × its median). */
  currentCount: number;
  currentN: number;
  /** Share of tail runs, second minus first: the size of the excess (0.15 = 15 points more of the runs). */
  excess: number;
}

/**
 * Upper-tail excess of `current` over `baseline`, both natural-log values.
 * An empty side counts no tail runs and has a share of 0.
 */
export function upperTailExcess(
  baseline: readonly number[] | Float64Array,
  current: readonly number[] | Float64Array,
  options: UpperTailOptions,
): UpperTailResult {
  const b = options.presorted ? baseline : sortedCopy(baseline);
  const c = options.presorted ? current : sortedCopy(current);
  const baselineFactor = options.baselineFactor ?? Math.sqrt(options.factor);
  const kb = tailCount(b, Math.log(baselineFactor));
  const kc = tailCount(c, Math.log(options.factor));
  const share = (k: number, n: number): number => (n > 0 ? k / n : 0);
  return {
    p: tailExcess(kb, b.length, kc, c.length),
    baselineCount: kb,
    baselineN: b.length,
    currentCount: kc,
    currentN: c.length,
    excess: share(kc, c.length) - share(kb, b.length),
  };
}

/** Values of an ascending sample more than `limit` above its median. */
function tailCount(sorted: readonly number[] | Float64Array, limit: number): number {
  if (sorted.length === 0) return 0;
  const m = medianOfSorted(sorted);
  let k = 0;
  for (let i = sorted.length - 1; i >= 0 && (sorted[i] as number) - m > limit; i--) k++;
  return k;
}

/**
 * The p-value of upperTailExcess from the counts: kc of nc current runs are in
 * the tail, kb of nb baseline runs. One-sided binomial test of kc against the
 * baseline's rate estimated as (kb + ½)/(nb + 1) (a half run added so that a
 * baseline without tail runs does not claim a rate of zero):
 * p = P(Bin(nc, rate) ≥ kc).
 */
export function tailExcess(kb: number, nb: number, kc: number, nc: number): number {
  if (kc <= 0) return 1;
  const rate = (kb + 0.5) / (nb + 1);
  return Math.max(0, 1 - binomialCdf(kc - 1, nc, rate));
}
