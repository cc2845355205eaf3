import type { Direction } from './result-set.js';

/**
 * The metric vocabulary: which way is better and whether a metric is a
 * deterministic count (compared against the tolerance without a test).
 * Adapters take direction and exactness from here, never decide them alone.
 */
export interface MetricTraits {
  direction: Direction;
  exact: boolean;
}

const KNOWN: Record<string, MetricTraits> = {
  time: { direction: 'lower', exact: false },
  throughput: { direction: 'higher', exact: false },
  latency_p50: { direction: 'lower', exact: false },
  latency_p75: { direction: 'lower', exact: false },
  latency_p90: { direction: 'lower', exact: false },
  latency_p95: { direction: 'lower', exact: false },
  latency_p99: { direction: 'lower', exact: false },
  latency_mean: { direction: 'lower', exact: false },
  latency_max: { direction: 'lower', exact: false },
  requests_per_sec: { direction: 'higher', exact: false },
  transfer_per_sec: { direction: 'higher', exact: false },
  // Load generators (adapters/load-test.ts): answers with a 2xx or 3xx status per second, and the share of requests that failed.
  success_per_sec: { direction: 'higher', exact: false },
  error_ratio: { direction: 'lower', exact: false },
  // ab's "Length" failures: answers whose length differs from the first one's (every answer of a dynamic page).
  length_mismatches: { direction: 'lower', exact: true },
  memory_peak: { direction: 'lower', exact: false },
  max_rss: { direction: 'lower', exact: false },
  user_time: { direction: 'lower', exact: false },
  system_time: { direction: 'lower', exact: false },
  instructions: { direction: 'lower', exact: true },
  // iai / iai-callgrind cache simulation: counts from valgrind's simulated caches, deterministic like Ir.
  l1_hits: { direction: 'lower', exact: true },
  ll_hits: { direction: 'lower', exact: true },
  ram_hits: { direction: 'lower', exact: true },
  total_read_write: { direction: 'lower', exact: true },
  estimated_cycles: { direction: 'lower', exact: true },
  // cachegrind (adapters/cachegrind.ts, `perf-gate count`): simulated misses, exact for the same reason.
  l1_misses: { direction: 'lower', exact: true },
  ll_misses: { direction: 'lower', exact: true },
  cycles: { direction: 'lower', exact: false },
  // perf stat's branch counters (counter: perf): the branches a program takes are as fixed as its instructions; mispredictions depend on the predictor's state.
  branches: { direction: 'lower', exact: true },
  branch_misses: { direction: 'lower', exact: false },
  syscalls: { direction: 'lower', exact: true },
  alloc_bytes: { direction: 'lower', exact: true },
  allocs: { direction: 'lower', exact: true },
  errors: { direction: 'lower', exact: true },
  // JMH -prof gc: an allocation *rate* (B/s) is still worse when higher.
  'gc.alloc.rate': { direction: 'lower', exact: false },
  'gc.alloc.rate.norm': { direction: 'lower', exact: false },
};

/** The metric names perf-gate knows (the vocabulary above), for "did you mean" suggestions. */
export const KNOWN_METRIC_NAMES: readonly string[] = Object.keys(KNOWN);

/** Is this a metric name perf-gate knows, by name or by family (`syscalls.<name>`, `errors.<kind>`)? */
export function isKnownMetricName(name: string): boolean {
  return name in KNOWN || name.startsWith('syscalls.') || name.startsWith('errors.');
}

/** Units whose larger values are better: rates. */
function isRateUnit(unit: string): boolean {
  return unit === '1/s' || unit === 'B/s' || /\/s(ec)?$/i.test(unit) || /^ops?\b/i.test(unit);
}

/**
 * Direction and exactness of a metric. Known names win; `syscalls.<name>` counts
 * are exact; otherwise a rate unit means higher-is-better and anything else lower.
 * `override` (from config) beats everything.
 */
export function metricTraits(name: string, unit: string, override?: Direction): MetricTraits {
  const known = KNOWN[name];
  let traits: MetricTraits;
  if (known) traits = known;
  else if (name.startsWith('syscalls.') && name.endsWith('.calls')) traits = { direction: 'lower', exact: true };
  else if (name.startsWith('syscalls.')) traits = { direction: 'lower', exact: !name.endsWith('.seconds') };
  else if (name.startsWith('errors.'))
    traits = { direction: 'lower', exact: true }; // wrk errors.timeout …: counted, never noise
  else traits = { direction: isRateUnit(unit) ? 'higher' : 'lower', exact: false };
  return override ? { ...traits, direction: override } : traits;
}
