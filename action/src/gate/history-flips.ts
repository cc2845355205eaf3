/**
 * Which benchmarks of a run history flip between two levels, and how often
 * (`perf-gate history noise`). Two ways to see it, since harnesses differ in
 * what a sample is:
 *
 * - within runs: a run whose samples are processes (hyperfine, interleaved
 *   rounds) settles in two levels by itself (stats/levels.ts twoLevels);
 * - across runs: a harness that repeats inside one process (`go test
 *   -count`, JMH's iterations) draws its level once a run, so the runs'
 *   medians are what settle in two levels (six runs or more).
 *
 * Pure: the history's runs in, the flipping rows out.
 */
import { rowKey, type ResultSet } from '../model/index.js';
import { median, twoLevels } from '../stats/index.js';

/** How one benchmark × metric flips: its two levels (medians), the share of the slow one, and where it was seen. */
export interface Flips {
  unit: string;
  fast: number;
  slow: number;
  /** Share of the values (processes within runs, or runs across them) in the slow level. */
  slowShare: number;
  /** `within`: in `runs` of the runs, each by itself; `across`: the runs' medians. */
  seen: 'within' | 'across';
  runs: number;
  of: number;
}

/** Runs' medians needed before they can be said to settle in two levels. */
const MIN_RUNS_ACROSS = 6;

/** The flipping rows of the runs, by rowKey(benchmark, metric). */
export function historyFlips(runs: readonly ResultSet[]): Map<string, Flips> {
  const series = new Map<string, { unit: string; samples: number[][] }>();
  for (const run of runs) {
    for (const b of run.benchmarks) {
      if (b.status !== 'ok') continue;
      for (const [name, metric] of Object.entries(b.metrics)) {
        const samples = (metric.samples ?? []).filter((v) => Number.isFinite(v) && v > 0);
        if (metric.exact || samples.length === 0) continue;
        const key = rowKey(b.id, name);
        const s = series.get(key) ?? { unit: metric.unit, samples: [] };
        s.samples.push(samples);
        series.set(key, s);
      }
    }
  }
  const out = new Map<string, Flips>();
  for (const [key, { unit, samples }] of series) {
    const splits = samples.map((s) => twoLevels(s)).filter((s) => s !== null);
    if (splits.length > 0) {
      out.set(key, {
        unit,
        fast: median(splits.map((s) => s.fast.median)),
        slow: median(splits.map((s) => s.slow.median)),
        slowShare: median(splits.map((s) => s.slow.values.length / (s.fast.values.length + s.slow.values.length))),
        seen: 'within',
        runs: splits.length,
        of: samples.length,
      });
      continue;
    }
    if (samples.length < MIN_RUNS_ACROSS) continue;
    const across = twoLevels(samples.map((s) => median(s)));
    if (across)
      out.set(key, {
        unit,
        fast: across.fast.median,
        slow: across.slow.median,
        slowShare: across.slow.values.length / samples.length,
        seen: 'across',
        runs: samples.length,
        of: samples.length,
      });
  }
  return out;
}
