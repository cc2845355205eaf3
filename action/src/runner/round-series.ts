import { rowKey, type BenchmarkError, type BenchmarkResult, type Metric } from '../model/index.js';
import { invocationValue } from './merge-samples.js';

/**
 * What the interleaved rounds (runner/ab.ts) collect per side: one value per
 * round for every benchmark × metric (the median of what the round's
 * invocation measured), and that round's own values, kept so a benchmark
 * that flips per process can be compared level by level within each round.
 */

export interface Series {
  template: BenchmarkResult;
  /** Per metric: one value per round, and that round's own values (the processes or repetitions it measured). */
  metrics: Map<string, { traits: Omit<Metric, 'samples' | 'roundSamples' | 'summary' | 'value'>; values: number[]; rounds: number[][] }>;
}

/** What one side of one unit has collected. */
export interface SideData {
  series: Map<string, Series>;
  error: BenchmarkError | null;
  /** Ids the side ever delivered (failed rows name the rest). */
  delivered: Set<string>;
}

/** One benchmark × metric of one invocation: its result, the metric, and the round's value. */
export interface RoundValue {
  b: BenchmarkResult;
  metric: string;
  m: Metric;
  v: number;
}

export function emptySide(): SideData {
  return { series: new Map(), error: null, delivered: new Set() };
}

/** Values per benchmark × metric of one invocation. */
export function valuesOf(results: readonly BenchmarkResult[]): Map<string, RoundValue> {
  const out = new Map<string, RoundValue>();
  for (const b of results) {
    for (const [metric, m] of Object.entries(b.metrics)) {
      const v = invocationValue(m);
      if (v !== undefined && Number.isFinite(v)) out.set(rowKey(b.id, metric), { b, metric, m, v });
    }
  }
  return out;
}

/** Adds one round's value (and its own values) to a side. */
export function push(side: SideData, entry: RoundValue): void {
  let series = side.series.get(entry.b.id);
  if (!series) {
    const { metrics: _m, ...template } = entry.b;
    series = { template: { ...template, metrics: {} }, metrics: new Map() };
    side.series.set(entry.b.id, series);
  }
  let metric = series.metrics.get(entry.metric);
  if (!metric) {
    const { samples: _s, roundSamples: _r, summary: _u, value: _v, ...traits } = entry.m;
    metric = { traits, values: [], rounds: [] };
    series.metrics.set(entry.metric, metric);
  }
  metric.values.push(entry.v);
  metric.rounds.push(entry.m.samples && entry.m.samples.length > 0 ? [...entry.m.samples] : [entry.v]);
}

/**
 * A side's series as result rows, sample i = round i; `replace` gives the
 * rows it names (by rowKey) from other data (fresh rounds in place of the first).
 */
export function seriesRows(data: SideData, replace?: { data: SideData; keys: ReadonlySet<string> }): BenchmarkResult[] {
  return [...data.series.values()].map((s): BenchmarkResult => {
    const metrics: Record<string, Metric> = {};
    for (const [name, m] of s.metrics) {
      const fresh = replace?.keys.has(rowKey(s.template.id, name)) ? replace.data.series.get(s.template.id)?.metrics.get(name) : undefined;
      const kept = fresh ?? m;
      // A round's own values are kept only when some round had more than one: else they are the samples again.
      const roundSamples = kept.rounds.some((r) => r.length > 1) ? { roundSamples: kept.rounds.map((r) => [...r]) } : {};
      metrics[name] = { ...m.traits, samples: [...kept.values], ...roundSamples };
    }
    return { ...s.template, metrics };
  });
}
