import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { mean } from '../../../action/src/stats/descriptive.js';
import type { Rule, TrialSamples } from './rule.js';

/**
 * Bencher's t-test threshold: the historical values (here the baseline
 * samples) give a mean and a standard deviation — Bencher divides by n, not
 * n − 1 — and the upper limit is the `upper_boundary` quantile (0.99) of a
 * Student's t distribution with n − 1 degrees of freedom located at that mean
 * and scaled by that deviation. The new value (here the current mean) raises
 * an alert when it lies above the limit. The rule compares one new number
 * with the spread of single runs, so it never gains power from more current
 * samples.
 * Source: bencherdev/bencher, lib/bencher_boundary/src/boundary.rs
 * (StatisticKind::TTest, freedom = len − 1, population variance) and
 * src/limits/mod.rs (StudentsT::new(mean, std_dev, freedom).inverse_cdf).
 */
export const BENCHER_UPPER_BOUNDARY = 0.99;

export function bencherLimit(history: readonly number[], upperBoundary = BENCHER_UPPER_BOUNDARY): number {
  const n = history.length;
  if (n < 2) return Number.POSITIVE_INFINITY;
  const m = mean(history);
  let ss = 0;
  for (const x of history) ss += (x - m) * (x - m);
  const sd = Math.sqrt(ss / n);
  if (sd === 0) return Number.POSITIVE_INFINITY;
  return m + sd * tQuantile(upperBoundary, n - 1);
}

export function bencherFlagsSlower(trial: TrialSamples, upperBoundary = BENCHER_UPPER_BOUNDARY): boolean {
  return mean(trial.current) > bencherLimit(trial.baseline, upperBoundary);
}

export const bencherRule: Rule = {
  name: 'Bencher t-test 0.99',
  note: 'mean(current) > mean(history) + t(0.99, n−1) × sd(history), population sd',
  flagsSlower: (trial) => bencherFlagsSlower(trial),
};
