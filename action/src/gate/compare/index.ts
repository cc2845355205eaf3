import { dimensionOfUnit, type Metric } from '../../model/index.js';
import { benjaminiHochberg, describe as describeValues, mean, median, minRounds, stddev, type Description } from '../../stats/index.js';
import type { ComparisonNote, ComparisonReason, TestedFacts } from '../reason.js';
import type { RowFlag, SideStats } from '../types.js';
import type { ComparisonMethod, StrategyOptions, StrategyResult } from './strategy.js';
import { compareSamples } from './samples.js';
import { comparePaired, compareRoundRatios, roundRatios } from './paired.js';
import { compareSummary, type SummarySide } from './summary.js';
import { compareSingleValue } from './single-value.js';
import { compareExact } from './exact.js';
import { compareFoldedRounds, compareLevels, compareRoundsByLevel } from './levels.js';
import { compareUnsharedLevels } from './unshared-levels.js';
import { allPositive, logToRelative } from './scale.js';

/**
 * The statistical comparison of one metric between baseline and current, the
 * heart of the decision rule in docs/design.md ("Deciding regressed"). This module
 * picks the method from what each side has (samples, summary, single value,
 * exact count, paired rounds), applies Benjamini–Hochberg across all inputs of
 * one call (one call = one suite), and classifies each row. It knows nothing of
 * budgets, benchmark names or files.
 *
 * All thresholds are compared on the log-ratio scale: a tolerance t means a
 * ratio above 1 + t or below 1/(1 + t) (−t/(1+t), e.g. −4.76 % for t = 5 %).
 * That makes swapping baseline and current mirror every verdict exactly; for
 * tolerances of a few percent the two readings differ by a rounding.
 */

export interface ComparisonInput {
  baseline: Metric;
  current: Metric;
  /** Deterministic count: compare against the tolerance directly, no test. */
  exact: boolean;
  /** Samples are index-aligned by round (interleaved A/B): use the paired analysis. */
  paired: boolean;
  /** Regression tolerance as a fraction (0.05 = 5 %): a shift must exceed it to regress. */
  regression: number;
  /** Noise floor as a fraction: intervals inside ±noise are "unchanged". */
  noise: number;
  /** Significance level for this row, after false-discovery control across the call. */
  alpha: number;
  /**
   * Between-run noise as a fraction (standard deviation of a whole run's level,
   * e.g. 0.03 from the baseline's history on this testbed). Added to the
   * within-run uncertainty of unpaired comparisons; 0 or absent when unknown.
   */
  drift?: number;
  /** Earlier runs `drift` was learned from (the run history); absent when it is the configured `drift:`. */
  driftRuns?: number;
}

export interface ComparisonOptions {
  /** Confidence level of the reported interval. Default 0.95. */
  confidence: number;
  /** Seed for any resampling, so verdicts are reproducible. */
  seed: number;
  /** Significance of the dispersion checks behind `noisier` (strict: it is not FDR-controlled). Default 0.001. */
  dispersionAlpha?: number;
  /** Spread ratio current/baseline below which `noisier` is never set. Default 1.5. */
  dispersionRatio?: number;
  /** A current run slower than this multiple of its median is an upper-tail run (the baseline's count from its square root). Default 1.5. */
  tailFactor?: number;
  /** Upper-tail runs needed in the current side for `noisier`. Default 3. */
  tailMinCount?: number;
  /** Share of runs by which the current's tail must exceed the baseline's for `noisier`. Default 0.1. */
  tailMinExcess?: number;
  /** Significance of the tail excess over the baseline's rate of tail runs (binomial). Default 0.02. */
  tailAlpha?: number;
  /** Power of the samples-needed calculation. Default 0.8. */
  power?: number;
  /** Compare a benchmark that flips between two levels level by level (gate/compare/levels.ts). Default true; false reads it as one distribution (what gates did before). */
  levels?: boolean;
}

export const DEFAULT_COMPARISON_OPTIONS: ComparisonOptions = {
  confidence: 0.95,
  seed: 1,
  dispersionAlpha: 0.001,
  dispersionRatio: 1.5,
  tailFactor: 1.5,
  tailMinCount: 3,
  tailMinExcess: 0.1,
  tailAlpha: 0.02,
  power: 0.8,
  levels: true,
};

