import { median } from '../../../action/src/stats/descriptive.js';
import { mannWhitney } from '../../../action/src/stats/mann-whitney.js';
import type { Rule, TrialSamples } from './rule.js';

/**
 * benchstat's verdict: a two-sided Mann–Whitney U test at alpha 0.05; the
 * change is shown (not "~") when p < alpha, and we count it as "slower" when
 * the current median is above the baseline median. benchstat treats every
 * sample as independent and knows nothing of pairing.
 * Source: golang.org/x/perf/cmd/benchstat (default -alpha 0.05) and
 * golang.org/x/perf/benchmath (AssumeNothing: Mann–Whitney U, median summary).
 */
export const BENCHSTAT_ALPHA = 0.05;

export function benchstatFlagsSlower(trial: TrialSamples, alpha = BENCHSTAT_ALPHA): boolean {
  const { p } = mannWhitney(trial.current, trial.baseline);
  return p < alpha && median(trial.current) > median(trial.baseline);
}

export const benchstatRule: Rule = {
  name: 'benchstat',
  note: 'Mann–Whitney U two-sided p < 0.05 and current median above baseline median',
  flagsSlower: (trial) => benchstatFlagsSlower(trial),
};
