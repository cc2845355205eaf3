import { formatSource, type BudgetStat, type Metric, type MetricBudget } from '../model/index.js';
import type { BudgetCheck } from './types.js';

/**
 * The statistic a budget limits, from whatever the side has: samples give every
 * statistic; a summary gives mean/median/min/max when present; a single value is
 * that value. Returns the statistic actually used (a summary without p95 falls
 * back to its max, the conservative choice for an upper limit).
 */
export function budgetStatistic(metric: Metric, stat: BudgetStat): { value: number; stat: BudgetStat } | undefined {
  if (metric.samples && metric.samples.length > 0) {
    const sorted = [...metric.samples].sort((a, b) => a - b);
    switch (stat) {
      case 'mean':
        return { value: sorted.reduce((a, b) => a + b, 0) / sorted.length, stat };
      case 'median':
        return { value: quantileSorted(sorted, 0.5), stat };
      case 'p95':
        return { value: quantileSorted(sorted, 0.95), stat };
      case 'max':
        return { value: sorted[sorted.length - 1]!, stat };
      case 'min':
        return { value: sorted[0]!, stat };
    }
  }
  const s = metric.summary;
  if (s) {
    // Without samples, p95 is bounded by the max (a conservative stand-in, labelled as what it is).
    const wanted: BudgetStat = stat === 'p95' ? 'max' : stat;
    const pick: Partial<Record<BudgetStat, number | undefined>> = { mean: s.mean, median: s.median, max: s.max, min: s.min };
    const value = pick[wanted];
    return value !== undefined ? { value, stat: wanted } : { value: s.mean, stat: 'mean' };
  }
  return metric.value !== undefined ? { value: metric.value, stat } : undefined;
}

/** Linear interpolation between order statistics (type 7, as numpy's default). */
function quantileSorted(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * Checks a budget's absolute limits on the current side (and, for context, on
 * the baseline). Returns null when the budget sets no max/min.
 */
export function checkBudget(
  budget: MetricBudget | undefined,
  current: Metric | undefined,
  baseline: Metric | undefined,
  severity: 'fail' | 'warn',
): BudgetCheck | null {
  if (!budget || !current || (!budget.max && !budget.min)) return null;
  const kind: 'max' | 'min' = budget.max ? 'max' : 'min';
  const limit = (budget.max ?? budget.min)!;
  const cur = budgetStatistic(current, budget.stat);
  if (!cur) return null;
  // Both limits set: the current side must satisfy both; report the one that fails.
  // A value that is not a number cannot be within a limit.
  const unmeasurable = !Number.isFinite(cur.value);
  const failsMin = budget.min !== undefined && (unmeasurable || cur.value < budget.min.value);
  const failsMax = budget.max !== undefined && (unmeasurable || cur.value > budget.max.value);
  const reported = failsMin && !failsMax ? { kind: 'min' as const, limit: budget.min!.value } : { kind, limit: limit.value };
  const base = baseline ? budgetStatistic(baseline, budget.stat) : undefined;
  const baseWithin = base ? (budget.max ? base.value <= budget.max.value : true) && (budget.min ? base.value >= budget.min.value : true) : null;
  return {
    kind: reported.kind,
    limit: reported.limit,
    stat: cur.stat,
    value: cur.value,
    result: failsMin || failsMax ? 'fail' : 'pass',
    baselineResult: baseWithin === null ? null : baseWithin ? 'pass' : 'fail',
    severity,
    source: formatSource(budget.source),
  };
}
