import { cutText } from './cut-text.js';
import type { Environment } from './environment.js';
/** Schema identifier written into every ResultSet; bump the suffix on breaking changes. */
export const RESULT_SET_SCHEMA = 'perf-gate/results@1';

/** Which way is better for a metric. */
export type Direction = 'lower' | 'higher';

/** Aggregates for harnesses that do not give raw samples (or to show beside them). */
export interface Summary {
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1); absent or null when the harness could not compute it. */
  stddev?: number | null;
  median?: number;
  min?: number;
  max?: number;
}

/**
 * One measured quantity of one benchmark, in base units (seconds, bytes, 1/s, counts).
 * At least one of `samples`, `summary`, `value` is present. `samples` keep the order
 * the harness produced them in (for interleaved runs, index i is round i).
 */
export interface Metric {
  /** Base unit: "s", "B", "1/s", "B/s", "count", or a harness's own unit for custom metrics. */
  unit: string;
  direction: Direction;
  samples?: number[];
  /**
   * Interleaved runs whose rounds measured more than one value a side (a
   * command's several processes, a harness's repetitions): each round's own
   * values, index i = round i, of which `samples[i]` is the median. A
   * benchmark that flips draws its level per process, so the round's median
   * is a mix of levels; its values are not (gate/compare/levels.ts).
   */
  roundSamples?: number[][];
  summary?: Summary;
  /** A single value when that is all the harness gives (wrk, one JUnit duration). */
  value?: number;
  /** True for deterministic counts (instructions, allocations, syscalls): no test, tolerance only. */
  exact?: boolean;
  /** The unit as the harness wrote it, for display ("ns", "ms", "ops/s"). */
  sourceUnit?: string;
  /**
   * True when the input said nothing about which way is better and the name
   * does not tell (a BMF measure perf-gate does not know): `direction` is then
   * only a placeholder, and the gate warns until a budget sets `direction`.
   */
  directionUnknown?: true;
}

export type BenchmarkStatus = 'ok' | 'failed';

export interface BenchmarkError {
  message: string;
  exitCode?: number | null;
  signal?: string | null;
  /** Last lines of the benchmark's log, for the report. */
  logTail?: string;
}

export interface BenchmarkResult {
  /** `<suite>/<harness name>` when run from a config; the harness's own name from raw files. */
  id: string;
  suite?: string;
  params?: Record<string, string>;
  status: BenchmarkStatus;
  error?: BenchmarkError;
  metrics: Record<string, Metric>;
  /**
   * Metrics the harness named but could not measure, with its reason (perf stat's
   * `<not supported>` / `<not counted>`): shown in the report, never turned into 0.
   */
  unavailable?: Record<string, string>;
}

/** The machine and settings a run was measured on; `id` is a stable hash of what matters. */
export interface Testbed {
  id: string;
  cpu?: string;
  cores?: number;
  kernel?: string;
  governor?: string | null;
  turbo?: boolean | null;
  smt?: boolean | null;
  runner?: string;
  [key: string]: unknown;
}

/** What one run produced and what a baseline stores. */
export interface ResultSet {
  schema: typeof RESULT_SET_SCHEMA;
  commit?: string;
  ref?: string;
  /** ISO 8601 time the run finished. */
  created: string;
  testbed?: Testbed;
  /** The kernel, microcode, toolchains, build flags and lockfiles the run was measured with (absent: not recorded). */
  environment?: Environment;
  /**
   * "interleaved" when baseline and current were measured in alternating rounds
   * (samples index-aligned by round); absent for ordinary sequential runs.
   */
  design?: 'sequential' | 'interleaved';
  /**
   * Regressions accepted on the record in the pull request this commit
   * merged (mode main records them): the history then shows the change point
   * at this commit as accepted, and the main-branch alert stays quiet for it.
   */
  accepted?: RecordedAcceptance[];
  benchmarks: BenchmarkResult[];
}

/** An acceptance as main's history keeps it: which pull request, who, why, and the rows at the change accepted. */
export interface RecordedAcceptance {
  pullRequest: number;
  by: string;
  reason: string;
  /** The glob as written. */
  benchmarks: string;
  rows: { benchmark: string; metric: string; change: number }[];
}

/** Builds an empty ResultSet; callers fill benchmarks. `created` is passed in so this stays pure. */
export function newResultSet(created: string, benchmarks: BenchmarkResult[] = []): ResultSet {
  return { schema: RESULT_SET_SCHEMA, created, benchmarks };
}

/** The bounds a stored run's `accepted` keeps (the ResultSet schema's, which every reader applies). */
export const RECORDED_ACCEPTANCE_LIMITS = { acceptances: 50, rows: 100, by: 100, reason: 500, benchmarks: 4096 } as const;

/**
 * Acceptances within RECORDED_ACCEPTANCE_LIMITS: the newest ones, their text
 * cut with an ellipsis, their first rows. A merged pull request's record
 * never makes main's run unreadable.
 */
export function boundedAcceptances(accepted: readonly RecordedAcceptance[]): RecordedAcceptance[] {
  const L = RECORDED_ACCEPTANCE_LIMITS;
  return accepted.slice(-L.acceptances).map((a) => ({
    pullRequest: a.pullRequest,
    by: cutText(a.by, L.by),
    reason: cutText(a.reason, L.reason),
    benchmarks: cutText(a.benchmarks, L.benchmarks),
    rows: a.rows.slice(0, L.rows),
  }));
}
