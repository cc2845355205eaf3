/**
 * Interleaved rounds of a benchmark that flips between two levels: each
 * round's two processes draw their levels afresh, so a round's log ratio
 * log(current / baseline) is the change `s` when both drew the same level,
 * and s ± g when they drew different ones (g: the log gap between the
 * levels). The machine's drift cancels within a round, as for any rounds;
 * the levels do not. Folded by the gap, every round's ratio is the change
 * again, whatever the two sides' mixes: the flip is taken out and the
 * pairing kept.
 *
 * The gap is found as the spacing of three equally spaced groups that fits
 * the ratios best: for each candidate g (a grid from MIN_GAP to MAX_GAP on
 * the log scale), each round is put in the group s − g, s or s + g nearest
 * to it, the centre s is the median of the rounds moved back by their group,
 * a few times over (from the copies of the ratios' median one gap apart
 * nearest zero), and the fit is the sum of absolute distances (a stall
 * costs its distance, not its square). Only fits that move enough rounds
 * (`minCount` and `minShare`: rounds that drew two levels) and leave two
 * unmoved (rounds that drew one) compete; on a tie the centre nearer zero
 * wins. The best is accepted as a flip when two levels could have given
 * the groups' sizes (twoLevelsCould); when it leaves as many rounds
 * unmoved as it must move (the unmoved ones carry the change); when no
 * more than a tenth of the rounds lie beyond half a gap from the centre
 * once folded (a group the fit leaves out is a level it does not
 * explain); when the moved rounds lie far from the centre for the folded
 * spread (their median distance is at least `minSeparation` robust
 * standard deviations, the normal-consistent MAD, of the folded ratios:
 * stats/levels.ts's rule); and when the groups leave
 * empty ground between them (`minEmpty` robust deviations: a comb fine
 * enough fits any spread of ratios, but cannot empty the ground between its
 * teeth). Checked against a NumPy implementation written from this
 * description (test/stats/folded-rounds.test.ts).
 *
 * A change of more than half the gap cannot be told from a change of the
 * mix (+12 % between levels 20 % apart is −8 % from the other level): the
 * fold reads it as the smaller one, and the caller's row says the benchmark
 * flips.
 */
import { medianOfSorted } from './descriptive.js';
import { madSigma } from './levels.js';

export interface FoldOptions {
  /** The moved rounds' median distance from the centre, in robust standard deviations of the folded ratios, at least. */
  minSeparation: number;
  /** Rounds that must be folded (drew different levels), at least. */
  minCount: number;
  minShare: number;
  /** Rounds the set needs. */
  minRounds: number;
  /** The empty ground between two groups of ratios, in robust standard deviations of the folded ones, at least. */
  minEmpty: number;
}

export const DEFAULT_FOLD_OPTIONS: FoldOptions = { minSeparation: 5, minCount: 4, minShare: 0.1, minRounds: 12, minEmpty: 3 };

/** The gaps tried, on the log scale: 4 % to 100 % between the levels (twice: a stall, not a level). */
const MIN_GAP = Math.log(1.04);
const MAX_GAP = Math.log(2);
const GAP_STEP = 0.002;

export interface FoldedRounds {
  /** The log gap between the levels. */
  gap: number;
  /** Each round's log ratio with the flip taken out: d − k·gap. */
  folded: number[];
  /** How many gaps each round was moved by (−1, 0 or +1): 0 when both sides drew one level. */
  folds: number[];
  /** The folded rounds' median distance from the centre over the folded ratios' robust standard deviation. */
  separation: number;
}

/** To the nearest integer, halves away from zero either way: swapping the sides then mirrors the fold exactly. */
function roundHalfOut(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x)) || 0; // never −0: a round that stayed stayed
}

/** The three groups one gap apart that fit the ratios best for this gap: the centre, each round's group, the fit. */
function fitGap(d: readonly number[], gap: number, start: number): { centre: number; folds: number[]; cost: number } {
  let centre = start;
  let folds: number[] = [];
  for (let pass = 0; pass < 4; pass++) {
    folds = d.map((x) => Math.max(-1, Math.min(1, roundHalfOut((x - centre) / gap))));
    centre = medianOfSorted(d.map((x, i) => x - folds[i]! * gap).sort((a, b) => a - b));
  }
  const cost = d.reduce((sum, x, i) => sum + Math.abs(x - centre - folds[i]! * gap), 0);
  return { centre, folds, cost };
}

/**
 * Is `fit` better than `best`? A smaller sum of distances; on a tie (two
 * groups of rounds fit as well with either as the centre), the centre
 * nearer no change: the change is taken to be less than half the gap.
 */
