/**
 * The shape of the collector's data file (bench/detect/data/*.json): every
 * timed run of every trial, so the analysis can be re-run without measuring
 * again. Times are wall-clock seconds of one process, spawn to exit.
 */
export const DATA_SCHEMA = 'perf-gate/detect-data@1';

export type Design = 'sequential' | 'interleaved';
export type Load = 'quiet' | 'busy';

export interface Trial {
  design: Design;
  load: Load;
  /** Nominal slowdown of B in wall time, percent (0 = A/A). */
  slowdown: number;
  /** Baseline (A) times in seconds, in the order they ran (interleaved: index = round). */
  a: number[];
  /** Current (B) times in seconds, same convention. */
  b: number[];
  /** Interleaved only: one letter per round, the side that ran first ("A" or "B"). */
  order?: string;
  /** Seconds since the collection started, when the trial began. */
  startedAt: number;
  /** The machine's 1-minute load average when the trial began (other users' work included). */
  load1?: number;
}

export interface Machine {
  nproc: number;
  cpu: string;
  kernel: string;
  node: string;
  gcc: string;
  loadBefore: [number, number, number];
  loadAfter: [number, number, number];
}

export interface Calibration {
  /** Loop iterations of A. */
  iterations: number;
  /** Median wall time of A, seconds. */
  aSeconds: number;
  /** Median wall time of a process that does (almost) no work: the spawn overhead. */
  overheadSeconds: number;
  /** Share of A's wall time spent in the loop; B's work percent = slowdown / loopShare. */
  loopShare: number;
}

export interface DataFile {
  schema: typeof DATA_SCHEMA;
  mode: 'quick' | 'full';
  /** How each process was timed. */
  timing: string;
  seed: number;
  started: string;
  finished: string;
  durationSeconds: number;
  machine: Machine;
  calibration: Calibration;
  /** Samples per side in every trial (sequential block length = interleaved rounds). */
  samplesPerSide: number;
  /** Trials planned per design × load: A/A, and A/B per slowdown (fewer if the time cap was hit). */
  planned: { aaTrials: number; abTrials: number; slowdowns: number[] };
  trials: Trial[];
}
