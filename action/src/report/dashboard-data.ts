/**
 * The dashboard's model (`perf-gate dashboard`): the run history turned into
 * one trend series per benchmark × metric × testbed, each point a run (its
 * median, with the middle half of its samples as the spread), with the
 * series' change points (gate/change-rows.ts, found by the caller) and the
 * release tags on its runs. Pure: runs, change rows and tags in, model out;
 * pipeline/history/dashboard.ts reads the history and git, report/dashboard-page.ts
 * renders the page. The model is what the page's script reads (data.js).
 */
import type { ChangeRow, RunRef } from '../gate/change-rows.js';
import type { Direction, ResultSet } from '../model/index.js';
import { scaleFor, type DisplayScale } from './format.js';
import { environmentChanges } from '../gate/environment.js';
import { environmentChangesText } from './environment-text.js';

export const DASHBOARD_SCHEMA = 'perf-gate/dashboard@1';

/** One testbed's runs as the page needs them. */
export interface DashboardTestbed {
  id: string;
  /** Oldest first; series points name runs by their index here. */
  runs: DashboardRun[];
  /** The newest run whose commit carries a release tag, or null: "since the last release" starts after it. */
  lastTag: { name: string; run: number } | null;
}

export interface DashboardRun {
  commit: string;
  created: string;
  /** The commit's subject line, when the repository has the commit (untrusted text). */
  subject: string | null;
  /** Release tags pointing at the commit. */
  tags: string[];
  /** What the environment changed since the testbed's previous run, in words (a new stretch of every series starts here). */
  environment?: string;
}

/** A change point of a series, placed on the testbed's runs. */
export interface DashboardChange {
  /** The first run at the new level. */
  run: number;
  /** The last run at the old level. */
  previousRun: number;
  change: number;
  interval: [number, number];
  pValue: number;
  regression: boolean;
  /** The pull request that accepted the slowdown on the record. */
  accepted?: { pullRequest: number; by: string; reason: string; change: number };
}

export interface DashboardSeries {
  testbed: string;
  benchmark: string;
  metric: string;
  unit: string;
  direction: Direction;
  /** Display unit for the whole series (format.ts's choice for its medians), so the axis and the tooltip agree. */
  scale: DisplayScale;
  /** Index into the testbed's runs of each point (a run without the metric has no point). */
  runs: number[];
  /** Each point's median, and its 25th and 75th percentiles (all three the run's value when it has no samples). */
  median: number[];
  low: number[];
  high: number[];
  changes: DashboardChange[];
  /** A change point after the testbed's last release tag is a regression (with no tag: any change point is). */
  regressedSinceTag: boolean;
}

export interface DashboardModel {
  schema: typeof DASHBOARD_SCHEMA;
  generated: string;
  /** The glob release tags were matched with. */
  tagPattern: string;
  testbeds: DashboardTestbed[];
  /** Regressed since the last release first (newest regression first), then by benchmark, metric and testbed. */
  series: DashboardSeries[];
}

export interface DashboardTestbedInput {
  id: string;
  /** The testbed's runs, oldest first, and their ResultSets in the same order. */
  entries: readonly RunRef[];
  sets: readonly ResultSet[];
  /** changesOfRuns over the same runs. */
  changes: readonly ChangeRow[];
}

export interface DashboardInput {
  generated: string;
  tagPattern: string;
  testbeds: readonly DashboardTestbedInput[];
  /** Release tags by full commit id. */
  tags: ReadonlyMap<string, readonly string[]>;
  /** Subject lines by full commit id. */
  subjects: ReadonlyMap<string, string>;
}

