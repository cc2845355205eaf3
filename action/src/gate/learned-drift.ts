/**
 * The between-run drift of each benchmark × metric, learned from earlier runs
 * on the same testbed (the run history): what a comparison with a stored
 * baseline must allow for, measured instead of assumed. stats/ estimates it
 * from run levels (between-run-drift.ts); this file reads the levels off
 * ResultSets. Pure: the runs come in, a table goes out.
 */
import { betweenRunDrift, levelOfSamples, zQuantile, type RunLevel } from '../stats/index.js';
import { rowKey, type Metric, type ResultSet } from '../model/index.js';

/** One row's learned drift. */
export interface LearnedDrift {
  /** Run-to-run standard deviation of the level, as a fraction (0.031 = ±3.1 %). */
  drift: number;
  /** Runs it was learned from. */
  runs: number;
}

/** Learned drift by rowKey(benchmark, metric). */
export type LearnedDriftTable = ReadonlyMap<string, LearnedDrift>;

export interface LearnOptions {
  /** Fewer usable runs than this: nothing is learned for the row, and the configured `drift:` applies. Default 5. */
  minRuns?: number;
  /**
   * Which scatter becomes the drift. `total` (the default): the run-to-run
   * scatter of a run's level, its own samples' noise included. `between`: with
   * the part its samples explain taken out. Measured on real histories
   * (docs/detection.md), `between` falls to zero on a machine whose stalls
   * make the within-run noise heavy-tailed, and false alarms rise to 9 %;
   * `total` counts that noise twice, which costs some detection and keeps
   * false alarms at or below the configured 2 %'s.
   */
  part?: 'total' | 'between';
}

export const DEFAULT_MIN_DRIFT_RUNS = 5;

/**
 * Drift per benchmark × metric from runs in time order (oldest first). A run
 * counts for a row when its benchmark is ok and the metric has a positive level;
 * exact counts are skipped (they are compared without a test).
 */
export function learnDrift(runs: readonly ResultSet[], options: LearnOptions = {}): Map<string, LearnedDrift> {
  const minRuns = Math.max(2, options.minRuns ?? DEFAULT_MIN_DRIFT_RUNS);
  const levels = new Map<string, RunLevel[]>();
  for (const run of runs) {
    for (const b of run.benchmarks) {
      if (b.status !== 'ok') continue;
      for (const [name, metric] of Object.entries(b.metrics)) {
        if (metric.exact) continue;
        const level = levelOf(metric);
        if (level === null) continue;
        const key = rowKey(b.id, name);
        const list = levels.get(key);
        if (list === undefined) levels.set(key, [level]);
        else list.push(level);
      }
    }
  }
  const out = new Map<string, LearnedDrift>();
  for (const [key, list] of levels) {
    if (list.length < minRuns) continue;
    const estimate = betweenRunDrift(list);
    if (estimate !== null) out.set(key, { drift: Math.expm1(options.part === 'between' ? estimate.sigma : estimate.sigmaTotal), runs: estimate.runs });
  }
  return out;
}

/** A run's level of one metric on the log scale, with its variance from the run's own data. */
function levelOf(metric: Metric): RunLevel | null {
  if (metric.samples !== undefined && metric.samples.length > 0) return levelOfSamples(metric.samples);
  const s = metric.summary;
  if (s !== undefined && s.mean > 0 && s.n > 0) {
    const sd = s.stddev ?? 0;
    // Delta method: Var(log mean) ≈ (sd/mean)² / n.
    return { level: Math.log(s.mean), variance: (sd / s.mean) ** 2 / s.n };
  }
  if (metric.value !== undefined && metric.value > 0 && Number.isFinite(metric.value)) return { level: Math.log(metric.value), variance: 0 };
  return null;
}

/**
 * The smallest change a stored-baseline comparison can call at this drift:
 * the half-width of the interval the drift alone gives two runs,
 * z·√2·log(1 + drift), back on the relative scale. A tolerance below it
 * leaves even an unchanged run "inconclusive".
 */
export function smallestDecidableChange(drift: number, confidence = 0.95): number {
  return Math.expm1(zQuantile(1 - (1 - confidence) / 2) * Math.SQRT2 * Math.log1p(drift));
}
