import { matchingRules, maxOf, minOf, resolveBudget, type BenchmarkResult, type BudgetRule, type Budgets, type Metric } from '../model/index.js';
import { median } from '../stats/index.js';
import type { VerdictRow } from './types.js';
import type { GateWarning } from './warning-types.js';

export type { GateWarning, GateWarningCode, SkippedFile } from './warning-types.js';

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
