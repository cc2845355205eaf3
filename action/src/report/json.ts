import type { BudgetCheck, GateReport, GateWarningCode, RowStage, SideStats, TwoStages, VerdictRow } from '../gate/types.js';
import { stageNote, stagesText } from './stage-text.js';
import { environmentSentence } from './environment-text.js';
import type { EnvironmentChange, ProfileSection } from '../model/index.js';
import { reasonText } from './reason-text.js';
import { warningText } from './warning-text.js';

/**
 * The JSON report of docs/design.md ("The command line"): a top-level `verdict` and
 * one row per benchmark and metric, in full precision and base units, for
 * machines (dashboards, Bencher, later runs). Keys are written in a fixed
 * order so reports diff cleanly.
 *
 * JSON has no NaN or infinity: such values (odd data the gate passed through)
 * are written as null, like JSON.stringify does, never thrown. Reasons and
 * warnings are written in words (report/reason-text.ts, warning-text.ts),
 * the same sentences every other format shows.
 */

/** One row of the JSON report: the gate's row, with its reason (and a two-stage verdict's stage) in words too. */
export type JsonRow = Omit<VerdictRow, 'reason' | 'stage'> & { reason: string; stage?: RowStage & { text: string } };

/** One warning of the JSON report: its code and its sentence. */
export interface JsonWarning {
  code: GateWarningCode;
  message: string;
}

export interface JsonReport {
  schema: GateReport['schema'];
  verdict: GateReport['verdict'];
  counts: GateReport['counts'];
  baseline: GateReport['baseline'];
  current: GateReport['current'];
  warnings: JsonWarning[];
  /** A two-stage verdict's stages, their cost and their sentences; absent for a run of one stage. */
  stages?: TwoStages & { text: string[] };
  /** What differs between the baseline's environment and the current one, and the sentence above the table; absent when nothing does. */
  environment?: { changes: EnvironmentChange[]; text: string };
  /** The differential profiles of the confirmed regressions (absent when no suite asked for one). */
  profiles?: ProfileSection;
  rows: JsonRow[];
}

function side(s: SideStats | null): SideStats | null {
  return s && { value: s.value, n: s.n, mean: s.mean, median: s.median, stddev: s.stddev, min: s.min, max: s.max };
}

function budget(b: BudgetCheck | null): BudgetCheck | null {
  return (
    b && {
      kind: b.kind,
      limit: b.limit,
      stat: b.stat,
      value: b.value,
      result: b.result,
      baselineResult: b.baselineResult,
      severity: b.severity,
      source: b.source,
    }
  );
}

/** The report as a plain object in the JSON report's key order (a copy; the input is untouched). */
export function toJsonReport(report: GateReport): JsonReport {
  return {
    schema: report.schema,
    verdict: report.verdict,
    counts: { ...report.counts },
    baseline: report.baseline && { ...report.baseline },
    current: { ...report.current },
    warnings: report.warnings.map((w) => ({ code: w.code, message: warningText(w) })),
    ...(report.stages ? { stages: { ...report.stages, text: stagesText(report.stages) } } : {}),
    ...(report.environment ? { environment: { changes: report.environment, text: environmentSentence(report.environment) } } : {}),
    ...(report.profiles ? { profiles: report.profiles } : {}),
    rows: report.rows.map((r) => ({
      benchmark: r.benchmark,
      metric: r.metric,
      unit: r.unit,
      direction: r.direction,
      baseline: side(r.baseline),
      current: side(r.current),
      change: r.change,
      ci: r.ci && [r.ci[0], r.ci[1]],
      ciLevel: r.ciLevel,
      p: r.p,
      status: r.status,
      flags: [...r.flags],
      budget: budget(r.budget),
      severity: r.severity,
      tolerance: r.tolerance,
      samplesNeeded: r.samplesNeeded,
      failsGate: r.failsGate,
      reason: reasonText(r.reason),
      error: r.error && { message: r.error.message, ...(r.error.logTail !== undefined ? { logTail: r.error.logTail } : {}) },
      ...(r.stage ? { stage: { ...r.stage, text: stageNote(r.stage) } } : {}),
    })),
  };
}

/** The JSON report text: two-space indented, ending in a newline. */
export function renderJson(report: GateReport): string {
  return `${JSON.stringify(toJsonReport(report), null, 2)}\n`;
}
