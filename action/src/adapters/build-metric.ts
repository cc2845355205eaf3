import { metricTraits, type Direction, type Metric, type Summary } from '../model/index.js';

/** What a harness gave for one metric: raw samples, aggregates, or one value (at least one). */
export type MetricData =
  | { samples: number[]; summary?: Summary; value?: undefined }
  | { summary: Summary; samples?: undefined; value?: undefined }
  | { value: number; samples?: undefined; summary?: undefined };

/**
 * Builds a Metric in base units, taking direction and exactness from the one
 * metric table (model/metrics.ts) so no adapter decides them on its own.
 * `traitsName` looks the traits up under another name (perf's `instructions:u`
 * is still `instructions`); `direction` is a config override.
 */
export function buildMetric(
  name: string,
  unit: string,
  data: MetricData,
  options: { sourceUnit?: string; traitsName?: string; direction?: Direction } = {},
): Metric {
  const { direction, exact } = metricTraits(options.traitsName ?? name, unit, options.direction);
  const metric: Metric = { unit, direction };
  if (exact) metric.exact = true;
  if (options.sourceUnit !== undefined) metric.sourceUnit = options.sourceUnit;
  if (data.samples !== undefined) metric.samples = [...data.samples];
  if (data.summary !== undefined) metric.summary = { ...data.summary };
  if (data.value !== undefined) metric.value = data.value;
  return metric;
}

/** A finite number, or undefined for anything else (null, "", "NaN", strings). */
export function finiteOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Builds a Summary from what a harness reported, scaled into base units and
 * leaving out what is missing (a key set to undefined would not survive a
 * schema check). Returns undefined when n or the mean is unusable.
 */
export function buildSummary(
  fields: { n: unknown; mean: unknown; stddev?: unknown; median?: unknown; min?: unknown; max?: unknown },
  scale = 1,
): Summary | undefined {
  const n = finiteOrUndefined(fields.n);
  const mean = finiteOrUndefined(fields.mean);
  if (n === undefined || mean === undefined || n < 1 || !Number.isInteger(n)) return undefined;
  const summary: Summary = { n, mean: mean * scale };
  const stddev = finiteOrUndefined(fields.stddev);
  summary.stddev = stddev !== undefined && stddev >= 0 ? stddev * scale : null;
  for (const key of ['median', 'min', 'max'] as const) {
    const v = finiteOrUndefined(fields[key]);
    if (v !== undefined) summary[key] = v * scale;
  }
  return summary;
}
