import type { Direction, EnvironmentChange, ProfileSection, RowStatus } from '../model/index.js';
import type { RowReason } from './reason.js';
import type { GateWarning } from './warning-types.js';

/** Why a row is a suspect. */
export type SuspectWhy =
  | 'failed'
  | 'regressed'
  | 'noisier'
  | 'estimate-beyond-tolerance'
  | 'worse-beyond-tolerance'
  | 'flips-values-beyond-tolerance'
  | 'other-level-beyond-tolerance';

/** How the acceptance was given. */
export type AcceptanceSource = { kind: 'comment'; url: string } | { kind: 'label'; label: string };

/** What a row shows of an acceptance that names it. */
export interface RowAcceptance {
  by: string;
  reason: string;
  commit: string;
  source: AcceptanceSource;
  /** The change that was accepted. */
  change: number;
  /** False when the row got worse than the accepted change beyond its tolerance: it fails again. */
  holds: boolean;
}

export type { RowStatus };
export type { RowReason, ComparisonReason, ScalingReason, MethodUsed, LevelsSeen, ComparisonNote, TestedFacts, ScalingFitFacts } from './reason.js';
export type { GateWarning, GateWarningCode, SkippedFile } from './warning-types.js';

/** Flags a row can carry; the report explains each (see report/ for the wording). */
export type RowFlag =
  | 'noisier'
  | 'single-sample'
  | 'insufficient-samples'
  | 'different-testbed'
  | 'environment-changed'
  | 'summary-only'
  | 'exact'
  | 'paired'
  | 'confirmed'
  | 'not-confirmed'
  | 'ignored'
  | 'baseline-failed'
  | 'flips';

/** Statistics of one side of a row, in base units (null fields where unknown). */
export interface SideStats {
  /** The compared statistic's value (median with samples, mean with a summary, or the single value). */
  value: number;
  n: number;
  mean: number | null;
  median: number | null;
  stddev: number | null;
  min: number | null;
  max: number | null;
}

/** The result of checking one budget limit against one side. */
export interface BudgetCheck {
  /** Which limit: "max" or "min". */
  kind: 'max' | 'min';
  /** The limit in base units. */
  limit: number;
  /** Which statistic of the current side was checked ("exponent": the fitted scaling exponent of a sweep). */
  stat: 'mean' | 'median' | 'p95' | 'max' | 'min' | 'exponent';
  /** The value that was checked (current side). */
  value: number;
  result: 'pass' | 'fail';
  /** The same limit checked on the baseline, for context; null without a baseline. */
  baselineResult: 'pass' | 'fail' | null;
  severity: 'fail' | 'warn';
  /** Where the budget came from: "budgets/scan.yml:7". */
  source: string;
}

/** One fully decided row: reporters show it and compute nothing that changes it. */
export interface VerdictRow {
  benchmark: string;
  metric: string;
  unit: string;
  direction: Direction;
  baseline: SideStats | null;
  current: SideStats | null;
  /** current/baseline − 1 of the compared statistic, signed; null when not comparable. */
  change: number | null;
  /** Confidence interval of the relative change [lo, hi], same sign convention; null when none. */
  ci: [number, number] | null;
  /** Confidence level of `ci` (e.g. 0.95). */
  ciLevel: number | null;
  /** p-value after false-discovery control across the suite; null when no test was made. */
  p: number | null;
  status: RowStatus;
  flags: RowFlag[];
  budget: BudgetCheck | null;
  /** Severity of a regression on this row (from the budgets). */
  severity: 'fail' | 'warn';
  /** The regression tolerance used (fraction). */
  tolerance: number;
  /** For inconclusive / insufficient-samples rows: samples per side that would decide it. */
  samplesNeeded: number | null;
  /** Why the row has its status, as data (method, reason for inconclusive, error); report/ words it. */
  reason: RowReason;
  /** For failed rows: the error message and log tail. */
  error: { message: string; logTail?: string } | null;
  /** Does this row make the gate fail? */
  failsGate: boolean;
  /**
   * Regressed rows gated against the run history: the metric's level (median)
   * in the last runs on main, oldest first, so a reviewer sees whether the
   * baseline itself was stable (gate/trend.ts).
   */
  trend?: number[];
  /** Which stage of a two-stage verdict decided the row (absent when the run had one stage). */
  stage?: RowStage;
  /** A regression accepted on the record (status `accepted`), or accepted at a smaller change than now (`holds: false`). */
  acceptance?: RowAcceptance;
}