/** The dashboard model of the history (pure). */
export function dashboardModel(input: DashboardInput): DashboardModel {
  const testbeds: DashboardTestbed[] = [];
  const series: DashboardSeries[] = [];
  for (const bed of input.testbeds) {
    const runs = bed.entries.map((e, i): DashboardRun => {
      const changed = i > 0 ? environmentChanges(bed.sets[i - 1]?.environment, bed.sets[i]?.environment) : [];
      return {
        commit: e.commit,
        created: e.created,
        subject: input.subjects.get(e.commit) ?? null,
        tags: [...(input.tags.get(e.commit) ?? [])],
        ...(changed.length > 0 ? { environment: environmentChangesText(changed) } : {}),
      };
    });
    const tagged = runs.map((r, i) => (r.tags.length > 0 ? i : -1)).filter((i) => i >= 0);
    const last = tagged.at(-1);
    const lastTag = last === undefined ? null : { name: runs[last]!.tags.at(-1)!, run: last };
    testbeds.push({ id: bed.id, runs, lastTag });
    const runIndex = new Map(bed.entries.map((e, i) => [e.runId, i]));
    const changesOf = new Map<string, DashboardChange[]>();
    for (const row of bed.changes) {
      const run = runIndex.get(row.runId);
      if (run === undefined) continue;
      const previousRun = lastRunOf(bed.entries, row.previousCommit, run);
      const key = seriesKey(row.benchmark, row.metric);
      const list = changesOf.get(key) ?? [];
      list.push({
        run,
        previousRun,
        change: row.change,
        interval: row.interval,
        pValue: row.pValue,
        regression: row.regression,
        ...(row.accepted ? { accepted: row.accepted } : {}),
      });
      changesOf.set(key, list);
    }
    for (const s of pointsOf(bed.sets)) {
      const changes = (changesOf.get(seriesKey(s.benchmark, s.metric)) ?? []).sort((p, q) => p.run - q.run);
      series.push({
        testbed: bed.id,
        ...s,
        scale: scaleFor(s.unit, s.median),
        changes,
        regressedSinceTag: changes.some((c) => c.regression && c.run > (lastTag?.run ?? -1)),
      });
    }
  }
  return { schema: DASHBOARD_SCHEMA, generated: input.generated, tagPattern: input.tagPattern, testbeds, series: series.sort(dashboardOrder) };
}

/** The index of the last run of `commit` before `before` (the run a change row's previousCommit names). */
function lastRunOf(entries: readonly RunRef[], commit: string, before: number): number {
  for (let i = before - 1; i >= 0; i--) if (entries[i]!.commit === commit) return i;
  return Math.max(0, before - 1);
}

const seriesKey = (benchmark: string, metric: string): string => `${benchmark}\u0000${metric}`;

/** The newest regression after the last tag, for ordering; -1 when none. */
function newestRegression(s: DashboardSeries): number {
  return s.regressedSinceTag ? Math.max(...s.changes.filter((c) => c.regression).map((c) => c.run)) : -1;
}

function dashboardOrder(p: DashboardSeries, q: DashboardSeries): number {
  if (p.regressedSinceTag !== q.regressedSinceTag) return p.regressedSinceTag ? -1 : 1;
  if (p.regressedSinceTag) {
    const newer = newestRegression(q) - newestRegression(p);
    if (newer !== 0 && p.testbed === q.testbed) return newer;
  }
  return compareText(p.benchmark, q.benchmark) || compareText(p.metric, q.metric) || compareText(p.testbed, q.testbed);
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

type Points = Pick<DashboardSeries, 'benchmark' | 'metric' | 'unit' | 'direction' | 'runs' | 'median' | 'low' | 'high'>;

/**
 * Every benchmark × metric series of one testbed's runs. A run's point is
 * the median of its samples, else its value: the rule change-rows.ts's
 * seriesOf follows, so the points drawn are the points the change points
 * were found in (a summary-only metric has neither).
 */
function pointsOf(sets: readonly ResultSet[]): Points[] {
  const byKey = new Map<string, Points>();
  sets.forEach((set, run) => {
    for (const b of set.benchmarks) {
      if (b.status !== 'ok') continue;
      for (const [name, metric] of Object.entries(b.metrics)) {
        const spread = spreadOf(metric.samples, metric.value);
        if (spread === null) continue;
        const key = seriesKey(b.id, name);
        let points = byKey.get(key);
        if (!points)
          byKey.set(key, (points = { benchmark: b.id, metric: name, unit: metric.unit, direction: metric.direction, runs: [], median: [], low: [], high: [] }));
        points.runs.push(run);
        points.median.push(spread.median);
        points.low.push(spread.low);
        points.high.push(spread.high);
      }
    }
  });
  return [...byKey.values()];
}

/**
 * The median and the 25th and 75th percentiles (linear interpolation
 * between order statistics, so the median is the usual one), to 5
 * significant digits: the page draws them, and full precision would triple
 * the data file for digits no chart shows.
 */
export function spreadOf(samples: readonly number[] | undefined, value: number | undefined): { median: number; low: number; high: number } | null {
  if (samples && samples.length > 0) {
    const sorted = [...samples].sort((a, b) => a - b);
    const at = (q: number): number => {
      const pos = (sorted.length - 1) * q;
      const lo = Math.floor(pos);
      const hi = Math.min(lo + 1, sorted.length - 1);
      return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
    };
    const median = at(0.5);
    if (!Number.isFinite(median)) return null;
    return { median: round(median), low: round(at(0.25)), high: round(at(0.75)) };
  }
  if (value === undefined || !Number.isFinite(value)) return null;
  return { median: round(value), low: round(value), high: round(value) };
}

const round = (x: number): number => Number(x.toPrecision(5));
