import type { Random } from '../../../action/src/stats/prng.js';

/** A shuffled copy (Fisher–Yates) drawn from the given seeded generator; the input is left alone. */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    const tmp = out[i] as T;
    out[i] = out[j] as T;
    out[j] = tmp;
  }
  return out;
}
