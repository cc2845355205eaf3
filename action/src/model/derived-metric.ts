import type { Direction } from './result-set.js';

/** One `derived:` entry of perf-gate.yml, as config/ reads it and derived/ computes it. */
export interface DerivedMetricConfig {
  name: string;
  /** Arithmetic over metric names, e.g. "10000 / time". */
  expr: string;
  /** Unit of the result, or null to leave it to the evaluator. */
  unit: string | null;
  /** Overrides direction, or null to take it from the name and unit. */
  direction: Direction | null;
  /** Glob on benchmark ids it applies to, or null for all. */
  benchmarks: string | null;
  /** Where it was declared ("perf-gate.yml:12"), for error messages. */
  source: string;
}
