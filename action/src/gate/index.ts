/**
 * gate/ decides: ResultSet × ResultSet × resolved budgets → one fully decided
 * row per benchmark and metric, and the verdict. `decide` (this file) walks
 * the benchmarks and applies the budgets; compare/ holds the statistical
 * comparison, one strategy per kind of data (stats/ does the numerics);
 * scaling.ts fits sweeps for `exponent:` budgets; budget-check.ts checks
 * absolute limits; confirmations.ts adds A/B re-run flags.
 *
 * It imports only stats/ and model/. It must never read files or the
 * environment, talk to the network, or write prose: why a row has its status
 * (reason.ts) and what the gate warns about (warning.ts) are data, and
 * report/ words them. The one exception is an error for unusable input
 * (a limit in the wrong unit), which carries its message like any InputError.
 */
import {
  dimensionOfUnit,
  InputError,
  pushAll,
  matchingRules,
  resolveBudget,
  comparableTestbeds,
  sameTestbedIds,
  TestbedMismatchError,
  type BenchmarkResult,
  type BudgetRule,
  type Budgets,
  type Metric,
  type ResolvedBudget,
  type ResultSet,
  rowKey,
} from '../model/index.js';
import { checkBudget } from './budget-check.js';
import { countRows } from './counts.js';
import { unknownDirectionWarnings, unsteadyCountWarnings, unusedBudgetWarnings } from './warning.js';
import type { LearnedDriftTable } from './learned-drift.js';
import { scalingRows } from './scaling-rows.js';
import { environmentChanges } from './environment.js';
import { compareMetrics, describeMetric, DEFAULT_COMPARISON_OPTIONS, type ComparisonInput, type ComparisonOptions } from './compare/index.js';
import { REPORT_SCHEMA, type GateReport, type GateWarning, type RowFlag, type RowReason, type VerdictRow } from './types.js';

export * from './types.js';
export { withConfirmations } from './confirmations.js';
export { countRows } from './counts.js';
export {
  applyAcceptances,
  acceptRow,
  acceptable,
  acceptanceOf,
  rowsToAccept,
  withinAccepted,
  type Acceptance,
  type AcceptanceSource,
  type AcceptedRow,
  type RowAcceptance,
} from './acceptance.js';
export { screenRow, screenedSlowdown, screenSuspectRate, worseBeyondToleranceP, DEFAULT_SCREEN_ALPHA, type ScreenCall, type SuspectWhy } from './screen.js';
export { screenReport, mergeStages, type ScreenedReport, type StageInputs } from './two-stage.js';
export {
  BINARY_START_SECONDS,
  budgetConfirmation,
  HARNESS_START_SECONDS,
  type ConfirmBudget,
  type SuiteCostFacts,
  type SuiteTiming,
} from './confirm-budget.js';
export { idOverlap, type IdOverlap } from './id-overlap.js';
export { TestbedMismatchError };
export { environmentChanges } from './environment.js';
export { learnDrift, smallestDecidableChange, DEFAULT_MIN_DRIFT_RUNS, type LearnedDrift, type LearnedDriftTable, type LearnOptions } from './learned-drift.js';

export interface GateOptions {
  comparison: ComparisonOptions;
  /**
   * What to do when the two sides were measured on different testbeds:
   * `flag` shows the comparison (flagged) but lets only budgets and failures
   * fail the gate, since the difference may be the machine's; `compare` lets
   * flagged regressions fail too; `refuse` makes the input unusable.
   */
  testbedMismatch: 'flag' | 'compare' | 'refuse';
  /**
   * Between-run drift learned from the run history on this testbed, by
   * rowKey: used instead of the budgets' `drift:` for the rows it has.
   */
  learnedDrift?: LearnedDriftTable;
}

export const DEFAULT_GATE_OPTIONS: GateOptions = { comparison: DEFAULT_COMPARISON_OPTIONS, testbedMismatch: 'flag' };

