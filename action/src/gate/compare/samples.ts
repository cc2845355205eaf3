import {
  describeSorted,
  hodgesLehmannShift,
  mannWhitney,
  medianOfSorted,
  minSamplesPerSide,
  RANK_TEST_EFFICIENCY,
  samplesNeeded,
  smallestExactP,
  sortedCopy,
  upperTail,
  zQuantile,
} from '../../stats/index.js';
import { allPositive, logs, relativeToLog } from './scale.js';
import { noisierSamples, robustSigma, sortedSide } from './noisier.js';
import type { StrategyOptions, StrategyResult } from './strategy.js';
import type { RowFlag } from '../types.js';

export interface SamplesInput {
  baseline: readonly number[];
  current: readonly number[];
  alpha: number;
  /** Regression tolerance (fraction): the change size the power calculation targets. */
  tolerance: number;
  noise: number;
  /** Between-run relative noise (standard deviation of a run's level, fraction); 0 when unknown. */
  drift: number;
  /** Runs `drift` was learned from; null when it is the configured value. */
  driftRuns: number | null;
}

/**
 * Independent samples on both sides (the usual case: a baseline run and a
 * current run). Mann–Whitney U for significance; the Hodges–Lehmann shift of
 * the log values and its Moses interval for the size, so the estimate is the
 * median of all pairwise ratios current/baseline. Chosen over a bootstrap of
 * the median ratio because its coverage holds at 5–20 samples where the
 * bootstrap's does not (docs/statistics.md has the measurement).
 *
 * Block drift between runs makes the within-run spread understate the real
 * uncertainty. When the caller knows the between-run noise (`drift`), it is
 * added: the interval widens by z·√2·drift, the p-value becomes the larger of
 * the rank test's and a normal test with the combined variance, and the power
 * calculation knows that more samples cannot remove it.
 */
export function compareSamples(input: SamplesInput, options: StrategyOptions): StrategyResult {
  const onLogScale = allPositive(input.baseline) && allPositive(input.current);
  // Sort once; the log is monotone, so the logs of sorted values are sorted too.
  const rawBase = sortedCopy(input.baseline);
  const rawCur = sortedCopy(input.current);
  const base = onLogScale ? logs(rawBase) : rawBase;
  const cur = onLogScale ? logs(rawCur) : rawCur;
  const scale = onLogScale ? 1 : Math.abs(medianOfSorted(rawBase)) || 1;
  const nb = base.length;
  const nc = cur.length;
  // Ranks are the same on any monotone scale: test the raw values, so the log cannot merge close values into ties.
  const test = mannWhitney(rawCur, rawBase, { presorted: true });
  const hl = hodgesLehmannShift(base, cur, { confidence: options.confidence, presorted: true });
  const toShift = (v: number): number => (onLogScale ? v : relativeToLog(v / scale));
  const shift = toShift(hl.estimate);
  let lower = toShift(hl.lower);
  let upper = toShift(hl.upper);
  let pRaw = test.p;
  const driftLog = input.drift > 0 ? Math.log1p(input.drift) : 0;
  const z = zQuantile(1 - (1 - options.confidence) / 2);
  if (driftLog > 0 && Number.isFinite(shift)) {
    // The within-run standard error, read off the rank interval before it is widened.
    const seWithin = (upper - lower) / (2 * z);
    const seTotal = Math.hypot(seWithin, Math.SQRT2 * driftLog);
    const extra = z * Math.SQRT2 * driftLog;
    lower = shift - Math.hypot(shift - lower, extra);
    upper = shift + Math.hypot(upper - shift, extra);
    const pDrift = seTotal > 0 ? Math.min(1, 2 * upperTail(Math.abs(shift) / seTotal)) : 1;
    pRaw = Math.max(pRaw, pDrift);
  }
  const baseSide = sortedSide(base);
  const curSide = sortedSide(cur);
  const flags: RowFlag[] = [];
  if (noisierSamples(baseSide, curSide, onLogScale, options)) flags.push('noisier');
  const minimum = minSamplesPerSide(input.alpha);
  const insufficient = smallestExactP(nb, nc) >= input.alpha;
  if (insufficient) flags.push('insufficient-samples');
  const sb = robustSigma(baseSide) / scale;
  const sc = robustSigma(curSide) / scale;
  const target = Math.log1p(input.tolerance > 0 ? input.tolerance : input.noise);
  const powered = samplesNeeded({
    variance: sb * sb + sc * sc,
    fixedVariance: 2 * driftLog * driftLog,
    delta: target,
    alpha: input.alpha,
    power: options.power,
    efficiency: RANK_TEST_EFFICIENCY,
  });
  return {
    method: { id: 'mann-whitney', exact: test.method === 'exact', drift: driftLog > 0 ? input.drift : 0, driftRuns: driftLog > 0 ? input.driftRuns : null },
    shift,
    interval: [lower, upper],
    pRaw,
    flags,
    minimumNeeded: insufficient ? minimum : null,
    samplesNeeded: powered === null ? null : Math.max(powered, minimum),
    sides: [describeSorted(rawBase), describeSorted(rawCur)],
  };
}
