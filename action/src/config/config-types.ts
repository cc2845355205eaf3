/**
 * perf-gate.yml as the rest of perf-gate sees it: the typed config that
 * perf-gate-config.ts parses the file into, with its defaults. Types and
 * constants only.
 */
import type { DerivedMetricConfig } from '../model/index.js';

/** A metric computed from others of the same benchmark (evaluated by the gate side, not here). */
export type { DerivedMetricConfig } from '../model/index.js';

/** Settings of interleaved A/B runs (`perf-gate run --ab REF`). */
export interface AbSettings {
  /** Rounds every suite runs first. */
  rounds: number;
  /** Most rounds a suite runs while some of its benchmarks are still inconclusive. */
  maxRounds: number;
  /** Rounds added per adaptive step. */
  step: number;
  /** Re-run regressed benchmarks in fresh rounds; only confirmed ones fail. */
  confirm: boolean;
  /** Rounds of the confirmation run. */
  confirmRounds: number;
  /** CPU list for `taskset -c` (e.g. "2,3"), or null for no pinning. */
  pin: string | null;
  /** Seed of the per-round order, so a run can be reproduced. */
  seed: number;
}

/**
 * The defaults: 10 rounds first (the paired signed-rank test cannot reach
 * alpha 0.01 with fewer than 8 pairs even when every pair agrees, and more
 * rows decided together need more: runner/ab.ts), up to 30, 4 at a time; 12
 * fresh rounds to confirm.
 */
export const DEFAULT_AB: AbSettings = { rounds: 10, maxRounds: 30, step: 4, confirm: true, confirmRounds: 12, pin: null, seed: 1 };

/** One suite of perf-gate.yml. */
export interface SuiteConfig {
  /** Prefixes every benchmark id (`<name>/…`) and names the suite's log folder. */
  name: string;
  /** Shell command run once before the suite, or null. */
  build: string | null;
  /**
   * Shell command that runs the harness; `{output}` and `{param}` placeholders
   * are substituted. For a `commands:` suite it is the hyperfine line perf-gate
   * writes for them (empty when the suite measures counts only).
   */
  run: string;
  /** `commands:` (benchmark name → shell command, in file order) when perf-gate measures the commands itself, else null. */
  commands: readonly CommandConfig[] | null;
  /** A `commands:` suite's timed and warm-up runs per command (what its `run` line says), else null. */
  commandRuns: { runs: number; warmup: number } | null;
  /** What a `commands:` suite measures; `{ time: true, counts: false }` for every `run:` suite. */
  measure: { time: boolean; counts: boolean };
  /** Counted runs per command of a `commands:` suite that measures counts. */
  countRepeat: number;
  /** What counts them: valgrind's cachegrind (simulated, the default) or perf stat (the CPU's counters). */
  counter: 'cachegrind' | 'perf';
  /** Adapter name, or "auto" to detect from the output. */
  format: string;
  /** Options for the adapter (the keys of a `format:` mapping other than `name`), or null. */
  formatOptions: Readonly<Record<string, unknown>> | null;
  /** Seconds before build or run is killed (its whole process group). */
  timeout: number;
  env: Readonly<Record<string, string>>;
  /** Absolute directory build and run start in. */
  workdir: string;
  /** Harness invocations per run (samples concatenated); 1 by default. */
  repeat: number;
  /** Sweep: parameter name → values (one invocation per point of the product), or null. */
  params: Readonly<Record<string, readonly string[]>> | null;
  /** A/B settings after merging the suite's `ab:` over the file's. */
  ab: AbSettings;
  /** Does a pull request's screen send this suite's suspects to interleaved confirmation? (`confirm:`, the suite's over the file's.) */
  confirm: boolean;
  /**
   * `profile:` and `profile-command:`: which profiler records a confirmed
   * regression's benchmark on both sides, and the command it records for a
   * `run:` suite (`{benchmark}` for the name); null: no profile.
   */
  profile: { tool: ProfilerChoice; command: string | null } | null;
  /**
   * `filter:` how the second stage runs only named benchmarks of a `run:`
   * suite: words appended to the run line, with `{regex}` or `{names}`
   * (runner/select-benchmarks.ts); null: perf-gate's own for the format.
   */
  filter: string | null;
  /** Line of the suite in perf-gate.yml, for messages. */
  line: number;
  /** Line of the suite's `format:` key (the suite's line when it has none), for messages about the format. */
  formatLine: number;
}

/** One command of a `commands:` suite: its benchmark id is `<suite>/<name>`. */
export interface CommandConfig {
  name: string;
  command: string;
}

/** Timed runs and warm-up runs per command of a `commands:` suite, as hyperfine's defaults would not be for a gate. */
export const DEFAULT_COMMAND_RUNS = 10;
export const DEFAULT_COMMAND_WARMUP = 1;
/** Counted runs per command: enough to see whether the counts move between identical runs. */
export const DEFAULT_COUNT_REPEAT = 3;

/** `profile:`: perf where it may sample (else callgrind), or one of them. */
export type ProfilerChoice = 'auto' | 'perf' | 'callgrind';

/** Default cap of one run's differential profiles: five minutes of runner time. */
export const DEFAULT_PROFILE_TIME_CAP_SECONDS = 300;

export interface PerfGateConfig {
  /** The config file as given (for messages). */
  file: string;
  /** The absolute folder of the config file: its relative paths, and the repository it measures, are found from here. */
  dir: string;
  version: 1;
  /** Absolute path of the budgets folder (or file). */
  budgets: string;
  /** Absolute path of the baselines folder. */
  baselines: string;
  /** Where the run history is (docs/history.md), or null: baselines come from `baselines`. */
  history: HistorySetting | null;
  suites: readonly SuiteConfig[];
  derived: readonly DerivedMetricConfig[];
  ab: AbSettings;
  /** The two-stage verdict's second stage: on unless `confirm: off`; `timeCap` bounds its runner time (seconds). */
  confirm: { on: boolean; timeCap: number };
  /** `profile-time-cap:` in seconds: the most the differential profiles of one run may take. */
  profileTimeCap: number;
  /** `toolchain:`: tools whose versions each run records beside those the suites' commands name (runner/toolchains.ts). */
  toolchain: readonly string[];
}

/** Default cap of the interleaved second stage: twenty minutes of runner time. */
export const DEFAULT_CONFIRM_TIME_CAP_SECONDS = 1200;

/** Default timeout of build and run: ten minutes. */
export const DEFAULT_TIMEOUT_SECONDS = 600;

/** perf-gate.yml's `history:`: a folder, or a data branch of a git remote. */
export interface HistorySetting {
  /** Absolute folder of the history; null when it is a data branch. */
  folder: string | null;
  /** The data branch and the remote holding it; null for a folder. */
  branch: { name: string; remote: string } | null;
  /** Runs the between-run drift is learned from; null: the default (20). */
  driftRuns: number | null;
}
