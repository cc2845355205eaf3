/**
 * Phase 3 of a run: decide. The one call of the gate for every face, and the
 * one place a refused testbed mismatch becomes unusable input (exit 2).
 */
import {
  decide,
  DEFAULT_GATE_OPTIONS,
  idOverlap,
  learnDrift,
  TestbedMismatchError,
  withConfirmations,
  type GateOptions,
  type GateReport,
  type IdOverlap,
  type SkippedFile,
} from '../gate/index.js';
import { dimensionOfMetric } from '../config/budgets.js';
import { InputError, isKnownMetricName, KNOWN_METRIC_NAMES, nearestName, type Budgets, type ResultSet } from '../model/index.js';
import { withTrends } from '../gate/trend.js';

export { DEFAULT_GATE_OPTIONS, type Acceptance, type GateOptions, type GateReport, type SkippedFile } from '../gate/index.js';

/** The options `compare` and the action gate with: a 95 % interval, seed 1, and the given testbed policy. */
export function gateOptions(testbedMismatch: GateOptions['testbedMismatch']): GateOptions {
  return { comparison: { confidence: 0.95, seed: 1 }, testbedMismatch };
}

export interface GateRequest {
  baseline: ResultSet | undefined;
  current: ResultSet;
  budgets: Budgets;
  options?: GateOptions;
  /** A/B confirmation rounds: facts the gate could not know, added before anything is written. */
  confirmations?: ReadonlyMap<string, 'confirmed' | 'not-confirmed'>;
  /** The flag or input that named the baseline, blamed when a testbed mismatch is refused. */
  baselineInput: string;
  /** Where the baseline came from (its files, or the store's folder), named when the ids do not match; default: baselineInput. */
  baselineSource?: string;
  /** Where the current results came from ("--current a.json", "this run of perf-gate.yml"), named when the ids do not match; default "the current results". */
  currentSource?: string;
  /** Both sides were measured from the same config (A/B): their ids match by construction, so they are not checked. */
  sameConfig?: boolean;
  /** Files in the input folders that were not read as results: listed in the report's warnings. */
  skippedFiles?: readonly SkippedFile[];
  /** Earlier runs on this testbed (the history's drift window, oldest first): their between-run drift replaces the budgets' `drift:`. */
  driftRuns?: readonly ResultSet[];
}

/** The gate's report for the run; a refused testbed mismatch is an InputError naming the baseline's input. */
export function gate(request: GateRequest): GateReport {
  assertBudgetMetricsExist(request.budgets, request.baseline, request.current);
  if (request.baseline && !request.sameConfig) {
    const overlap = idOverlap(request.baseline, request.current);
    if (overlap.unusable)
      throw new InputError(
        request.baselineInput,
        unmatchedIdsMessage(overlap, request.baselineSource ?? request.baselineInput, request.currentSource ?? 'the current results'),
      );
  }
  try {
    const options = request.options ?? DEFAULT_GATE_OPTIONS;
    const learned = request.driftRuns && request.driftRuns.length > 0 ? { learnedDrift: learnDrift(request.driftRuns) } : {};
    const decided = decide(request.baseline, request.current, request.budgets, { ...options, ...learned });
    const confirmed = request.confirmations ? withConfirmations(decided, request.confirmations) : decided;
    const report = request.driftRuns ? withTrends(confirmed, request.driftRuns) : confirmed;
    const skipped = request.skippedFiles ?? [];
    return skipped.length > 0 ? { ...report, warnings: [...report.warnings, { code: 'skipped-files', files: [...skipped] }] } : report;
  } catch (error) {
    if (error instanceof TestbedMismatchError) throw new InputError(request.baselineInput, error.message);
    throw error;
  }
}

/** Up to three ids, and how many more. */
function some(ids: readonly string[]): string {
  const shown = ids
    .slice(0, 3)
    .map((id) => `"${id}"`)
    .join(', ');
  return ids.length > 3 ? `${shown} and ${ids.length - 3} more` : shown;
}

/** Why a baseline whose ids barely match the current run's cannot gate it, and how to make them match. */
export function unmatchedIdsMessage(overlap: IdOverlap, baselineSource: string, currentSource: string): string {
  const shared = overlap.shared === 0 ? 'no benchmark id in common' : `only ${overlap.shared} benchmark id(s) in common`;
  return (
    `the baseline (${baselineSource}, ${overlap.baselineCount} benchmark(s)) and the current results (${currentSource}, ${overlap.currentCount} benchmark(s)) have ${shared}, ` +
    `so a regression could pass unseen. Only in the baseline: ${some(overlap.unmatchedBaseline)}; only in the current results: ${some(overlap.unmatchedCurrent)}. ` +
    'Make the ids match on both sides: hyperfine names a benchmark after its command, so name each command (hyperfine -n NAME, perf-gate time or count --name NAME); ' +
    'a file that does not name its benchmark (perf stat, strace, vegeta, hey, h2load, oha) is named after the file, so give both sides one name with --name NAME; ' +
    "in perf-gate.yml an id is <suite>/<name>, so keep each suite's name: (and the benchmark names) the same as when the baseline was recorded."
  );
}

/**
 * A metric name in a budget that perf-gate does not know and no benchmark of
 * this run reports (either side) is a typo: `tiem: { max: 10ms }` would
 * otherwise never apply, silently.
 */
function assertBudgetMetricsExist(budgets: Budgets, baseline: ResultSet | undefined, current: ResultSet): void {
  const reported = new Set([...current.benchmarks, ...(baseline?.benchmarks ?? [])].flatMap((b) => Object.keys(b.metrics)));
  for (const rule of budgets.rules) {
    for (const [metric, budget] of Object.entries(rule.metrics)) {
      if (isKnownMetricName(metric) || dimensionOfMetric(metric) !== undefined || reported.has(metric)) continue;
      const near = nearestName(metric, [...new Set([...KNOWN_METRIC_NAMES, ...reported])]);
      throw new InputError(
        budget.source.file,
        `"${metric}" is not a metric perf-gate knows and no benchmark of this run reports it${near ? `; did you mean \`${near}\`?` : ''} (known: ${KNOWN_METRIC_NAMES.slice(0, 6).join(', ')} …; reported here: ${[...reported].slice(0, 6).join(', ') || 'none'})`,
        budget.source.line,
        `benchmarks.${rule.pattern}.${metric}`,
      );
    }
  }
}
