import { bmfSlugFor, maxOf, minOf, scaleValue, type Metric, type ResultSet } from '../model/index.js';

interface BmfMeasure {
  value: number;
  lower_value?: number;
  upper_value?: number;
}

function measureOf(metric: Metric, fromBase: number): BmfMeasure | undefined {
  const scale = (x: number): number => scaleValue(x, fromBase);
  if (metric.samples && metric.samples.length > 0) {
    const s = metric.samples;
    return { value: scale(s.reduce((a, b) => a + b, 0) / s.length), lower_value: scale(minOf(s)), upper_value: scale(maxOf(s)) };
  }
  if (metric.summary) {
    const m: BmfMeasure = { value: scale(metric.summary.mean) };
    if (metric.summary.min !== undefined) m.lower_value = scale(metric.summary.min);
    if (metric.summary.max !== undefined) m.upper_value = scale(metric.summary.max);
    return m;
  }
  return metric.value !== undefined ? { value: scale(metric.value) } : undefined;
}

/**
 * Converts a ResultSet to Bencher Metric Format: the mean as `value`, min and
 * max as the bounds, latency in nanoseconds. Each metric's measure name is
 * chosen so the BMF adapter reads back the same unit and direction
 * (model/bmf-measures.ts, bmfSlugFor): Bencher's slug, the metric's own name,
 * or `name (unit, higher|lower is better)`. Failed benchmarks are left out
 * (BMF has no way to say "failed"), so the caller should report them.
 */
export function toBmf(set: ResultSet): Record<string, Record<string, BmfMeasure>> {
  const out: Record<string, Record<string, BmfMeasure>> = {};
  for (const b of set.benchmarks) {
    if (b.status !== 'ok') continue;
    const measures: Record<string, BmfMeasure> = {};
    for (const [name, metric] of Object.entries(b.metrics)) {
      const { slug, fromBase } = bmfSlugFor(name, metric.unit, metric.direction, metric.directionUnknown === true);
      const m = measureOf(metric, fromBase);
      if (m) measures[slug] = m;
    }
    if (Object.keys(measures).length > 0) out[b.id] = measures;
  }
  return out;
}