interface PendingRow {
  row: VerdictRow;
  /** Index into the comparison inputs when this row is decided by a statistical comparison. */
  comparison?: number;
}

function emptyRow(benchmark: string, metric: string, resolved: ResolvedBudget, sample: Metric | undefined): VerdictRow {
  return {
    benchmark,
    metric,
    unit: sample?.unit ?? '',
    direction: resolved.direction ?? sample?.direction ?? 'lower',
    baseline: null,
    current: null,
    change: null,
    ci: null,
    ciLevel: null,
    p: null,
    status: 'unchanged',
    flags: [],
    budget: null,
    severity: resolved.severity,
    tolerance: resolved.tolerances.regression,
    samplesNeeded: null,
    // A placeholder: every path of decide() sets the row's own reason.
    reason: { code: 'no-baseline' },
    error: null,
    failsGate: false,
  };
}

/** Counts do not drift: unless a budget rule sets an exact count's tolerance, the tighter count default applies. */
function withCountTolerance(resolved: ResolvedBudget, metric: Metric | undefined, budgets: Budgets): ResolvedBudget {
  if (metric?.exact !== true || resolved.budget?.tolerances.regression !== undefined) return resolved;
  return { ...resolved, tolerances: { ...resolved.tolerances, regression: budgets.defaults.countRegression } };
}

/** A metric with the direction the budget imposes (config beats the harness). */
function withDirection(metric: Metric, resolved: ResolvedBudget): Metric {
  return resolved.direction && resolved.direction !== metric.direction ? { ...metric, direction: resolved.direction } : metric;
}

/** Metric names of a benchmark pair, current's order first, then the baseline's extra ones. */
function metricNames(current: BenchmarkResult | undefined, baseline: BenchmarkResult | undefined): string[] {
  return [...new Set([...Object.keys(current?.metrics ?? {}), ...Object.keys(baseline?.metrics ?? {})])];
}

/**
 * Decides every benchmark × metric of both sides. Without a baseline every row
 * is `new` and only the budgets decide. The verdict fails on a failed
 * benchmark, a regression of severity fail, an exceeded budget of severity
 * fail, or (when the budgets say so) a missing benchmark.
 */
