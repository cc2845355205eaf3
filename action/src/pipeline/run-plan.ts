/**
 * A run as data: what the faces (cli/, action/) build from their flags or
 * inputs, and what pipeline/run.ts carries out. A face decides where the
 * current results and the baseline come from, where the runs are kept (as
 * data: the pipeline opens the store), the policy and the labels its user
 * knows (a flag, an action input); the order of the steps, the one gate
 * call, the one writability check, the acceptances and what fails are the
 * pipeline's.
 */
import type { PerfGateConfig } from '../config/perf-gate-config.js';
import type { Acceptance, CheckConclusion, CheckPolicy, GateOptions, GateReport } from '../gate/index.js';
import type { Budgets, RecordedAcceptance, ResultSet } from '../model/index.js';
import type { Shard } from '../runner/shard.js';
import type { BaselineRead, ReadOptions } from './inputs.js';
import type { ConfirmPlan } from './confirm.js';
import { defaultBaseBranch, type HistoryStart, type StoreAt } from './stores.js';
import type { MainAlerts } from './history/main-watch.js';
import type { ReleaseModel, RunRelease } from './history/release-report.js';
import type { PreflightLevel, PreflightReport } from './preflight.js';

/** Where the current results come from. */
export type CurrentFrom =
  /** The config's suites, run now (this shard's share). */
  | { suites: PerfGateConfig; shard: Shard | null; outDir: string }
  /**
   * The config's suites, interleaved with `ref` checked out in a worktree:
   * the run measures its own baseline. `baseLabel` says what that commit is
   * in the report's context line (a stacked pull request's base: "#41's head, feature-a").
   */
  | { interleaved: PerfGateConfig; ref: string; shard: Shard | null; outDir: string; baseLabel?: string }
  /** Harness files, folders of them, or ResultSets; `stamp` fills a commit or ref they do not name. */
  | { files: readonly string[]; read: ReadOptions; stamp?: { commit?: string; ref?: string } }
  /** Results already read and checked (the two-stage artifact). */
  | { results: ResultSet };

/** Where the baseline comes from: the named files, else the plan's store's choice for the run's commit and testbed. */
export interface BaselineFrom {
  /** Files named by a flag or an input; empty: ask the store. */
  paths: readonly string[];
  /** The input that named the paths, blamed when one does not exist; absent: the reader's own message. */
  input?: string;
  /** How named paths are read (relative to the face's working directory). */
  read: ReadOptions;
  /** For choosing from the store, beside the run's own commit and testbed: an explicit testbed, a commit, and whether this machine's testbed is the fallback. */
  query?: { testbed?: string; commit?: string; machineTestbed?: boolean };
  /** A baseline with no benchmarks is not gated against (the outcome still holds it, so the face can say so); only the budgets decide. */
  emptyIsNone?: boolean;
}

/** The words the report uses for each side: the flag or input its user gave. */
export interface RunLabels {
  /** The flag or input that named the baseline, blamed when a testbed mismatch is refused ("--baseline", "the history …"). */
  baselineInput: string;
  /** How a baseline's source is named when the ids do not match; default: as the store or the paths say. */
  baselineSource?: (source: string) => string;
  /** Where the current results came from ("--current a.json", "this run of perf-gate.yml"). */
  current: string;
}

export interface RunPlan {
  current: CurrentFrom;
  /**
   * Where the runs are kept (pipeline/stores.ts), as data: the pipeline
   * opens it once, to choose the baseline and, in mode main, to record the
   * run. Null: the run has no store (named files, or none).
   */
  store: StoreAt | null;
  /** Null when the run measures its own baseline (interleaved) or has none. */
  baseline: BaselineFrom | null;
  budgets: Budgets;
  options: GateOptions;
  labels: RunLabels;
  /**
   * Mode main: the run is recorded in the plan's store, whose writability is
   * checked before anything is measured. `accepted`: the regressions the
   * merged pull request accepted on the record, kept with the run.
   */
  record: { shard: Shard | null; accepted?: RecordedAcceptance[] } | null;
  /**
   * A pull request's two-stage verdict (pipeline/confirm.ts): the suites' run
   * against the baseline screens, the suspects are measured again interleaved
   * against the base commit. Absent or null: the comparison decides alone.
   * Only a run of the config's suites with a baseline has a second stage.
   */
  confirm?: ConfirmPlan | null;
  /**
   * The regressions accepted on the record for this pull request (its
   * comment's ledger): within them a row passes as `accepted`. Asked for once
   * the run is decided, so an acceptance given while the suites ran counts,
   * and the comment the face writes next does not drop it.
   */
  acceptances?: () => Promise<readonly Acceptance[]>;
  /** What fails the run (`fail-on`, `inconclusive`); default: the verdict decides, an inconclusive row passes. */
  policy?: CheckPolicy;
  /**
   * Mode main with a history: once the run is recorded, find the change
   * points among the last `window` runs that are new regressions (the
   * outcome's `alerts`).
   */
  watch?: { window: number };
  /**
   * Before anything is measured: is this runner fit to measure on
   * (pipeline/preflight.ts)? At `strict`, a check that warns stops the run
   * there: the outcome is the unfit runner, not a verdict. Only a run that
   * measures has it.
   */
  preflight?: { level: Exclude<PreflightLevel, 'off'>; runner?: string };
  /**
   * Mode release: the release model of the decided report, with the change
   * points since the previous release tag when the store is a history (the
   * outcome's `release`).
   */
  release?: RunRelease;
}

