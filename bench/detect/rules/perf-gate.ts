import { compareMetrics, type ComparisonInput } from '../../../action/src/gate/compare/index.js';
import type { Metric } from '../../../action/src/model/index.js';
import type { Rule, TrialSamples } from './rule.js';

/**
 * perf-gate's own rule, called through the real engine: compareMetrics()
 * from action/src/gate/compare/index.ts, flagged when a row's status is
 * `regressed`. One call per benchmark gives the per-benchmark rate; one call
 * with 20 rows gives the suite rate with Benjamini–Hochberg across the call,
 * as the gate does for one suite. Interleaved trials are passed with
 * `paired: true` (index i of both sides = round i), sequential ones unpaired.
 */
export interface PerfGateBudget {
  /** Regression tolerance (fraction). */
  regression: number;
  /** Noise floor (fraction). */
  noise: number;
  alpha: number;
  /**
   * A configured between-run drift (the budgets' `drift:`), applied to
   * unpaired comparisons as the gate does; absent: 0 unless the variant
   * passes the measured one.
   */
  drift?: number;
}

/**
 * The settings the benchmark reports: a 2 % tolerance so that a 5 % slowdown
 * is clearly beyond it (docs/design.md: "to catch 5 % slowdowns, a benchmark sets a
 * tolerance below 5 %"), a 1 % noise floor (the interval must exclude the
 * ±1 % that this machine's drift produces easily), alpha 0.01 per benchmark to
 * match the ≤ 1 % false-alarm target.
 */
export const TUNED_BUDGET: PerfGateBudget = { regression: 0.02, noise: 0.01, alpha: 0.01 };
/** docs/design.md's documented defaults, for contrast: a 5 % slowdown is borderline by definition. */
export const DEFAULT_BUDGET: PerfGateBudget = { regression: 0.05, noise: 0.01, alpha: 0.01 };
/** What a user gets with no budget file: the defaults plus the default 2 % between-run drift (config/budgets.ts). */
export const OUT_OF_THE_BOX_BUDGET: PerfGateBudget = { ...DEFAULT_BUDGET, drift: 0.02 };
/** The tuned tolerance with the default 2 % drift floor. */
export const TUNED_WITH_DRIFT_FLOOR: PerfGateBudget = { ...TUNED_BUDGET, drift: 0.02 };

function metric(samples: readonly number[]): Metric {
  return { unit: 's', direction: 'lower', samples: samples.slice() };
}

function input(trial: TrialSamples, budget: PerfGateBudget): ComparisonInput {
  return {
    drift: trial.drift ?? 0,
    baseline: metric(trial.baseline),
    current: metric(trial.current),
    exact: false,
    paired: trial.paired,
    regression: budget.regression,
    noise: budget.noise,
    alpha: budget.alpha,
  };
}

/** One compareMetrics call over all trials (one suite): which rows are `regressed`. */
export function perfGateSuiteFlags(trials: readonly TrialSamples[], budget: PerfGateBudget): boolean[] {
  return compareMetrics(trials.map((t) => input(t, budget))).map((c) => c.status === 'regressed');
}

export interface PerfGateVariant {
  /**
   * Analyse interleaved samples as if they were independent — the same
   * numbers without the per-round pairing — to measure what the pairing
   * itself buys (issue 6). Interleaved designs only.
   */
  ignorePairing?: boolean;
  /**
   * Pass the testbed's between-run drift (`drift` input of compareMetrics),
   * as a user with a baseline history would. Sequential designs only; the
   * plain variants pass 0 ("unknown").
   */
  useDrift?: boolean;
}

export function perfGateRule(budget: PerfGateBudget, label: string, variant: PerfGateVariant = {}): Rule {
  const pct = (x: number): string => `${+(x * 100).toFixed(2)} %`;
  const how = variant.ignorePairing
    ? 'interleaved rounds analysed as unpaired samples'
    : variant.useDrift
      ? "with the between-run drift estimated from this testbed's A/A blocks"
      : 'paired for interleaved, no drift';
  return {
    name: `perf-gate ${label}${variant.ignorePairing ? ' unpaired' : ''}${variant.useDrift ? ' + drift' : ''}`,
    note: `compareMetrics(): regressed (regression ${pct(budget.regression)}, noise ${pct(budget.noise)}, alpha ${budget.alpha}; ${how})`,
    ...(variant.ignorePairing ? { designs: ['interleaved'] as const } : variant.useDrift ? { designs: ['sequential'] as const } : {}),
    flagsSlower: (trial) => {
      const t: TrialSamples = {
        ...trial,
        paired: variant.ignorePairing ? false : trial.paired,
        // The gate applies drift to unpaired comparisons only: interleaved rounds cancel it.
        drift: trial.paired && !variant.ignorePairing ? 0 : variant.useDrift ? (trial.drift ?? 0) : (budget.drift ?? 0),
      };
      return perfGateSuiteFlags([t], budget)[0] === true;
    },
  };
}
