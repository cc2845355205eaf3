import { formatSource, type BenchmarkResult, type Budgets, type ResultSet } from '../model/index.js';
import { checkScaling, type ScalingCheck } from './scaling.js';
import type { VerdictRow } from './types.js';

/**
 * Turns the budgets' scaling limits (`exponent: { param, max }`) into rows:
 * one per sweep family and metric, the fitted exponent checked against the
 * limit in the budget column. An inconclusive fit is shown, never failing.
 */
export function scalingRows(current: ResultSet, baseline: ResultSet | undefined, budgets: Budgets, isIgnored: (id: string) => boolean): VerdictRow[] {
  const rows: VerdictRow[] = [];
  for (const rule of budgets.rules) {
    for (const [metric, budget] of Object.entries(rule.metrics)) {
      if (!budget.exponent) continue;
      const matching = (set: ResultSet | undefined): BenchmarkResult[] => (set?.benchmarks ?? []).filter((b) => rule.matcher.test(b.id) && !isIgnored(b.id));
      const baseFamilies = new Set(checkScaling(matching(baseline), metric, budget.exponent).map((c) => c.family));
      for (const check of checkScaling(matching(current), metric, budget.exponent)) {
        rows.push(toRow(check, baseFamilies.has(check.family), budget.severity ?? budgets.defaults.severity, formatSource(budget.source)));
      }
    }
  }
  return rows;
}

function toRow(check: ScalingCheck, inBaseline: boolean, severity: 'fail' | 'warn', source: string): VerdictRow {
  const limit = check.limit.max ?? check.limit.min ?? Number.NaN;
  const decided = check.fit && check.result !== 'inconclusive';
  return {
    benchmark: check.family,
    metric: `${check.metric} ∝ ${check.param}^k`,
    unit: 'count',
    direction: check.limit.max !== undefined ? 'lower' : 'higher',
    baseline: null,
    current: check.fit
      ? { value: check.fit.exponent, n: check.points.length, mean: null, median: null, stddev: null, min: check.fit.ci[0], max: check.fit.ci[1] }
      : null,
    change: null,
    ci: null,
    ciLevel: null,
    p: null,
    status: check.result === 'inconclusive' ? 'inconclusive' : inBaseline ? 'unchanged' : 'new',
    flags: [],
    budget:
      decided && check.fit
        ? {
            kind: check.limit.max !== undefined ? 'max' : 'min',
            limit,
            stat: 'exponent',
            value: check.fit.exponent,
            result: check.result === 'fail' ? 'fail' : 'pass',
            baselineResult: null,
            severity,
            source,
          }
        : null,
    severity,
    tolerance: 0,
    samplesNeeded: null,
    reason: check.reason,
    error: null,
    failsGate: false,
  };
}
