/**
 * Standard normal tails, with the upper tail computed as cdf(−z) so that
 * small p-values keep their relative precision (1 − cdf(z) would cancel).
 * Wraps the @stdlib implementations.
 */
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';

/** P(Z ≤ z). */
export function phi(z: number): number {
  return normalCdf(z, 0, 1);
}

/** P(Z > z). */
export function upperTail(z: number): number {
  return normalCdf(-z, 0, 1);
}

/** The z with P(Z ≤ z) = p. */
export function zQuantile(p: number): number {
  return normalQuantile(p, 0, 1);
}
