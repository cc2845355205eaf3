import { InputError } from '../model/index.js';

/** `--shard i/n`: this runner is number `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Parses "i/n" with 1 ≤ i ≤ n; anything else is an InputError naming the flag. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    throw new InputError('--shard', `expected "i/n" with 1 <= i <= n (e.g. "2/3"), found ${JSON.stringify(text)}`);
  }
  return { index, count };
}

/**
 * The suites shard i of n runs: round-robin by position in perf-gate.yml —
 * suite k (0-based) belongs to shard (k mod n) + 1. Deterministic and balanced
 * in count; adding or reordering suites moves others between shards, which is
 * harmless because every shard runs on every commit.
 */
export function selectShard<T>(suites: readonly T[], shard: Shard | null): T[] {
  if (!shard) return [...suites];
  return suites.filter((_, k) => k % shard.count === shard.index - 1);
}
