import type { Metric } from '../model/index.js';
import { buildMetric } from './build-metric.js';

/**
 * What one run of an HTTP load generator measured, in base units, as the
 * load-generator adapters (vegeta, oha, hey, h2load, ab) read it. They share
 * one vocabulary with wrk's, so a budget such as `errors: { max: 0 }` or
 * `latency_p99: { max: 50ms }` reads the same whatever the generator:
 *
 * - `requests_per_sec` (1/s ↑): requests answered per second, whatever the answer;
 * - `success_per_sec` (1/s ↑): answers with a 2xx or 3xx status per second, where
 *   the generator counts them (vegeta's `throughput`);
 * - `transfer_per_sec` (B/s ↑);
 * - `latency_mean`, `latency_p50` … `latency_p99`, `latency_max` (s ↓);
 * - `errors.<kind>` (count ↓, exact): `errors.status` for answers with a status
 *   of 400 or more, and the transport errors (connect, timeout …) under the
 *   generator's own names; `errors`, their sum; `error_ratio` (fraction ↓),
 *   `errors` over the requests sent, which a run of a different length
 *   leaves comparable.
 *
 * Errors are metrics, never a footnote: a server that got faster by answering
 * 500 shows a higher `requests_per_sec` and a regressed `errors`.
 */
export interface LoadRun {
  /** Metric name → value in base units (rates, latencies, bytes per second). */
  values: Record<string, number>;
  /** Error kind → count; absent kinds are 0. */
  errors: Record<string, number>;
  /** Requests sent, when the generator says: the denominator of `error_ratio`. */
  requests?: number;
  /** Metric name → the unit the generator printed it in. */
  sourceUnits?: Record<string, string>;
}

const UNITS: Record<string, string> = { requests_per_sec: '1/s', success_per_sec: '1/s', transfer_per_sec: 'B/s' };

/**
 * The metrics of one benchmark measured by `runs` (one or more runs of the
 * same target, in order): one value per metric, or samples when there are
 * several runs. A metric is kept only when every run has it, so a run
 * without percentiles never mixes with one that has them; error kinds are
 * kept when any run has them (a kind a run did not report is 0 there).
 */
export function loadTestMetrics(runs: readonly LoadRun[]): Record<string, Metric> {
  const metrics: Record<string, Metric> = {};
  const first = runs[0]!;
  for (const name of Object.keys(first.values)) {
    const values = runs.map((r) => r.values[name]);
    if (values.some((v) => v === undefined)) continue;
    const sourceUnit = first.sourceUnits?.[name];
    metrics[name] = buildMetric(name, UNITS[name] ?? 's', valueOrSamples(values as number[]), sourceUnit !== undefined ? { sourceUnit } : {});
  }
  const kinds = [...new Set(runs.flatMap((r) => Object.keys(r.errors)))].sort();
  for (const kind of kinds) metrics[`errors.${kind}`] = buildMetric(`errors.${kind}`, 'count', valueOrSamples(runs.map((r) => r.errors[kind] ?? 0)));
  const totals = runs.map((r) => Object.values(r.errors).reduce((sum, n) => sum + n, 0));
  metrics.errors = buildMetric('errors', 'count', valueOrSamples(totals));
  if (runs.every((r) => r.requests !== undefined && r.requests > 0)) {
    metrics.error_ratio = buildMetric('error_ratio', 'fraction', valueOrSamples(runs.map((r, i) => totals[i]! / r.requests!)));
  }
  return metrics;
}

/** One run's value, or several runs' values as samples in order. */
export function valueOrSamples(values: number[]): { value: number } | { samples: number[] } {
  return values.length === 1 ? { value: values[0]! } : { samples: values };
}
