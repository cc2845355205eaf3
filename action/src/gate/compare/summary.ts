import { logMoments, welch, samplesNeeded, type Moments } from '../../stats/index.js';
import { noisierSummary } from './noisier.js';
import { relativeToLog } from './scale.js';
import type { StrategyOptions, StrategyResult } from './strategy.js';
import type { RowFlag } from '../types.js';

/** Mean, standard deviation and count of one side (from a harness summary or computed from samples). */
export interface SummarySide {
  mean: number;
  stddev: number;
  n: number;
}

export interface SummaryInput {
  baseline: SummarySide;
  current: SummarySide;
  alpha: number;
  tolerance: number;
  noise: number;
  drift: number;
}

/**
 * Only aggregates on at least one side: Welch's t-test on the log scale, the
 * log-scale moments matched from mean and standard deviation (log-normal /
 * delta method), so the difference of log means is a log ratio. Flagged
 * `summary-only`: with skewed times and few runs the normal assumption is
 * weak. Non-positive means fall back to Welch on the raw values, relative to
 * the baseline mean. Known between-run drift is added to each side's
 * variance of the mean.
 */
export function compareSummary(input: SummaryInput, options: StrategyOptions): StrategyResult {
  const { baseline: b, current: c } = input;
  const onLogScale = b.mean > 0 && c.mean > 0;
  const driftLog = input.drift > 0 ? Math.log1p(input.drift) : 0;
  let mb: Moments;
  let mc: Moments;
  if (onLogScale) {
    mb = logMoments(b.mean, b.stddev, b.n);
    mc = logMoments(c.mean, c.stddev, c.n);
  } else {
    mb = { mean: b.mean, variance: b.stddev * b.stddev, n: b.n };
    mc = { mean: c.mean, variance: c.stddev * c.stddev, n: c.n };
  }
  // Drift is a variance of the side's level, not of one run: add n·drift² to the per-run variance.
  const withDrift = (m: Moments): Moments => (driftLog > 0 ? { ...m, variance: m.variance + m.n * driftLog * driftLog } : m);
  const w = welch(withDrift(mc), withDrift(mb), options.confidence);
  const scale = Math.abs(b.mean) || 1;
  const toShift = (v: number): number => (onLogScale ? v : relativeToLog(v / scale));
  const flags: RowFlag[] = ['summary-only'];
  if (onLogScale && noisierSummary(mb, mc, options)) flags.push('noisier');
  const minimum = 2;
  const insufficient = b.n < minimum || c.n < minimum;
  if (insufficient) flags.push('insufficient-samples');
  const powered = samplesNeeded({
    variance: (mb.variance + mc.variance) / (onLogScale ? 1 : scale * scale),
    fixedVariance: 2 * driftLog * driftLog,
    delta: Math.log1p(input.tolerance > 0 ? input.tolerance : input.noise),
    alpha: input.alpha,
    power: options.power,
    efficiency: 1,
  });
  return {
    method: { id: 'welch-log', logScale: onLogScale },
    shift: toShift(w.difference),
    interval: [toShift(w.lower), toShift(w.upper)],
    pRaw: w.p,
    flags,
    minimumNeeded: insufficient ? minimum : null,
    samplesNeeded: powered === null ? null : Math.max(powered, minimum),
  };
}
