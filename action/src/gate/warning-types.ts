/**
 * The gate's warnings as data (types only, so gate/types.ts can name them
 * without importing the functions that find them, warning.ts).
 */
import type { SourceRef } from '../model/index.js';

/** The closed set of warning codes; the JSON report writes them as they are. */
export type GateWarningCode =
  | 'unused-budget'
  | 'unused-budget-metric'
  | 'different-testbed'
  | 'no-baseline'
  | 'ignored-benchmarks'
  | 'unavailable-metrics'
  | 'skipped-files'
  | 'unknown-direction'
  | 'unsteady-counts';

/** A file in an input folder that was not read as results, and why (a README, a binary, JSON no format knows). */
export interface SkippedFile {
  path: string;
  reason: string;
}

/**
 * What the gate warns about, as data: a code and the names and numbers the
 * warning needs. report/warning-text.ts turns each into one sentence that
 * says what to do next.
 */
export type GateWarning =
  /** A budget rule whose glob matched no benchmark (likely a typo). */
  | { code: 'unused-budget'; pattern: string; source: SourceRef }
  /** A budget for a metric that no benchmark matched by its glob reports (it never applies). */
  | { code: 'unused-budget-metric'; pattern: string; metric: string; source: SourceRef }
  /** Baseline and current were measured on different testbeds; `mode` is what the gate does about it. */
  | { code: 'different-testbed'; baselineTestbed: string; currentTestbed: string; mode: 'flag' | 'compare' }
  | { code: 'no-baseline' }
  /** Benchmarks a budget's `ignore: true` left out, in the order met. */
  | { code: 'ignored-benchmarks'; benchmarks: string[] }
  /** Metrics a tool could not measure on this machine, and the tool's own word for why. */
  | { code: 'unavailable-metrics'; benchmark: string; metrics: { metric: string; why: string }[] }
  /**
   * Metrics whose input did not say which way is better (a BMF measure perf-gate
   * does not know) and whose budget sets no `direction`: compared as lower-is-better
   * until one does, so the verdict on them may be backwards.
   */
  | { code: 'unknown-direction'; benchmark: string; metrics: string[] }
  /** Exact counts that moved between identical repeats by at least their tolerance (spread: (max − min) / median, a fraction). */
  | { code: 'unsteady-counts'; benchmark: string; metrics: { metric: string; spread: number; tolerance: number }[] }
  /** Files in an input folder that are clearly not results; listed so nothing is dropped unseen, never a verdict's cause. */
  | { code: 'skipped-files'; files: SkippedFile[] }
  /**
   * A warning already in words, for reports built outside the gate (the
   * hand-written reports of the reporter tests). The gate never produces one.
   */
  | { code: GateWarningCode; text: string };
