import { seededRandom, type Random } from '../../src/stats/prng.js';

/** A standard normal draw (Box–Muller). */
function normal(random: Random): number {
  const u = 1 - random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
}

export interface Step {
  /** The first point at the new level. */
  at: number;
  /** Relative change of the level (0.05 = 5 % slower). */
  size: number;
}

/**
 * A per-run series around 100 with relative noise `noise` (0.02 = 2 % of the
 * level, normal) and level steps: what a benchmark on main looks like when
 * some commits change its speed.
 */
export function seriesWithSteps(seed: number, length: number, noise: number, steps: readonly Step[] = []): number[] {
  const random = seededRandom(seed);
  const out: number[] = [];
  let level = 100;
  for (let i = 0; i < length; i++) {
    for (const s of steps) if (s.at === i) level *= 1 + s.size;
    out.push(level * (1 + noise * normal(random)));
  }
  return out;
}
