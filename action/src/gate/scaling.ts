import type { BenchmarkResult, Metric } from '../model/index.js';
import { fitPowerLaw, type PowerLawFit } from '../stats/scaling.js';
import type { ScalingFitFacts, ScalingReason } from './reason.js';

/**
 * Scaling budgets: `memory_peak: { exponent: { param: entityCount, max: 1.1 } }`
 * bounds how fast a metric may grow over a swept parameter, fitted as
 * metric ≈ c · param^k over the points of a sweep. It catches the change that
 * makes an algorithm quadratic even when every point is still under its
 * absolute budget. Pure: benchmarks in, checks out; the gate turns each check
 * into a row.
 */

/** The limit on the exponent, as budgets.ts gives it (`min` is accepted for rates that must keep up). */
export interface ScalingLimit {
  param: string;
  max?: number;
  min?: number;
}

export interface ScalingPoint {
  id: string;
  /** The parameter's value at this point. */
  x: number;
  /** The metric's central value (median of samples, else summary mean, else the value). */
  y: number;
}

/** One fitted family of a sweep and its verdict. */
export interface ScalingCheck {
  /** The sweep's id with this parameter taken out: "mem/sim" for "mem/sim[entityCount=100]", "./prog {n}" for hyperfine's "./prog 100". */
  family: string;
  metric: string;
  param: string;
  points: ScalingPoint[];
  /** Ids of the family's points that failed or lack the metric (not fitted). */
  skipped: string[];
  fit: PowerLawFit | null;
  limit: ScalingLimit;
  /**
   * `pass`: the fitted exponent is within the limit. `fail`: it is beyond the
   * limit and so is the whole confidence interval. `inconclusive`: fewer than
   * three usable points, or the estimate is beyond the limit but the interval
   * still reaches inside it (add points or runs); shown, never failing.
   */
  result: 'pass' | 'fail' | 'inconclusive';
  /** Why this result, as data (report/reason-text.ts words it). */
  reason: ScalingReason;
}

export interface ScalingOptions {
  /** Confidence level of the exponent's interval. Default 0.95. */
  confidence: number;
  /** Points needed for a decision. Default 3. */
  minPoints: number;
}

export const DEFAULT_SCALING_OPTIONS: ScalingOptions = { confidence: 0.95, minPoints: 3 };

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The parameter's value and the family id of a benchmark: from `params` (the
 * runner's sweeps, hyperfine -P/-L, JMH @Param) or from an id suffix such as
 * "[entityCount=800]". The family drops this parameter from the bracket list,
 * or, for an id that spells the value inside a command, puts "{param}" in its
 * place. Undefined when the benchmark does not vary this parameter.
 */
export function sweepCoordinate(benchmark: BenchmarkResult, param: string): { family: string; value: string } | undefined {
  const bracket = /\[([^\]]*)\]$/.exec(benchmark.id);
  const pairs = bracket ? bracket[1]!.split(',').map((p) => p.split('=')) : [];
  const fromId = pairs.find(([k]) => k === param)?.[1];
  const value = benchmark.params?.[param] ?? fromId;
  if (value === undefined) return undefined;
  if (fromId !== undefined && bracket) {
    const rest = pairs.filter(([k]) => k !== param).map((p) => p.join('='));
    return { family: benchmark.id.slice(0, bracket.index) + (rest.length > 0 ? `[${rest.join(',')}]` : ''), value };
  }
  const spelled = new RegExp(`(^|[^0-9A-Za-z.])${escapeRegExp(value)}(?=$|[^0-9A-Za-z.])`);
  const family = spelled.test(benchmark.id) ? benchmark.id.replace(spelled, `$1{${param}}`) : benchmark.id;
  return { family, value };
}

function centralValue(metric: Metric): number | undefined {
  if (metric.samples && metric.samples.length > 0) {
    const s = [...metric.samples].sort((a, b) => a - b);
    const mid = s.length >> 1;
    return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  }
  return metric.summary?.mean ?? metric.value;
}

/**
 * Checks a scaling limit over the benchmarks a budget rule matched: groups
 * them into sweep families by `limit.param`, fits each family's metric
 * against the parameter (one central value per point) and decides each.
 * Benchmarks that do not vary the parameter are ignored; failed points are
 * listed in `skipped` and left out of the fit (their own rows already fail).
 */
export function checkScaling(
  benchmarks: readonly BenchmarkResult[],
  metric: string,
  limit: ScalingLimit,
  options: Partial<ScalingOptions> = {},
): ScalingCheck[] {
  const opts = { ...DEFAULT_SCALING_OPTIONS, ...options };
  const families = new Map<string, { points: ScalingPoint[]; skipped: string[] }>();
  for (const b of benchmarks) {
    const coordinate = sweepCoordinate(b, limit.param);
    if (!coordinate) continue;
    const family = families.get(coordinate.family) ?? { points: [], skipped: [] };
    families.set(coordinate.family, family);
    const x = Number(coordinate.value);
    const m = b.metrics[metric];
    const y = b.status === 'ok' && m ? centralValue(m) : undefined;
    if (y === undefined || !(y > 0) || !(x > 0) || !Number.isFinite(x)) family.skipped.push(b.id);
    else family.points.push({ id: b.id, x, y });
  }
  return [...families].map(([family, { points, skipped }]) =>
    checkFamily(
      family,
      metric,
      limit,
      points.sort((a, b) => a.x - b.x),
      skipped,
      opts,
    ),
  );
}

/** Fits one sweep family and checks the exponent against the limit; unsure when the interval straddles it. */
function checkFamily(family: string, metric: string, limit: ScalingLimit, points: ScalingPoint[], skipped: string[], opts: ScalingOptions): ScalingCheck {
  const base = { family, metric, param: limit.param, points, skipped, limit };
  const distinct = new Set(points.map((p) => p.x)).size;
  if (distinct < Math.max(2, opts.minPoints)) {
    return {
      ...base,
      fit:
        distinct >= 2
          ? fitPowerLaw(
              points.map((p) => p.x),
              points.map((p) => p.y),
              opts,
            )
          : null,
      result: 'inconclusive',
      reason: { code: 'scaling-too-few-points', metric, param: limit.param, usable: distinct, skipped: skipped.length, minPoints: opts.minPoints },
    };
  }
  const fit = fitPowerLaw(
    points.map((p) => p.x),
    points.map((p) => p.y),
    opts,
  );
  const facts: ScalingFitFacts = {
    metric,
    param: limit.param,
    exponent: fit.exponent,
    ci: [fit.ci[0], fit.ci[1]],
    confidence: fit.confidence,
    points: points.length,
    skipped: skipped.length,
  };
  const above = limit.max !== undefined && fit.exponent > limit.max;
  const below = limit.min !== undefined && fit.exponent < limit.min;
  if (!above && !below) {
    const bounds = { ...(limit.min !== undefined ? { min: limit.min } : {}), ...(limit.max !== undefined ? { max: limit.max } : {}) };
    return { ...base, fit, result: 'pass', reason: { code: 'scaling-within-limit', fit: facts, limit: bounds } };
  }
  const bound = above ? limit.max! : limit.min!;
  const side = above ? 'above' : 'below';
  const sure = above ? fit.ci[0] > bound : fit.ci[1] < bound;
  if (sure) return { ...base, fit, result: 'fail', reason: { code: 'scaling-beyond-limit', fit: facts, side, bound } };
  return { ...base, fit, result: 'inconclusive', reason: { code: 'scaling-unsure', fit: facts, side, bound } };
}
