import { hodgesLehmannCenter, minRounds, RANK_TEST_EFFICIENCY, samplesNeeded, sortedCopy, wilcoxonSignedRank } from '../../stats/index.js';
import { logs } from './scale.js';
import { noisierSamples, robustSigma, sortedSide } from './noisier.js';
import type { StrategyOptions, StrategyResult } from './strategy.js';
import type { RowFlag } from '../types.js';

export interface PairedInput {
  /** Index-aligned by round: baseline[i] and current[i] ran back to back. All positive. */
  baseline: readonly number[];
  current: readonly number[];
  alpha: number;
  tolerance: number;
  noise: number;
}

/**
 * Interleaved rounds (ABAB or random order per round): the per-round log
 * ratio log(current_i / baseline_i) cancels the machine's slow drift, which is
 * the main reason independent-sample tests over-flag on real runners
 * (docs/design.md). Wilcoxon signed-rank on those ratios for significance, the
 * Hodges–Lehmann centre (median of the Walsh averages) and its signed-rank
 * interval for the size. No drift allowance is needed. Rounds whose ratio is
 * exactly 1 carry no direction and are dropped by the test (not by the
 * estimate).
 */
export function comparePaired(input: PairedInput, options: StrategyOptions): StrategyResult {
  const base = logs(input.baseline);
  const cur = logs(input.current);
  const noisier = noisierSamples(sortedSide(sortedCopy(base)), sortedSide(sortedCopy(cur)), true, options);
  return compareRoundRatios(roundRatios(input), input, options, noisier);
}

/** Each round's log ratio, log current − log baseline: a difference, so swapping the sides negates it exactly. */
export function roundRatios(input: Pick<PairedInput, 'baseline' | 'current'>): number[] {
  const base = logs(input.baseline);
  return Array.from(logs(input.current), (c, i) => c - base[i]!);
}

/**
 * The rounds' log ratios decided: Wilcoxon signed-rank, the Hodges–Lehmann
 * centre and interval, the rounds needed. `noisier`: the current's spread
 * grew (read from the sides, which the ratios no longer hold).
 */
export function compareRoundRatios(
  d: readonly number[],
  input: Pick<PairedInput, 'alpha' | 'tolerance' | 'noise'>,
  options: StrategyOptions,
  noisier: boolean,
): StrategyResult {
  const test = wilcoxonSignedRank(d);
  const hl = hodgesLehmannCenter(d, { confidence: options.confidence });
  const flags: RowFlag[] = ['paired'];
  if (noisier) flags.push('noisier');
  const minimum = minRounds(input.alpha);
  const insufficient = test.n < minimum;
  if (insufficient) flags.push('insufficient-samples');
  const sd = robustSigma(sortedSide(sortedCopy(d)));
  const powered = samplesNeeded({
    variance: sd * sd,
    fixedVariance: 0,
    delta: Math.log1p(input.tolerance > 0 ? input.tolerance : input.noise),
    alpha: input.alpha,
    power: options.power,
    efficiency: RANK_TEST_EFFICIENCY,
  });
  return {
    method: { id: 'wilcoxon-signed-rank', rounds: d.length, exact: test.method === 'exact' },
    shift: hl.estimate,
    interval: [hl.lower, hl.upper],
    pRaw: test.p,
    flags,
    minimumNeeded: insufficient ? minimum + test.zeros : null,
    samplesNeeded: powered === null ? null : Math.max(powered, minimum),
  };
}