export function decide(baseline: ResultSet | undefined, current: ResultSet, budgets: Budgets, options: GateOptions = DEFAULT_GATE_OPTIONS): GateReport {
  const warnings: GateWarning[] = [];
  const differentTestbed = Boolean(
    baseline?.testbed?.id && current.testbed?.id && comparableTestbeds(baseline.testbed, current.testbed) && !sameTestbedIds(baseline.testbed, current.testbed),
  );
  if (differentTestbed) {
    const testbeds = { baselineTestbed: baseline!.testbed!.id, currentTestbed: current.testbed!.id };
    if (options.testbedMismatch === 'refuse') throw new TestbedMismatchError({ ...testbeds, mode: 'refuse' });
    warnings.push({ code: 'different-testbed', ...testbeds, mode: options.testbedMismatch });
  }
  if (!baseline) warnings.push({ code: 'no-baseline' });
  // Nothing to gate is not a pass: a run that produced no results must not turn the check green.
  if (current.benchmarks.length === 0)
    throw new InputError('current results', 'they hold no benchmarks; expected at least one (check that the suites ran and wrote their output)');

  const baseById = new Map((baseline?.benchmarks ?? []).map((b) => [b.id, b]));
  const curById = new Map(current.benchmarks.map((b) => [b.id, b]));
  const ids = [...new Set([...curById.keys(), ...baseById.keys()])];
  const interleaved = baseline?.design === 'interleaved' && current.design === 'interleaved';

  const pending: PendingRow[] = [];
  const inputs: ComparisonInput[] = [];
  const ignored = new Set<string>();
  const usedRules = new Set<BudgetRule>();

  for (const id of ids) {
    const cur = curById.get(id);
    const base = baseById.get(id);
    const names = metricNames(cur, base);
    if (names.length === 0) names.push('-');
    for (const name of names) {
      const resolved = withCountTolerance(resolveBudget(budgets, id, name), cur?.metrics[name] ?? base?.metrics[name], budgets);
      for (const r of matchingRules(budgets, id)) usedRules.add(r);
      if (resolved.ignore) {
        ignored.add(id);
        continue;
      }
      const curMetric = cur?.metrics[name] && withDirection(cur.metrics[name], resolved);
      const baseMetric = base?.metrics[name] && withDirection(base.metrics[name], resolved);
      assertLimitFitsMetric(resolved, name, curMetric ?? baseMetric);
      const row = emptyRow(id, name, resolved, curMetric ?? baseMetric);
      row.budget = checkBudget(resolved.budget, curMetric, baseMetric, resolved.severity);
      if (curMetric) row.current = describeMetric(curMetric);
      if (baseMetric) row.baseline = describeMetric(baseMetric);

      if (cur?.status === 'failed') {
        row.status = 'failed';
        row.error = { message: cur.error?.message ?? 'the benchmark failed', ...(cur.error?.logTail ? { logTail: cur.error.logTail } : {}) };
        row.reason = { code: 'benchmark-failed', message: row.error.message };
        pending.push({ row });
      } else if (!cur || !curMetric) {
        row.status = 'missing';
        row.reason = cur ? { code: 'metric-missing', metric: name } : { code: 'benchmark-missing' };
        pending.push({ row });
      } else if (!baseMetric) {
        row.status = 'new';
        row.reason = base?.status === 'failed' ? { code: 'baseline-failed' } : { code: 'no-baseline' };
        pending.push({ row });
      } else {
        const exact = Boolean(curMetric.exact && baseMetric.exact);
        const learned = options.learnedDrift?.get(rowKey(id, name));
        inputs.push({
          baseline: baseMetric,
          current: curMetric,
          exact,
          paired: interleaved && (curMetric.samples?.length ?? 0) > 0 && curMetric.samples?.length === baseMetric.samples?.length,
          regression: resolved.tolerances.regression,
          noise: resolved.tolerances.noise,
          alpha: resolved.tolerances.alpha,
          // Interleaved rounds cancel drift; a stored baseline measured at another time does not,
          // and what this testbed's history measured beats the configured guess.
          drift: interleaved ? 0 : (learned?.drift ?? resolved.tolerances.drift),
          ...(learned && !interleaved ? { driftRuns: learned.runs } : {}),
        });
        // A baseline that failed but still measured a value (a JUnit timing with a <failure>) is compared; the flag says it failed.
        if (base?.status === 'failed') row.flags.push('baseline-failed');
        pending.push({ row, comparison: inputs.length - 1 });
      }
    }
  }

  const comparisons = inputs.length > 0 ? compareMetrics(inputs, options.comparison) : [];
  const rows = pending.map(({ row, comparison }) => {
    if (comparison === undefined) return finish(row, budgets, differentTestbed, options);
    const c = comparisons[comparison]!;
    const flags: RowFlag[] = [...row.flags, ...c.flags];
    const reason: RowReason = row.flags.includes('baseline-failed') ? { code: 'baseline-failure-gone', comparison: c.reason } : c.reason;
    return finish(
      {
        ...row,
        baseline: c.baseline,
        current: c.current,
        change: c.change,
        ci: c.ci,
        ciLevel: c.ciLevel,
        p: c.p,
        status: c.status,
        flags,
        samplesNeeded: c.samplesNeeded,
        reason,
      },
      budgets,
      differentTestbed,
      options,
    );
  });

  pushAll(
    rows,
    scalingRows(current, baseline, budgets, (id) => ignored.has(id)).map((row) => finish(row, budgets, false, options)),
  );

  const sides = [...current.benchmarks, ...(baseline?.benchmarks ?? [])];
  pushAll(warnings, unusedBudgetWarnings(budgets, usedRules, sides));
  for (const b of current.benchmarks) {
    const missing = Object.entries(b.unavailable ?? {});
    if (missing.length === 0 || ignored.has(b.id)) continue;
    warnings.push({ code: 'unavailable-metrics', benchmark: b.id, metrics: missing.map(([metric, why]) => ({ metric, why })) });
  }
  pushAll(warnings, unknownDirectionWarnings(sides, budgets, ignored));
  pushAll(warnings, unsteadyCountWarnings(rows, baseById, curById));
  if (ignored.size > 0) {
    warnings.push({ code: 'ignored-benchmarks', benchmarks: [...ignored] });
  }

  const environment = environmentChanges(baseline?.environment, current.environment);
  const flaggedRows = environment.length > 0 ? rows.map(withEnvironmentFlag) : rows;
  const counts = countRows(flaggedRows);
  return {
    schema: REPORT_SCHEMA,
    verdict: flaggedRows.some((r) => r.failsGate) ? 'fail' : 'pass',
    counts,
    rows: flaggedRows,
    warnings,
    baseline: baseline ? meta(baseline) : null,
    current: meta(current),
    ...(environment.length > 0 ? { environment } : {}),
  };
}