export interface Comparison {
  status: 'regressed' | 'improved' | 'unchanged' | 'inconclusive';
  /**
   * current/baseline − 1 of the compared statistic (signed); "higher is worse" is NOT applied here.
   * With samples the statistic is the Hodges–Lehmann shift: the median of all
   * pairwise ratios current/baseline (per-round ratios when paired).
   */
  change: number;
  ci: [number, number] | null;
  ciLevel: number | null;
  /** p-value after Benjamini–Hochberg across the call; null when no test was made. */
  p: number | null;
  /** Raw p-value before adjustment. */
  pRaw: number | null;
  flags: RowFlag[];
  /** Samples per side that would decide an inconclusive row; null otherwise. */
  samplesNeeded: number | null;
  /** The method and why this status, as data (report/reason-text.ts words it). */
  reason: ComparisonReason;
  baseline: SideStats;
  current: SideStats;
  /** Which method decided the row. */
  method: ComparisonMethod;
}

/** Compares every input; rows are returned in input order. */
export function compareMetrics(inputs: readonly ComparisonInput[], options: ComparisonOptions = DEFAULT_COMPARISON_OPTIONS): Comparison[] {
  const o = resolveOptions(options);
  const results = inputs.map((input) => runStrategy(input, o));
  const adjusted = benjaminiHochberg(results.map((r) => r.pRaw ?? NaN));
  const tested = results.filter((r) => r.pRaw !== null).length;
  return inputs.map((input, i) => classify(input, results[i] as StrategyOutcome, adjusted[i] as number, tested, o));
}

/** Descriptive statistics of one side (used for new/missing rows too). */
export function describeMetric(metric: Metric): SideStats {
  const samples = finiteSamples(metric);
  if (samples.length > 0) return sideStats(describeValues(samples));
  const s = metric.summary;
  if (s && Number.isFinite(s.mean)) {
    return {
      value: s.mean,
      n: s.n,
      mean: s.mean,
      median: s.median ?? null,
      stddev: s.stddev ?? null,
      min: s.min ?? null,
      max: s.max ?? null,
    };
  }
  const v = metric.value ?? NaN;
  return { value: v, n: Number.isFinite(v) ? 1 : 0, mean: v, median: v, stddev: null, min: v, max: v };
}

/** SideStats of samples: the median is the compared value. */
function sideStats(d: Description): SideStats {
  return { value: d.median, n: d.n, mean: d.mean, median: d.median, stddev: d.n > 1 ? d.stddev : null, min: d.min, max: d.max };
}

function resolveOptions(options: ComparisonOptions): StrategyOptions {
  const d = DEFAULT_COMPARISON_OPTIONS;
  return {
    confidence: options.confidence,
    dispersionAlpha: options.dispersionAlpha ?? (d.dispersionAlpha as number),
    dispersionRatio: options.dispersionRatio ?? (d.dispersionRatio as number),
    tailFactor: options.tailFactor ?? (d.tailFactor as number),
    tailMinCount: options.tailMinCount ?? (d.tailMinCount as number),
    tailMinExcess: options.tailMinExcess ?? (d.tailMinExcess as number),
    tailAlpha: options.tailAlpha ?? (d.tailAlpha as number),
    power: options.power ?? (d.power as number),
    levels: options.levels ?? true,
  };
}

/** The metric's finite samples: the array itself when all are finite (the usual case, no copy). */
function finiteSamples(metric: Metric): readonly number[] {
  const samples = metric.samples ?? [];
  for (const v of samples) if (!Number.isFinite(v)) return samples.filter((x) => Number.isFinite(x));
  return samples;
}

/** Samples of a time metric that are 0 s or less (a count or a size may well be 0). */
function zeroTimes(metric: Metric, samples: readonly number[]): number {
  if (dimensionOfUnit(metric.unit) !== 'time') return 0;
  const values = samples.length > 0 ? samples : [metric.summary?.mean ?? metric.value ?? NaN];
  return values.filter((v) => v <= 0).length;
}

/** The single number a side stands for: median of samples, summary mean, or the value. */
function sideValue(metric: Metric): number {
  const samples = finiteSamples(metric);
  if (samples.length > 0) return median(samples);
  if (metric.summary && Number.isFinite(metric.summary.mean)) return metric.summary.mean;
  return metric.value ?? NaN;
}

/** Mean, stddev and n when the side supports Welch's test. */
function summarySide(metric: Metric): SummarySide | null {
  const samples = finiteSamples(metric);
  if (samples.length >= 2) return { mean: mean(samples), stddev: stddev(samples), n: samples.length };
  const s = metric.summary;
  if (s && s.n >= 2 && Number.isFinite(s.mean) && typeof s.stddev === 'number' && s.stddev >= 0) {
    return { mean: s.mean, stddev: s.stddev, n: s.n };
  }
  return null;
}

/** A strategy's result with what the choice of strategy adds for the reader. */
interface StrategyOutcome extends StrategyResult {
  notes: ComparisonNote[];
}

