/**
 * The common shape of a detection rule in this benchmark: given the baseline
 * and current samples of one benchmark (times, lower is better), does the rule
 * raise a "slower" alarm? Rules are pure functions of the samples.
 */
export interface TrialSamples {
  baseline: readonly number[];
  current: readonly number[];
  /** True when index i of both sides was measured in the same interleaved round. */
  paired: boolean;
  /**
   * Between-run drift of this testbed (standard deviation of a run's level,
   * fraction), as a baseline history would tell it; only perf-gate's
   * drift-aware variant uses it.
   */
  drift?: number;
}

export interface Rule {
  /** Short name for the tables. */
  name: string;
  /** One line: what the rule does and where it comes from. */
  note: string;
  /** Only for these designs (absent: all), e.g. a variant that only differs on interleaved data. */
  designs?: readonly ('sequential' | 'interleaved')[];
  /** True when the rule flags the current side as slower. */
  flagsSlower(trial: TrialSamples): boolean;
}
