import {
  matchingRules,
  maxOf,
  minOf,
  resolveBudget,
  type BenchmarkResult,
  type BudgetRule,
  type Budgets,
  type Metric,
  type SourceRef,
} from '../model/index.js';
import { median } from '../stats/index.js';
import type { VerdictRow } from './types.js';

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

/**
 * A rule whose glob matched no benchmark (likely a typo), and a metric a used
 * rule sets that none of the benchmarks it matches reports (the budget never
 * applies). Each benchmark is matched through the rule index, never every
 * rule against every benchmark.
 */
export function unusedBudgetWarnings(budgets: Budgets, usedRules: ReadonlySet<BudgetRule>, sides: readonly BenchmarkResult[]): GateWarning[] {
  const warnings: GateWarning[] = [];
  for (const rule of budgets.rules) {
    if (!usedRules.has(rule)) warnings.push({ code: 'unused-budget', pattern: rule.pattern, source: rule.source });
  }
  const reported = new Map<BudgetRule, Set<string>>();
  for (const b of sides) {
    for (const rule of matchingRules(budgets, b.id)) {
      const metrics = reported.get(rule) ?? new Set<string>();
      for (const metric of Object.keys(b.metrics)) metrics.add(metric);
      reported.set(rule, metrics);
    }
  }
  for (const rule of budgets.rules) {
    if (!usedRules.has(rule)) continue;
    for (const [metric, budget] of Object.entries(rule.metrics)) {
      if (reported.get(rule)?.has(metric)) continue;
      warnings.push({ code: 'unused-budget-metric', pattern: rule.pattern, metric, source: budget.source });
    }
  }
  return warnings;
}

/**
 * One warning per benchmark whose metrics (on either side) came without a
 * direction and get none from the budgets either: the gate compares them as
 * lower-is-better, which may be backwards, so it says so rather than guess silently.
 */
export function unknownDirectionWarnings(sides: readonly BenchmarkResult[], budgets: Budgets, ignored: ReadonlySet<string>): GateWarning[] {
  const unknown = new Map<string, Set<string>>();
  for (const b of sides) {
    if (ignored.has(b.id)) continue;
    for (const [name, metric] of Object.entries(b.metrics)) {
      if (metric.directionUnknown !== true || resolveBudget(budgets, b.id, name).direction !== undefined) continue;
      unknown.set(b.id, (unknown.get(b.id) ?? new Set()).add(name));
    }
  }
  return [...unknown].map(([benchmark, metrics]) => ({ code: 'unknown-direction', benchmark, metrics: [...metrics] }));
}

/**
 * Exact counts are gated on tolerance alone, which is only sound when they
 * are deterministic. One warning per benchmark whose counts moved, between
 * the repeats of one side, by as much as their tolerance: the verdict on
 * them cannot be trusted until the cause (ASLR, environment size, hash
 * seeds, a JIT) is removed or the tolerance raised.
 */
export function unsteadyCountWarnings(
  rows: readonly VerdictRow[],
  baseById: ReadonlyMap<string, BenchmarkResult>,
  curById: ReadonlyMap<string, BenchmarkResult>,
): GateWarning[] {
  const byBenchmark = new Map<string, { metric: string; spread: number; tolerance: number }[]>();
  for (const row of rows) {
    if (!row.flags.includes('exact')) continue;
    const spread = Math.max(repeatSpread(baseById.get(row.benchmark)?.metrics[row.metric]), repeatSpread(curById.get(row.benchmark)?.metrics[row.metric]));
    if (!(spread >= row.tolerance) || spread === 0) continue;
    byBenchmark.set(row.benchmark, [...(byBenchmark.get(row.benchmark) ?? []), { metric: row.metric, spread, tolerance: row.tolerance }]);
  }
  return [...byBenchmark].map(([benchmark, metrics]) => ({ code: 'unsteady-counts', benchmark, metrics }));
}

/** (max − min) / median of a metric's samples; 0 with fewer than two. */
function repeatSpread(metric: Metric | undefined): number {
  const samples = metric?.samples;
  if (!samples || samples.length < 2) return 0;
  const mid = median(samples);
  return mid > 0 ? (maxOf(samples) - minOf(samples)) / mid : 0;
}