/** Callers state what they have; this picks the one strategy that fits. */
function runStrategy(input: ComparisonInput, o: StrategyOptions): StrategyOutcome {
  const { baseline, current } = input;
  if (input.exact || (baseline.exact && current.exact)) return { ...compareExact(sideValue(baseline), sideValue(current)), notes: [] };
  const bs = finiteSamples(baseline);
  const cs = finiteSamples(current);
  const dropped = (baseline.samples?.length ?? 0) - bs.length + (current.samples?.length ?? 0) - cs.length;
  const drift = input.drift ?? 0;
  let result: StrategyResult;
  const notes: ComparisonNote[] = dropped > 0 ? [{ code: 'non-finite-ignored', count: dropped }] : [];
  // A time of 0 s is no measurement (a harness that clamps after subtracting its overhead):
  // no change is a percentage of it, so the row says so rather than compare.
  const zeros = zeroTimes(baseline, bs) + zeroTimes(current, cs);
  if (zeros > 0) {
    notes.push({ code: 'zero-time-samples', count: zeros });
    return { method: { id: 'not-compared' }, shift: NaN, interval: null, pRaw: null, flags: [], minimumNeeded: null, samplesNeeded: null, notes };
  }
  if (bs.length >= 2 && cs.length >= 2) {
    const aligned = bs.length === cs.length && dropped === 0 && allPositive(bs) && allPositive(cs);
    if (input.paired && !aligned) notes.push({ code: 'rounds-not-aligned' });
    result = compareSampleSets(input, bs, cs, input.paired === true && aligned, o);
  } else {
    const sb = summarySide(baseline);
    const sc = summarySide(current);
    if (sb && sc) {
      result = compareSummary({ baseline: sb, current: sc, alpha: input.alpha, tolerance: input.regression, noise: input.noise, drift }, o);
    } else {
      result = compareSingleValue(sideValue(baseline), sideValue(current));
    }
  }
  return { ...result, notes };
}

/**
 * Samples on both sides: rounds (`rounds`: index-aligned, interleaved)
 * decided paired, else as two samples. A benchmark that flips between two
 * levels is decided by its levels (gate/compare/levels.ts), the pairing of
 * rounds kept (each round's processes draw their levels afresh): rounds of
 * several processes a side level by level within each round, rounds of one
 * with the flip taken out of each round's ratio (and paired as any rounds
 * when the ratios show none); plain runs level by level.
 */
function compareSampleSets(input: ComparisonInput, bs: readonly number[], cs: readonly number[], rounds: boolean, o: StrategyOptions): StrategyResult {
  const tolerances = { alpha: input.alpha, tolerance: input.regression, noise: input.noise };
  const samples = { baseline: bs, current: cs, ...tolerances, drift: input.drift ?? 0, driftRuns: input.driftRuns ?? null };
  const decideRounds = (d: readonly number[]): StrategyResult => compareRoundRatios(d, tolerances, o, false);
  const processes = rounds ? roundProcesses(input, bs.length) : null;
  const unit = input.baseline.unit;
  const levels = !o.levels
    ? null
    : (compareUnsharedLevels(
        processes ? { ...samples, baseline: processes.baseline.flat(), current: processes.current.flat(), unit } : { ...samples, unit },
        o,
      ) ??
      (processes ? compareRoundsByLevel(processes.baseline, processes.current, unit, decideRounds) : null) ??
      (rounds ? compareFoldedRounds(roundRatios({ baseline: bs, current: cs }), decideRounds) : null) ??
      // Rounds of one process a side whose ratios show no flip stay paired: a side's values can still split in two
      // (the machine's own modes, which each round's ratio cancels), and reading them level by level, unpaired, lost
      // four of the 60 real +10 % trials of docs/detection.md's replay.
      (rounds && !processes ? null : compareLevels({ ...samples, unit }, o)));
  return levels ?? (rounds ? comparePaired({ baseline: bs, current: cs, ...tolerances }, o) : compareSamples(samples, o));
}

/**
 * Both sides' own values of each round (Metric.roundSamples), when both kept
 * them for every round, all are positive, and some round holds more than
 * one: rounds of one value a side are the rounds' values themselves, decided
 * as one process a side (the fold, or paired).
 */
function roundProcesses(input: ComparisonInput, rounds: number): { baseline: number[][]; current: number[][] } | null {
  const usable = (r: number[][] | undefined): r is number[][] =>
    r !== undefined && r.length === rounds && r.every((values) => values.length > 0 && values.every((v) => Number.isFinite(v) && v > 0));
  const baseline = input.baseline.roundSamples;
  const current = input.current.roundSamples;
  if (!usable(baseline) || !usable(current)) return null;
  return [...baseline, ...current].some((values) => values.length > 1) ? { baseline, current } : null;
}