/** Why a suspect could not be measured again interleaved. */
export interface Unconfirmed {
  code: 'no-base-commit' | 'base-not-in-checkout' | 'base-failed' | 'fork' | 'time-cap' | 'not-measured';
  /** The base commit (or ref) the second stage needed, when known. */
  commit?: string;
  /** The error or log line behind the code (the base's build error, git's words). */
  message?: string;
}

/** What the screen saw of a row that went on to the second stage. */
export interface ScreenedFacts {
  status: RowStatus;
  change: number | null;
  ci: [number, number] | null;
  why: SuspectWhy;
}

export type RowStage =
  /**
   * The screen cleared the row: it keeps the screen's verdict; `bound` is the
   * largest slowdown the screen could not rule out. `blind` (with the row's
   * estimate and tolerance): the interval reaches further than the tolerance
   * either side of the estimate, so the screen saw no slowdown but could not
   * have seen one of that size.
   */
  | { by: 'screen'; suspect: false; bound: number | null; blind?: { estimate: number; tolerance: number } }
  /** A suspect that could not be measured again: `suspected` (or still `failed`), and why. */
  | { by: 'screen'; suspect: true; screen: ScreenedFacts; unconfirmed: Unconfirmed }
  /** A suspect decided by interleaved rounds against the base commit. */
  | { by: 'interleaved'; rounds: number; screen: ScreenedFacts };

/** What each stage of a two-stage verdict did and cost. */
export interface TwoStages {
  screen: {
    /** Runner time of the plain run (seconds). */
    seconds: number;
    rows: number;
    suspects: number;
    /** Earlier runs the screen's drift was learned from; null when the configured drift applied. */
    driftRuns: number | null;
    /**
     * Rows the screen could not screen (their interval leaves a slowdown
     * beyond the tolerance possible) and the widest such bound; absent when
     * none. Their estimates decided alone whether they went on.
     */
    blind?: { rows: number; bound: number };
  };
  confirm: {
    /** Runner time of the interleaved stage (seconds); 0 when it did not run. */
    seconds: number;
    /** The base commit measured against; null when none was known. */
    base: string | null;
    /** The suites measured again, with the rows that sent each, the rounds run, and the fresh rounds that confirmed a regression (0: none needed). */
    suites: {
      suite: string;
      rows: string[];
      rounds: number;
      confirmRounds: number;
      /** Why the suite ran whole in every round (its harness could not select the suspects); absent when only they ran. */
      whole?: string;
    }[];
    /** Why the second stage did not run for (some of) the suspects; null when it ran for all. */
    skipped: Unconfirmed | null;
    /**
     * What the stage was estimated to cost before it started (gate/confirm-budget.ts),
     * the cap, and the suspects left out because the ones before them filled
     * it; absent when the stage did not start.
     */
    estimate?: { seconds: number; cap: number; left: string[] };
  };
}

export const REPORT_SCHEMA = 'perf-gate/report@1';

/** The gate's whole decision: what every reporter renders. */
export interface GateReport {
  schema: typeof REPORT_SCHEMA;
  verdict: 'pass' | 'fail';
  counts: Record<RowStatus, number> & { budgetFailed: number; budgetWarned: number };
  rows: VerdictRow[];
  warnings: GateWarning[];
  baseline: { commit?: string; ref?: string; created?: string; testbed?: string } | null;
  current: { commit?: string; ref?: string; created?: string; testbed?: string };
  /** A two-stage verdict's stages and their cost (absent when the run had one stage). */
  stages?: TwoStages;
  /** What differs between the baseline's environment and the current one (absent: nothing, or not recorded). */
  environment?: EnvironmentChange[];
  /** The differential profiles of the confirmed regressions of suites with `profile:` (absent: none was asked for). */
  profiles?: ProfileSection;
}