function betterFit(fit: { cost: number; centre: number }, best: { cost: number; centre: number }): boolean {
  const tie = 1e-9 * Math.max(fit.cost, best.cost);
  if (fit.cost < best.cost - tie) return true;
  return fit.cost <= best.cost + tie && Math.abs(fit.centre) < Math.abs(best.centre);
}

/**
 * Could two levels, drawn afresh by each process, have given these groups?
 * With the baseline in the slow level at rate x and the current at rate y,
 * the rounds that moved up, moved down and stayed come at rates
 * (1 − x)·y, x·(1 − y) and x·y + (1 − x)·(1 − y), and the last is at least
 * twice the geometric mean of the other two (AM–GM). A fit that puts most
 * rounds above and below and few in the middle is a comb laid over a third
 * level or a drift, not a flip; a slack of three standard errors of a share
 * (at most 1/(2√n) each) allows for the draw.
 */
function twoLevelsCould(folds: readonly number[]): boolean {
  const n = folds.length;
  const share = (k: number): number => folds.filter((f) => f === k).length / n;
  return share(0) + 1.5 / Math.sqrt(n) >= 2 * Math.sqrt(share(1) * share(-1));
}

/**
 * The rounds' log ratios (log current − log baseline, one a round) folded by
 * the gap between two levels, or null when they show no flip (see the
 * header).
 */
export function foldRounds(ratios: readonly number[], options: FoldOptions = DEFAULT_FOLD_OPTIONS): FoldedRounds | null {
  const n = ratios.length;
  if (n < options.minRounds || ratios.some((x) => !Number.isFinite(x))) return null;
  const least = Math.max(options.minCount, Math.ceil(options.minShare * n));
  const median = medianOfSorted([...ratios].sort((a, b) => a - b));
  let best: (ReturnType<typeof fitGap> & { gap: number }) | null = null;
  for (let gap = MIN_GAP; gap <= MAX_GAP; gap += GAP_STEP) {
    // The median lies in one of the three groups, or between two: the centre starts at its copies one gap apart
    // nearest no change, and the fit keeps the best.
    const nearest = median - gap * roundHalfOut(median / gap);
    for (const start of [nearest - gap, nearest, nearest + gap]) {
      const fit = fitGap(ratios, gap, start);
      // A flip shows in rounds that drew two levels (enough of them) and in rounds that drew one (two at least here:
      // the best fit is checked for enough of them below): all moved is a shift, none moved no flip.
      const moved = fit.folds.filter((k) => k !== 0).length;
      if (moved < least || n - moved < 2) continue;
      if (!best || betterFit(fit, best)) best = { ...fit, gap };
    }
  }
  // The best fit or none: a worse fit that passes would be a wrong one (a shift read off a smaller comb).
  if (!best || !twoLevelsCould(best.folds)) return null;
  // The unmoved rounds carry the change, so they must be as many as the moved ones need to be: a steady change whose
  // rounds hold two or three stalls fits best as "every round moved by one gap, the stalls stayed", and the stalls
  // would then stand for the change (the replay of real timings in docs/detection.md read 5 of 160 unchanged sets
  // as regressed that way). Rejecting the best fit, rather than leaving such fits out of the search, keeps a worse
  // comb from winning in its place.
  if (best.folds.filter((k) => k === 0).length < least) return null;
  // Every round but a stall or two lies within half a gap of the centre once folded: a group farther out is a level
  // the fit does not explain.
  const unexplained = ratios.filter((x, i) => Math.abs(x - best.folds[i]! * best.gap - best.centre) > best.gap / 2).length;
  if (unexplained > Math.max(1, Math.floor(0.1 * n))) return null;
  const folded = ratios.map((x, i) => x - best.folds[i]! * best.gap);
  const spread = madSigma([...folded].sort((a, b) => a - b));
  const out = ratios.filter((_, i) => best.folds[i] !== 0).map((x) => Math.abs(x - best.centre));
  const separation = spread > 0 ? medianOfSorted(out.sort((a, b) => a - b)) / spread : Infinity;
  if (!(separation >= options.minSeparation)) return null;
  // Levels leave the ground between them empty; a fine enough comb fits any spread of ratios, the empty ground apart.
  const groups = [-1, 0, 1].map((k) => ratios.filter((_, i) => best.folds[i] === k)).filter((g) => g.length > 0);
  for (let i = 1; i < groups.length; i++) {
    if (!(Math.min(...groups[i]!) - Math.max(...groups[i - 1]!) >= options.minEmpty * spread)) return null;
  }
  return { gap: best.gap, folded, folds: best.folds, separation };
}