/**
 * The reading against the other level, as a relative change, when it makes
 * a significant row ambiguous: a side in one level that moved (clear of the
 * noise floor) is neither of the other side's levels, and against the other
 * level the change falls on another side of the tolerance. A change of about
 * the gap between the levels does that, and the values cannot tell which
 * level the one came from until that side draws the other too
 * (gate/compare/levels.ts). Null otherwise.
 */
function otherLevelVerdict(r: StrategyResult, tol: number, floor: number): { change: number; ci: [number, number] | null } | null {
  const other = r.otherLevel;
  if (!other || !r.interval) return null;
  const [lo, hi] = r.interval;
  const side = (x: number): number => (x > tol ? 1 : x < -tol ? -1 : 0);
  if (!(lo > floor || hi < -floor) || side(other.shift) === side(r.shift)) return null;
  return { change: logToRelative(other.shift), ci: other.interval ? [logToRelative(other.interval[0]), logToRelative(other.interval[1])] : null };
}

/**
 * Classifies one comparison by the rule of docs/design.md ("Deciding regressed"),
 * on the log-ratio scale, with the p-value adjusted across the call, and
 * records why as data.
 */
function classify(input: ComparisonInput, r: StrategyOutcome, pAdjusted: number, family: number, o: StrategyOptions): Comparison {
  const tol = Math.log1p(Math.max(0, input.regression));
  const floor = Math.log1p(Math.max(0, input.noise));
  // "Worse" depends on the metric: an increase regresses a time, improves a throughput.
  const increase: Comparison['status'] = input.current.direction === 'higher' ? 'improved' : 'regressed';
  const decrease: Comparison['status'] = increase === 'regressed' ? 'improved' : 'regressed';
  const shift = r.shift;
  const [lo, hi] = r.interval ?? [shift, shift];
  const tested = r.pRaw !== null;
  const p = tested ? pAdjusted : null;
  const change = logToRelative(shift);
  const ci: [number, number] | null = r.interval ? [logToRelative(lo), logToRelative(hi)] : null;
  const { method, notes } = r;
  let status: Comparison['status'];
  let samplesNeeded: number | null = null;
  let reason: ComparisonReason;

  const baseline = r.sides ? sideStats(r.sides[0]) : describeMetric(input.baseline);
  const current = r.sides ? sideStats(r.sides[1]) : describeMetric(input.current);
  if (Number.isNaN(shift)) {
    status = 'inconclusive';
    reason = { code: 'no-usable-values', method, notes };
  } else if (!tested) {
    if (shift > tol) status = increase;
    else if (shift < -tol) status = decrease;
    else status = 'unchanged';
    reason = { code: 'tolerance-only', method, change, tolerance: input.regression, beyond: status !== 'unchanged', notes };
  } else if (r.minimumNeeded !== null) {
    status = 'inconclusive';
    samplesNeeded = Math.max(r.minimumNeeded, r.samplesNeeded ?? 0);
    reason = { code: 'cannot-reach-significance', method, alpha: input.alpha, baselineN: baseline.n, currentN: current.n, needed: samplesNeeded, notes };
  } else {
    const facts: TestedFacts = {
      method,
      p: p as number,
      adjusted: p !== r.pRaw,
      ci,
      confidence: o.confidence,
      change,
      tolerance: input.regression,
      noise: input.noise,
      alpha: input.alpha,
      notes,
    };
    const significant = (p as number) < input.alpha;
    const other = significant ? otherLevelVerdict(r, tol, floor) : null;
    if (other) {
      status = 'inconclusive';
      reason = { code: 'level-unknown', ...facts, other };
    } else if (significant && lo > floor && shift > tol) {
      status = increase;
      reason = { code: 'significant-change', ...facts };
    } else if (significant && hi < -floor && shift < -tol) {
      status = decrease;
      reason = { code: 'significant-change', ...facts };
    } else if (lo > -tol && hi < tol) {
      status = 'unchanged';
      reason = { code: 'change-ruled-out', ...facts };
    } else if (significant && shift <= tol && shift >= -tol) {
      status = 'unchanged';
      reason = { code: 'shift-within-tolerance', ...facts };
    } else {
      status = 'inconclusive';
      // Paired rows: even rounds that all agree cannot decide a row below the count its family needs (minRounds).
      samplesNeeded = r.method.id === 'wilcoxon-signed-rank' ? Math.max(r.samplesNeeded ?? 0, minRounds(input.alpha, family)) : r.samplesNeeded;
      reason = { code: significant ? 'within-noise-floor' : 'not-significant', samplesNeeded, ...facts };
    }
  }
  return {
    status,
    change,
    ci,
    ciLevel: ci ? o.confidence : null,
    p,
    pRaw: r.pRaw,
    flags: r.flags,
    samplesNeeded,
    reason,
    baseline,
    current,
    method: method.id,
  };
}
