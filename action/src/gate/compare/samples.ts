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
/**
 * The between-run drift (log scale) added to a shift's interval and p-value:
 * the interval widens by z·√2·drift in quadrature, and the p-value is at
 * least a normal test's with the drift's variance added to the within-run
 * standard error read off the interval.
 */
export function withDrift(
  shift: number,
  interval: [number, number],
  p: number,
  driftLog: number,
  options: Pick<StrategyOptions, 'confidence'>,
): { interval: [number, number]; p: number } {
  if (!(driftLog > 0) || !Number.isFinite(shift)) return { interval, p };
  const z = zQuantile(1 - (1 - options.confidence) / 2);
  const [lower, upper] = interval;
  const seTotal = Math.hypot((upper - lower) / (2 * z), Math.SQRT2 * driftLog);
  const extra = z * Math.SQRT2 * driftLog;
  const pDrift = seTotal > 0 ? Math.min(1, 2 * upperTail(Math.abs(shift) / seTotal)) : 1;
  return { interval: [shift - Math.hypot(shift - lower, extra), shift + Math.hypot(upper - shift, extra)], p: Math.max(p, pDrift) };
}

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
  const driftLog = input.drift > 0 ? Math.log1p(input.drift) : 0;
  const widened = withDrift(shift, [toShift(hl.lower), toShift(hl.upper)], test.p, driftLog, options);
  const [lower, upper] = widened.interval;
  const pRaw = widened.p;
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
