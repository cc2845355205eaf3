import type { Metric, Summary } from '../model/index.js';

/**
 * Combines the metrics of repeated invocations of one benchmark. Samples are
 * concatenated in invocation order; single values become samples; when any
 * invocation has only a summary, the summaries are pooled (total n, weighted
 * mean, variance including the spread between invocation means).
 */
export function mergeMetrics(parts: readonly Metric[]): Metric {
  const first = parts[0];
  if (!first) throw new Error('mergeMetrics needs at least one metric');
  if (parts.length === 1) return first;
  const asSamples = parts.map((m) => m.samples ?? (m.value !== undefined ? [m.value] : null));
  const { samples: _s, summary: _u, value: _v, ...traits } = first;
  if (asSamples.every((s) => s !== null)) return { ...traits, samples: asSamples.flat() };
  const summaries: Summary[] = parts.map((m, i) => m.summary ?? summaryOf(asSamples[i] ?? []));
  return { ...traits, summary: poolSummaries(summaries) };
}

function summaryOf(samples: readonly number[]): Summary {
  const n = samples.length;
  const mean = samples.reduce((a, b) => a + b, 0) / n;
  const stddev = n > 1 ? Math.sqrt(samples.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : null;
  return { n, mean, stddev };
}

function poolSummaries(parts: readonly Summary[]): Summary {
  const n = parts.reduce((a, p) => a + p.n, 0);
  const mean = parts.reduce((a, p) => a + p.n * p.mean, 0) / n;
  const known = parts.every((p) => p.stddev !== undefined && p.stddev !== null);
  const ss = parts.reduce((a, p) => a + (p.n - 1) * (p.stddev ?? 0) ** 2 + p.n * (p.mean - mean) ** 2, 0);
  return { n, mean, stddev: known && n > 1 ? Math.sqrt(ss / (n - 1)) : null };
}

/**
 * One number per invocation, for interleaved rounds (index i = round i): the
 * median of its samples, else the summary's median or mean, else the value.
 */
export function invocationValue(metric: Metric): number | undefined {
  if (metric.samples && metric.samples.length > 0) {
    const sorted = [...metric.samples].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  }
  if (metric.summary) return metric.summary.median ?? metric.summary.mean;
  return metric.value;
}
