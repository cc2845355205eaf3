import { mean } from '../../../action/src/stats/descriptive.js';
import type { Rule, TrialSamples } from './rule.js';

/**
 * github-action-benchmark's alert: for a "smaller is better" tool the ratio
 * current / previous of the single reported value (here: the mean of the
 * samples, what hyperfine-style tools report) is compared with
 * `alert-threshold`, default "200%"; an alert when the ratio is above it.
 * No test, no spread: one number against one number.
 * Source: benchmark-action/github-action-benchmark, src/write.ts
 * (`biggerIsBetter ? prev.value / current.value : current.value / prev.value`,
 * alert when `ratio > threshold`) and action.yml (alert-threshold: '200%').
 */
export function gabFlagsSlower(trial: TrialSamples, threshold: number): boolean {
  return mean(trial.current) / mean(trial.baseline) > threshold;
}

export function githubActionBenchmarkRule(threshold: number): Rule {
  const percent = Math.round(threshold * 100);
  return {
    name: `github-action-benchmark ${percent} %`,
    note: `mean(current) / mean(previous) > ${threshold.toFixed(2)} (alert-threshold "${percent}%")`,
    flagsSlower: (trial) => gabFlagsSlower(trial, threshold),
  };
}
