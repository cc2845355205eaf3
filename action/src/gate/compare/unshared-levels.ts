/**
 * A benchmark whose two sides each flip between two levels, where one side
 * drew a level the other never did: a third level. A change of the code by
 * about the gap between the levels (levels 11 % apart, the head 10 % slower)
 * puts the head's fast level where the base's slow one was and its slow level
 * on new ground; lined up by one common shift of less than half the gap
 * (compareLevels), that reads as a change of the mix. When a level is
 * unshared (stats/levels.ts `unsharedLevels`, here `unsharedOfSplits`), each side's levels are told
 * apart by its own split instead, and compared by rank: fast with fast, slow
 * with slow (Mann–Whitney with a Hodges–Lehmann interval each, without the
 * drift, pooled with inverse-variance weights, the drift added once), which
 * reads a level that moved and a level that appeared alike. A level missing
 * from a side that settles in one level is not counted: a rare level is
 * missing from twenty runs by chance, and the mix alone fails nothing.
 */
import { twoLevels, unsharedOfSplits } from '../../stats/index.js';
import type { StrategyOptions, StrategyResult } from './strategy.js';
import { compareSamples, type SamplesInput } from './samples.js';
import { pooled, pooledWithDrift, seen } from './levels.js';

/** The comparison by each side's own levels when some level only one side drew, else null. */
export function compareUnsharedLevels(input: SamplesInput & { unit: string }, options: StrategyOptions): StrategyResult | null {
  const base = twoLevels(input.baseline);
  const cur = twoLevels(input.current);
  if (!base || !cur) return null;
  const found = unsharedOfSplits(input.baseline, input.current, [base, cur]);
  if (found.length === 0) return null;
  const compareLevel = (which: 'fast' | 'slow', drift: number): StrategyResult =>
    compareSamples({ ...input, baseline: base[which].values, current: cur[which].values, drift }, options);
  const method = {
    id: 'levels' as const,
    baseline: seen({ fast: base.fast.values, slow: base.slow.values }),
    current: seen({ fast: cur.fast.values, slow: cur.slow.values }),
    unit: input.unit,
    compared: 'unshared' as const,
    // The method named is the one a level of its own is compared by (its drift included).
    inner: compareLevel('fast', input.drift).method,
    unshared: found.map((u) => ({ side: u.side, rank: u.rank, level: u.level.median })),
  };
  return pooledWithDrift(pooled([compareLevel('fast', 0), compareLevel('slow', 0)], method, options), input.drift, options);
}