/** What a face may say while the run happens (before the suites' own output). */
export interface RunEvents {
  /** The baseline was chosen (undefined: none); called before anything is measured. */
  onBaseline?(baseline: BaselineRead | undefined): void;
  /** The history holds no baseline for this run, and why, in words. */
  onNoBaseline?(text: string): void;
  /** The runner's preflight was run (RunPlan.preflight); awaited before anything is measured. */
  onPreflight?(report: PreflightReport): Promise<void> | void;
}

export interface RunOutcome {
  /** The finished report: the gate's, the second stage's, the acceptances applied. */
  report: GateReport;
  /** The report before the acceptances: what the pull request's ledger records, so each acceptance stays checkable. */
  unaccepted: GateReport;
  /** The acceptances applied. */
  acceptances: readonly Acceptance[];
  /** Does the run fail under the plan's policy (exit 1)? */
  fails: boolean;
  /** The check run's conclusion under the plan's policy. */
  conclusion: CheckConclusion;
  /** The baseline as read (its source, the skipped files, the history's drift window); undefined when there was none. */
  baseline: BaselineRead | undefined;
  current: ResultSet;
  /** Where mode main stored the run, or why it could not (an InputError, thrown by the face once the reports are out). */
  stored: { at: string } | { error: Error } | null;
  /** Main's watch (RunPlan.watch): the new regressions among the history's change points; null when not watched. */
  alerts: MainAlerts | null;
  /** The release model (RunPlan.release), and why its change points are missing when they are; null when not a release. */
  release: { model: ReleaseModel; note: string | null } | null;
}

/** A run that `preflight: strict` stopped before anything was measured: this runner's timings could not be trusted. */
export interface UnfitRunner {
  unfit: PreflightReport;
}

/**
 * The one rule for where a history's search starts: an explicit `--base`,
 * else the previous release tag for a release, else the merge base with the
 * pull request's base commit, else with the repository's default branch.
 */
export async function historyStart(repo: string, choice: { base?: string; release?: boolean; mergeBaseWith?: string }): Promise<HistoryStart> {
  if (choice.base !== undefined) return { base: choice.base };
  if (choice.release) return { release: true };
  return { mergeBaseWith: choice.mergeBaseWith ?? (await defaultBaseBranch(repo)) };
}

/** The second stage as a face was asked for it: the action's `confirm:` input, `perf-gate run --confirm` (absent: auto). */
export type SecondStageChoice = 'auto' | 'interleaved' | 'off';

/** What a run does, as far as its second stage is concerned. */
export interface SecondStageRun {
  /** pr (a pull request's or a local run), release, or main (which records the run; its alerts confirm on their own). */
  mode: 'pr' | 'release' | 'main';
  /** The config's suites are run now (not given results, not the two-stage artifact, not --ab's rounds). */
  measuresSuites: boolean;
  /** Where the baseline comes from: the store's choice (history, baselines: folder), files a flag or input named, or none. */
  baseline: 'store' | 'files' | 'none';
  /** perf-gate.yml's `confirm:` (on unless it says off). */
  configOn: boolean;
}

/**
 * The one rule for "is the second stage on?", for both faces. Only a run that
 * measures the suites against a stored baseline has suspects to measure again
 * (main records; --ab is already interleaved). An explicit choice decides;
 * `auto` confirms a pull request's run against the store's choice unless
 * perf-gate.yml says `confirm: off`. Files named by hand are compared as they
 * are, and a release with the previous tag's run, unless `interleaved` asks.
 */
export function secondStageOn(choice: SecondStageChoice, run: SecondStageRun): boolean {
  if (run.mode === 'main' || !run.measuresSuites || run.baseline === 'none') return false;
  if (choice !== 'auto') return choice === 'interleaved';
  return run.configOn && run.mode === 'pr' && run.baseline === 'store';
}

/** Is a main-branch alert's step measured again interleaved before its issue opens? The same choice, for mode main's watch. */
export function alertStepsConfirmed(choice: SecondStageChoice, configOn: boolean): boolean {
  return choice === 'interleaved' || (choice === 'auto' && configOn);
}
