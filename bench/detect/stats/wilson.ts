/**
 * Wilson score interval for a binomial proportion: the false-alarm and
 * detection rates are proportions of trials, often near 0 or 1, where the
 * plain normal interval collapses to zero width. Wilson keeps a sensible
 * upper bound for 0 of n (3/n-ish) — what "≤ 1 %" needs.
 * Reference: Wilson (1927); Brown, Cai & DasGupta (2001), Statistical Science 16(2).
 */
export function wilsonInterval(successes: number, n: number, z = 1.959963984540054): [number, number] {
  if (n === 0) return [0, 1];
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
