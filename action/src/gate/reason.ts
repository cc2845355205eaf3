/**
 * Why a row has its status, as data: a code and the numbers and names the
 * sentence needs. The gate decides and records the facts; report/reason-text.ts
 * is the one place that turns them into words, so every format says the same
 * thing and the gate never writes prose. Numbers are raw (fractions, p-values,
 * counts), formatted only by the wording.
 */

/** The method that compared a row, with the facts its name mentions. */
export type MethodUsed =
  | { id: 'exact' }
  | { id: 'single-value' }
  /** Nothing to compare (the notes say why, e.g. zero-time samples). */
  | { id: 'not-compared' }
  /**
   * Independent samples; `drift` is the between-run drift the interval was
   * widened for (0: none), learned from `driftRuns` earlier runs on this
   * testbed, or the configured `drift:` when `driftRuns` is null.
   */
  | { id: 'mann-whitney'; exact: boolean; drift: number; driftRuns: number | null }
  /** Summaries only; on the log scale unless a mean is not positive. */
  | { id: 'welch-log'; logScale: boolean }
  | { id: 'wilcoxon-signed-rank'; rounds: number; exact: boolean }
  /**
   * A benchmark that flips between two levels (gate/compare/levels.ts): the
   * levels each side settled in (base units of `unit`), and what decided the
   * row, by `inner`'s test: `both` levels pooled, the one level both sides
   * drew (`fast` or `slow`), each interleaved round's processes level by
   * level (`rounds`), or each side's own levels by rank when a level only one
   * side drew is new ground (`unshared`, gate/compare/unshared-levels.ts).
   */
  | {
      id: 'levels';
      baseline: LevelsSeen;
      current: LevelsSeen;
      unit: string;
      compared: 'both' | 'fast' | 'slow' | 'rounds' | 'unshared';
      inner: MethodUsed;
      /** compared 'unshared': each level only one side drew, by its rank on that side, and its median. */
      unshared?: { side: 'baseline' | 'current'; rank: 'fast' | 'slow'; level: number }[];
    }
  /**
   * Interleaved rounds of a benchmark that flips (stats/folded-rounds.ts): the
   * levels' ratio, how many of the rounds drew different levels on their two
   * sides, and the paired test of the rounds with the flip taken out.
   */
  | { id: 'folded-rounds'; ratio: number; folded: number; rounds: number; inner: MethodUsed };

/** The levels one side settled in: two (their medians, and the share of values in the slow one), or one. */
export type LevelsSeen = { fast: number; slow: number; slowShare: number } | { one: number };

/** Something the comparison did that the reader should know, beside the method. */
export type ComparisonNote =
  | { code: 'non-finite-ignored'; count: number }
  | { code: 'rounds-not-aligned' }
  /** Time samples of 0 s or less: the benchmark is below what its harness can time; not compared. */
  | { code: 'zero-time-samples'; count: number };

/** What a significance test found, shared by every tested reason. */
export interface TestedFacts {
  method: MethodUsed;
  /** p-value after false-discovery control. */
  p: number;
  /** Whether `p` differs from the test's raw p-value (Benjamini–Hochberg moved it). */
  adjusted: boolean;
  /** The interval of the relative change; null when the method gives none. */
  ci: [number, number] | null;
  /** Confidence level of `ci`. */
  confidence: number;
  /** The estimated relative change, signed. */
  change: number;
  /** Regression tolerance (fraction). */
  tolerance: number;
  /** Noise floor (fraction). */
  noise: number;
  alpha: number;
  notes: ComparisonNote[];
}

/** Why a statistical comparison gave its status. */
export type ComparisonReason =
  /** The shift is not a number: nothing usable to compare. */
  | { code: 'no-usable-values'; method: MethodUsed; notes: ComparisonNote[] }
  /** No test applies (exact counts, single values): the tolerance alone decided. */
  | { code: 'tolerance-only'; method: MethodUsed; change: number; tolerance: number; beyond: boolean; notes: ComparisonNote[] }
  /** The test cannot reach alpha with these sizes; `needed` per side (rounds when paired). */
  | { code: 'cannot-reach-significance'; method: MethodUsed; alpha: number; baselineN: number; currentN: number; needed: number; notes: ComparisonNote[] }
  /** Regressed or improved: significant, clear of the noise floor, beyond the tolerance. */
  | ({ code: 'significant-change' } & TestedFacts)
  /** Unchanged: the interval lies within ±tolerance. */
  | ({ code: 'change-ruled-out' } & TestedFacts)
  /** Unchanged: a real shift, smaller than the tolerance. */
  | ({ code: 'shift-within-tolerance' } & TestedFacts)
  /** Inconclusive: not significant, and the interval still allows a tolerance-sized change. */
  | ({ code: 'not-significant'; samplesNeeded: number | null } & TestedFacts)
  /** Inconclusive: significant, but the interval does not clear the noise floor. */
  | ({ code: 'within-noise-floor'; samplesNeeded: number | null } & TestedFacts)
  /**
   * Inconclusive: one side settled in one level that is neither of the other
   * side's two (the facts: against the nearer one), and against the farther
   * one the change reads otherwise (`other`, relative): which level it came
   * from cannot be told from the values.
   */
  | ({ code: 'level-unknown'; other: { change: number; ci: [number, number] | null } } & TestedFacts);

/** The fitted growth of a sweep family, as a scaling reason states it. */
export interface ScalingFitFacts {
  metric: string;
  param: string;
  exponent: number;
  ci: [number, number];
  confidence: number;
  /** Points fitted. */
  points: number;
  /** Points left out (failed, or without the metric). */
  skipped: number;
}

/** Why a scaling check (`exponent:` budget) gave its result. */
export type ScalingReason =
  | { code: 'scaling-too-few-points'; metric: string; param: string; usable: number; skipped: number; minPoints: number }
  | { code: 'scaling-within-limit'; fit: ScalingFitFacts; limit: { min?: number; max?: number } }
  | { code: 'scaling-beyond-limit'; fit: ScalingFitFacts; side: 'above' | 'below'; bound: number }
  | { code: 'scaling-unsure'; fit: ScalingFitFacts; side: 'above' | 'below'; bound: number };

/** Why a row has its status. */
export type RowReason =
  | ComparisonReason
  | ScalingReason
  | { code: 'benchmark-failed'; message: string }
  /** The benchmark ran but did not report this metric. */
  | { code: 'metric-missing'; metric: string }
  | { code: 'benchmark-missing' }
  | { code: 'baseline-failed' }
  /** Compared although the baseline run failed (it still recorded a value), and this run passed. */
  | { code: 'baseline-failure-gone'; comparison: ComparisonReason }
  | { code: 'no-baseline' }
  /**
   * A reason already in words, for rows built outside the gate (the
   * hand-written reports of the reporter tests, a report read back from its
   * JSON). The gate itself never produces one.
   */
  | { code: 'text'; text: string };
