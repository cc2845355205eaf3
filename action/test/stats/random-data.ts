import { seededRandom, type Random } from '../../src/stats/index.js';

/** Seeded test data: normal and log-normal draws, benchmark-like times. */
export interface TestData {
  rng: Random;
  normal(): number;
  /** n log-normal times around `scale` with log-sd `sigma`. */
  times(n: number, scale: number, sigma: number): number[];
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number;
}

export function testData(seed: number): TestData {
  const rng = seededRandom(seed);
  const normal = (): number => {
    // Box–Muller; 1 − u avoids log(0).
    const u = 1 - rng.next();
    const v = rng.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  return {
    rng,
    normal,
    times: (n, scale, sigma) => Array.from({ length: n }, () => scale * Math.exp(sigma * normal())),
    int: (lo, hi) => lo + rng.int(hi - lo + 1),
  };
}
