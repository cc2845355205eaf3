/**
 * A differential profile of a confirmed regression, as the report carries
 * it (pipeline/profile.ts records it, report/profile-text.ts shows it).
 */

/** One function of a differential profile whose inclusive cost grew. */
/** Stack (frames joined by ";", outermost first) → its self cost: perf's folded stacks, and callgrind's made into them. */
export type FoldedStacks = Map<string, number>;

export interface FunctionGrowthRow {
  function: string;
  /** The program it ran in (perf's command name, callgrind's program): shares are of that process's total. */
  process: string;
  /** Inclusive cost on the base side and on the head side (instructions with callgrind, sample weight with perf). */
  before: number;
  after: number;
  /** That cost as a share of its side's total. */
  shareBefore: number;
  shareAfter: number;
  /** shareAfter − shareBefore: how many points of the total the function gained. */
  growth: number;
}

/** A confirmed regression's benchmark, recorded on both sides under a profiler. */
export interface RegressionProfile {
  benchmark: string;
  profiler: 'perf' | 'callgrind';
  /** What a count is: "instructions" or "samples". */
  countName: string;
  /** Runner seconds both sides took. */
  seconds: number;
  /** The two sides' total cost. */
  totals: { before: number; after: number };
  /** Relative to the folder the face publishes (the action's output-dir, the CLI's --out folder): the differential flame graph (null when inferno could not draw it) and the folded stacks. */
  files: { flameGraph: string | null; base: string; head: string };
  /** The functions whose share of the total grew most (by at least the profiler's threshold), most first. */
  top: FunctionGrowthRow[];
}

/** The profile step of a run: what it recorded, what it could not (each with its fix), and what it cost. */
export interface ProfileSection {
  profiles: RegressionProfile[];
  warnings: string[];
  seconds: number;
  /** The cap it ran under (seconds). */
  cap: number;
  /** Where the files can be downloaded: the workflow run's artifacts, when the run is on GitHub. */
  artifactUrl?: string;
}
