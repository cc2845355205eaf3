/**
 * Change rows of the run history (`perf-gate history changes`): each
 * benchmark × metric series of a testbed's runs, one point per run (its median
 * of the metric's samples, its value when it has none), cut at its change
 * points (stats/change-points.ts: E-Divisive means with a t-test, as Apache
 * Otava finds them). Each change point sits between the last run before it
 * and the first run after it, so its commit range is `previous..commit`.
 * Pure: runs in, rows out; pipeline/history/history-changes.ts reads the history.
 */
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import type { Direction, EnvironmentChange, ResultSet } from '../model/index.js';
import { environmentChanges } from './environment.js';
import { changePoints, forwardChange, type ChangePointOptions, type StepStats } from '../stats/change-points.js';
import { median } from '../stats/index.js';

/** Where an earlier report placed a row's step (gate/change-history.ts matches them). */
export type ChangeSince =
  | { kind: 'new' }
  | { kind: 'same' }
  /** Placed at `commit` (`runs` runs earlier if negative, later if positive) in the earlier report. */
  | { kind: 'moved'; commit: string; runs: number };

/** The run a change row names (store/history's HistoryEntry, as far as rows need it). */
export interface RunRef {
  commit: string;
  runId: string;
  created: string;
}

export const CHANGES_SCHEMA = 'perf-gate/changes@1';

export interface ChangeRow {
  testbed: string;
  benchmark: string;
  metric: string;
  unit: string;
  direction: Direction;
  /** The first run at the new level: its commit, run id and time. */
  commit: string;
  runId: string;
  created: string;
  /** The last run at the old level: the change came in after this commit, up to and including `commit`. */
  previousCommit: string;
  /** meanAfter / meanBefore − 1 over the stretches either side. */
  change: number;
  /** 95 % interval of the change (the t-test's interval on the difference of means, over the mean before). */
  interval: [number, number];
  pValue: number;
  /** Worse by the metric's direction. */
  regression: boolean;
  stats: StepStats;
  /** Points (runs) in the series. */
  runs: number;
  /** Against an earlier report (`--previous`): new, the same, or moved from where it was (gate/change-history.ts). */
  since?: ChangeSince;
  /** The merged pull request that accepted this slowdown on the record, as main's history kept it with a run in the range. */
  accepted?: { pullRequest: number; by: string; reason: string; change: number };
  /** What the environment changed between the last run before and the first run after: the step may be the machine's or a dependency's. */
  environment?: EnvironmentChange[];
}

/** An acceptance kept with a run of the range (after `from`, up to and including `to`) that names the series; null when none. */
function acceptedIn(sets: readonly ResultSet[], from: number, to: number, benchmark: string, metric: string): ChangeRow['accepted'] | null {
  for (let run = to; run > from; run--) {
    for (const a of sets[run]?.accepted ?? []) {
      const named = a.rows.find((r) => r.benchmark === benchmark && r.metric === metric);
      if (named) return { pullRequest: a.pullRequest, by: a.by, reason: a.reason, change: named.change };
    }
  }
  return null;
}

export interface ChangesReport {
  schema: typeof CHANGES_SCHEMA;
  /** Runs read, per testbed. */
  runs: Record<string, number>;
  options: ChangePointOptions;
  changes: ChangeRow[];
  /** With `--previous`: the earlier report's points that this one no longer finds. */
  gone?: ChangeRow[];
  /** Per testbed, how its series were ordered: by the first-parent line of commits, or by recording time (and why). */
  order?: Record<string, { by: 'commit' } | { by: 'time'; why: string }>;
}

/** The point a run contributes to a metric's series: the median of its samples, else its value. */
function pointOf(metric: ResultSet['benchmarks'][number]['metrics'][string]): number | undefined {
  if (metric.samples && metric.samples.length > 0) return median(metric.samples);
  return metric.value ?? undefined;
}

interface Series {
  benchmark: string;
  metric: string;
  unit: string;
  direction: Direction;
  /** Index into the testbed's runs of each point. */
  at: number[];
  values: number[];
}

/** Every benchmark × metric series of one testbed's runs (oldest first); a run without the metric adds no point. */
export function seriesOf(sets: readonly ResultSet[], include: (id: string) => boolean): Series[] {
  const byKey = new Map<string, Series>();
  sets.forEach((set, run) => {
    for (const b of set.benchmarks) {
      if (b.status !== 'ok' || !include(b.id)) continue;
      for (const [name, metric] of Object.entries(b.metrics)) {
        const value = pointOf(metric);
        if (value === undefined || !Number.isFinite(value)) continue;
        const key = `${b.id}\u0000${name}`;
        const series = byKey.get(key) ?? { benchmark: b.id, metric: name, unit: metric.unit, direction: metric.direction, at: [], values: [] };
        series.at.push(run);
        series.values.push(value);
        byKey.set(key, series);
      }
    }
  });
  return [...byKey.values()];
}

/** The 95 % interval of meanAfter/meanBefore − 1 from the pooled t-test's standard error. */
function intervalOf(s: StepStats): [number, number] {
  const df = s.nBefore + s.nAfter - 2;
  if (df < 1 || s.meanBefore === 0) return [forwardChange(s), forwardChange(s)];
  const pooled = ((s.nBefore - 1) * s.stdBefore ** 2 + (s.nAfter - 1) * s.stdAfter ** 2) / df;
  const half = tQuantile(0.975, df) * Math.sqrt(pooled * (1 / s.nBefore + 1 / s.nAfter));
  const diff = s.meanAfter - s.meanBefore;
  return [(diff - half) / Math.abs(s.meanBefore), (diff + half) / Math.abs(s.meanBefore)];
}

/** The change rows of one testbed's runs (pure: the runs and their ResultSets in, rows out). */
export function changesOfRuns(
  testbed: string,
  entries: readonly RunRef[],
  sets: readonly ResultSet[],
  include: (id: string) => boolean,
  options: ChangePointOptions,
  firstRun = 0,
): ChangeRow[] {
  const rows: ChangeRow[] = [];
  for (const series of seriesOf(sets, include)) {
    for (const point of changePoints(series.values, options)) {
      const run = series.at[point.index]!;
      if (run < firstRun) continue;
      const entry = entries[run]!;
      const change = forwardChange(point.stats);
      const previous = series.at[point.index - 1]!;
      const accepted = acceptedIn(sets, previous, run, series.benchmark, series.metric);
      const environment = environmentChanges(sets[previous]?.environment, sets[run]?.environment);
      rows.push({
        testbed,
        benchmark: series.benchmark,
        metric: series.metric,
        unit: series.unit,
        direction: series.direction,
        commit: entry.commit,
        runId: entry.runId,
        created: entry.created,
        previousCommit: entries[previous]!.commit,
        change,
        interval: intervalOf(point.stats),
        pValue: point.stats.pValue,
        regression: series.direction === 'higher' ? change < 0 : change > 0,
        stats: point.stats,
        runs: series.values.length,
        ...(accepted ? { accepted } : {}),
        ...(environment.length > 0 ? { environment } : {}),
      });
    }
  }
  // Newest first, regressions before improvements at the same run, then by id.
  return rows.sort((p, q) =>
    p.created === q.created
      ? Number(q.regression) - Number(p.regression) || (p.benchmark < q.benchmark ? -1 : p.benchmark > q.benchmark ? 1 : 0)
      : p.created < q.created
        ? 1
        : -1,
  );
}