/** A regressed row measured across an environment change: the change is a suspect beside the code. */
function withEnvironmentFlag(row: VerdictRow): VerdictRow {
  return row.status === 'regressed' && !row.flags.includes('environment-changed') ? { ...row, flags: [...row.flags, 'environment-changed'] } : row;
}

/**
 * A limit must measure what the metric measures: `max: 20MB` on a metric in
 * seconds would compare 5 with 20,000,000 and always pass. Known metric names
 * are checked when the budget file is read; this catches custom metrics.
 */
function assertLimitFitsMetric(resolved: ResolvedBudget, metric: string, sample: Metric | undefined): void {
  const limit = resolved.budget?.max ?? resolved.budget?.min;
  const measured = sample ? dimensionOfUnit(sample.unit) : undefined;
  if (!limit || !measured || limit.dimension === measured || (measured === 'count' && limit.dimension === 'count')) return;
  throw new InputError(
    resolved.budget!.source.file,
    `the limit "${limit.text}" is ${limit.dimension} but ${metric} is measured in ${sample!.unit} (${measured}); give the limit in the metric's unit`,
    resolved.budget!.source.line,
  );
}

function meta(set: ResultSet): GateReport['current'] {
  return {
    ...(set.commit ? { commit: set.commit } : {}),
    ...(set.ref ? { ref: set.ref } : {}),
    created: set.created,
    ...(set.testbed?.id ? { testbed: set.testbed.id } : {}),
  };
}

/** Adds the testbed flag and decides whether the row fails the gate. */
function finish(row: VerdictRow, budgets: Budgets, differentTestbed: boolean, options: GateOptions): VerdictRow {
  const compared = row.baseline !== null && row.current !== null;
  const flagged = differentTestbed && compared;
  const flags = flagged && !row.flags.includes('different-testbed') ? [...row.flags, 'different-testbed' as const] : row.flags;
  // Across testbeds a shift may be the machine's, not the code's: by default it is shown but cannot fail the gate.
  const regressionCounts = !flagged || options.testbedMismatch === 'compare';
  const failsGate =
    row.status === 'failed' ||
    (row.status === 'regressed' && row.severity === 'fail' && regressionCounts) ||
    (row.budget?.result === 'fail' && row.budget.severity === 'fail') ||
    (row.status === 'missing' && budgets.defaults.missing === 'fail');
  return { ...row, flags, failsGate };
}
export {
  checkConclusionOf,
  DEFAULT_CHECK_POLICY,
  FAIL_ON,
  INCONCLUSIVE,
  stepFails,
  type CheckConclusion,
  type CheckPolicy,
  type DecidedReport,
  type FailOn,
  type InconclusivePolicy,
} from './check-policy.js';
export { functionGrowth, GROWTH_THRESHOLD, inclusiveCosts, prunedStacks, totalCost } from './function-growth.js';
