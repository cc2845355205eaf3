/**
 * A benchmark that flips between two levels (each process draws one),
 * decided by its levels. A change in how often each level was drawn is no
 * change of the code: only a level that moved is. Interleaved rounds have
 * the flip taken out of each round's ratio and stay paired
 * (compareFoldedRounds, stats/folded-rounds.ts); rounds of several
 * processes a side are compared level by level within each round
 * (compareRoundsByLevel); runs, and rounds of several processes whose
 * levels part the sides themselves, are compared level by level
 * (compareLevels, stats/levels.ts):
 *
 * - The levels are told apart at one point for both sides: the best split
 *   of their values together; when both sides show two levels, the
 *   current's moved back first by the common shift that lines the two
 *   sides' levels up (alignedSplit).
 * - Each level both sides drew (two values or more each) is compared with
 *   itself (Mann–Whitney with a Hodges–Lehmann interval, as for any samples:
 *   compareSamples). Two such levels are pooled with inverse-variance
 *   weights (each interval read as a normal one: the fixed-effect
 *   combination of two estimates of one shift), so swapping the sides
 *   mirrors the row exactly.
 * - A level missing from a side that settles in one level is compared with
 *   nothing: that is the mix again (a level drawn one time in five is
 *   missing from twenty runs one time in a hundred), so the level both drew
 *   decides the row. Where both sides flip and a level is new ground, each
 *   side's own levels decide by rank first (gate/compare/unshared-levels.ts).
 */
import { bestSplit, coreRange, foldRounds, twoLevels, upperTail, zQuantile, type LevelSplit } from '../../stats/index.js';
import type { LevelsSeen, MethodUsed } from '../reason.js';
import type { StrategyOptions, StrategyResult } from './strategy.js';
import { compareSamples, withDrift, type SamplesInput } from './samples.js';

/** What one side drew of each level: its values below the split (fast) and at or above it (slow). */
export interface Side {
  fast: readonly number[];
  slow: readonly number[];
}

/** The gap between a side's two levels, on the log scale. */
function levelGap(split: LevelSplit): number {
  return Math.log(split.slow.median / split.fast.median);
}

/** A side's values told apart at `at` (in `aligned`'s units), kept as measured (`original`). */
function sideOf(aligned: readonly number[], at: number, original: (i: number) => number = (i) => aligned[i]!): Side {
  const fast: number[] = [];
  const slow: number[] = [];
  aligned.forEach((v, i) => (v < at ? fast : slow).push(original(i)));
  return { fast, slow };
}

/** Grid of the common shift tried, on the log scale, in steps of 0.2 %: finer than a level's own scatter. */
const ALIGN_STEP = 0.002;

/**
 * Where the levels part, found with the current's values moved back by the
 * common shift that best lines its levels up with the baseline's: the shift
 * (a ratio) whose pooled values split into two groups most tightly (the
 * smallest two-group within sum of squares of the logs), the nearest to no
 * shift among equals, sought within half the gap between the levels. A
 * code change moves both levels by one factor, so lined up, each side's fast
 * runs fall with the other's fast runs even when one side drew mostly one
 * level and the other mostly the other, as long as the change is less than
 * half the gap; and moving every current value by a smaller factor moves
 * the shift by it, leaving the levels as they were.
 */
function alignedSplit(baseline: readonly number[], current: readonly number[], gap: number): { at: number; shift: number } {
  // Each side's core only (within a factor two of its median): a stall's square would outweigh a level's.
  const core = (values: readonly number[]): number[] => {
    const logs = values.map(Math.log).sort((a, b) => a - b);
    const [from, to] = coreRange(logs);
    return logs.slice(from, to);
  };
  const baseLogs = core(baseline);
  const curLogs = core(current);
  let best = { cost: Infinity, d: 0 };
  // Less than half the gap between the levels either way: a wider shift would line one side's fast level up with the
  // other's slow one, which a noisy run with lopsided mixes can make look tight too.
  const reach = Math.floor(gap / 2 / ALIGN_STEP);
  for (let k = -reach; k <= reach; k++) {
    const d = k * ALIGN_STEP;
    const cost = splitCost([...baseLogs, ...curLogs.map((x) => x - d)]);
    if (cost < best.cost - 1e-12 || (cost <= best.cost + 1e-12 && Math.abs(d) < Math.abs(best.d))) best = { cost, d };
  }
  const shift = Math.exp(best.d);
  const split = bestSplit([...baseline, ...current.map((v) => v / shift)]);
  return { at: split?.at ?? Infinity, shift };
}

/** The smallest within sum of squares of a two-group split of the values (one-dimensional 2-means). */
function splitCost(values: number[]): number {
  values.sort((a, b) => a - b);
  const n = values.length;
  let total = 0;
  let totalSquares = 0;
  for (const x of values) {
    total += x;
    totalSquares += x * x;
  }
  let sum = 0;
  let squares = 0;
  let best = Infinity;
  for (let k = 1; k < n; k++) {
    sum += values[k - 1]!;
    squares += values[k - 1]! * values[k - 1]!;
    const right = total - sum;
    const cost = squares - (sum * sum) / k + (totalSquares - squares) - (right * right) / (n - k);
    if (cost < best) best = cost;
  }
  return best;
}

export function seen(side: Side): LevelsSeen {
  if (side.fast.length === 0 || side.slow.length === 0) return { one: median([...side.fast, ...side.slow]) };
  return { fast: median(side.fast), slow: median(side.slow), slowShare: side.slow.length / (side.fast.length + side.slow.length) };
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * The level comparison, or null when neither side settles in two levels (the
 * ordinary comparison applies). Where the levels part is decided once, for
 * both sides together (alignedSplit), so the two sides' levels are the same
 * levels.
 */
export function compareLevels(input: SamplesInput & { unit: string }, options: StrategyOptions): StrategyResult | null {
  const part = levelsPart(input.baseline, input.current);
  if (!part) return null;
  const base = part.side(input.baseline, 'baseline');
  const cur = part.side(input.current, 'current');
  const levels = { baseline: seen(base), current: seen(cur), unit: input.unit };
  // Each level without the between-run drift: the drift moves both levels at once, so it is added once, to the pooled shift.
  const compareLevel = (b: readonly number[], c: readonly number[]): StrategyResult => compareSamples({ ...input, baseline: b, current: c, drift: 0 }, options);
  const compare = (b: readonly number[], c: readonly number[]): StrategyResult => compareSamples({ ...input, baseline: b, current: c }, options);
  const comparable = (b: readonly number[], c: readonly number[]): boolean => b.length >= 2 && c.length >= 2;
  if (comparable(base.fast, cur.fast) && comparable(base.slow, cur.slow)) {
    const fast = compareLevel(base.fast, cur.fast);
    const slow = compareLevel(base.slow, cur.slow);
    // The method named is the one a level of its own is compared by (its drift included).
    const inner = compare(base.fast, cur.fast).method;
    return pooledWithDrift(pooled([fast, slow], { id: 'levels', ...levels, compared: 'both', inner }, options), input.drift, options);
  }
  const which = comparable(base.fast, cur.fast) ? 'fast' : comparable(base.slow, cur.slow) ? 'slow' : null;
  if (which === null) return null;
  const result = compare(base[which], cur[which]);
  return {
    ...result,
    method: { id: 'levels', ...levels, compared: which, inner: result.method },
    flags: ['flips', ...result.flags.filter((f) => f !== 'noisier')],
    sides: undefined,
    otherLevel: otherLevelReading(base, cur, which, compare),
  };
}

/**
 * A side that settled in one level, compared with the other side's level
 * `which`, compared instead with its other level: the reading the caller
 * weighs when the one level is neither of the other side's (classify in
 * compare/index.ts). A change of about the gap between the levels moves a
 * side's only level next to the other one, so the nearer level is not
 * always the one it came from. Undefined when both sides drew both levels.
 */
function otherLevelReading(
  base: Side,
  cur: Side,
  which: 'fast' | 'slow',
  compare: (b: readonly number[], c: readonly number[]) => StrategyResult,
): StrategyResult['otherLevel'] {
  const other = which === 'fast' ? 'slow' : 'fast';
  const reading =
    cur[other].length === 0 && base[other].length >= 2
      ? compare(base[other], cur[which])
      : base[other].length === 0 && cur[other].length >= 2
        ? compare(base[which], cur[other])
        : null;
  return reading ? { shift: reading.shift, interval: reading.interval } : undefined;
}

/**
 * Where the two sides' levels part, or null when neither side settles in two
 * levels: `side` tells a side's values apart (the current's moved back by the
 * common shift first, kept as measured).
 */
function levelsPart(
  baseline: readonly number[],
  current: readonly number[],
): { side: (values: readonly number[], which: 'baseline' | 'current') => Side } | null {
  const splits = [twoLevels(baseline), twoLevels(current)];
  if (!splits[0] && !splits[1]) return null;
  // Lined up only when both sides show their two levels: a side in one level has nothing to line up, and sliding it
  // over the other side's levels would cut it in two.
  const { at, shift } =
    splits[0] && splits[1]
      ? alignedSplit(baseline, current, Math.min(levelGap(splits[0]), levelGap(splits[1])))
      : { at: bestSplit([...baseline, ...current])?.at ?? Infinity, shift: 1 };
  return {
    side: (values, which) =>
      which === 'baseline'
        ? sideOf(values, at)
        : sideOf(
            values.map((v) => v / shift),
            at,
            (i) => values[i]!,
          ),
  };
}

/**
 * Interleaved rounds that measured several processes a side (a command run
 * `runs` times a round) of a benchmark whose processes flip: the round's
 * median is then a mix of levels, and two sides that drew the slow level in
 * 30 % and 70 % of their processes give medians in different levels in most
 * rounds, which no fold of the rounds' ratios can take apart. Here the
 * levels part once for all the processes of both sides (as for plain runs),
 * as measured or, when that shows no two levels, each process measured
 * against its round's fastest (both sides), so a machine whose speed
 * drifts from round to round does not smear the levels into each other
 * (not first: where the drift is small, a round's fastest is sometimes the
 * other side's level and the shift between the sides, which spreads a
 * level instead); each round's log ratio is then its levels' own: the fast
 * processes' median against the other side's fast ones, the slow against
 * the slow, the mean of the two where the round drew both on both sides,
 * and the round left out where the sides drew no level in common (null
 * when that leaves fewer than half the rounds). The pairing is kept, so the drift cancels in the ratios too; `decide` is the
 * rounds' ordinary test (compare/paired.ts). Null when neither side's
 * processes settle in two levels.
 */
export function compareRoundsByLevel(
  baseline: readonly (readonly number[])[],
  current: readonly (readonly number[])[],
  unit: string,
  decide: (ratios: readonly number[]) => StrategyResult,
): StrategyResult | null {
  const measured = baseline.map(() => 1);
  const fastest = baseline.map((round, i) => Math.min(...round, ...current[i]!));
  const relative = (rounds: readonly (readonly number[])[], scale: readonly number[]): number[][] => rounds.map((round, i) => round.map((v) => v / scale[i]!));
  let part: ReturnType<typeof levelsPart> = null;
  let scale = measured;
  for (const candidate of [measured, fastest]) {
    part = levelsPart(relative(baseline, candidate).flat(), relative(current, candidate).flat());
    scale = candidate;
    if (part) break;
  }
  if (!part) return null;
  const [base, cur] = [relative(baseline, scale), relative(current, scale)];
  const ratios: number[] = [];
  // Each side's processes per level, in the units measured, for the report.
  const drawn = { baseline: { fast: [] as number[], slow: [] as number[] }, current: { fast: [] as number[], slow: [] as number[] } };
  base.forEach((round, i) => {
    const b = part.side(round, 'baseline');
    const c = part.side(cur[i]!, 'current');
    for (const l of ['fast', 'slow'] as const) {
      drawn.baseline[l].push(...b[l].map((v) => v * scale[i]!));
      drawn.current[l].push(...c[l].map((v) => v * scale[i]!));
    }
    const logs = (['fast', 'slow'] as const).filter((l) => b[l].length > 0 && c[l].length > 0).map((l) => Math.log(median(c[l]) / median(b[l])));
    if (logs.length > 0) ratios.push(logs.reduce((x, y) => x + y, 0) / logs.length);
  });
  // Most rounds must share a level: where they do not, the split has parted the sides themselves (a change larger
  // than the gap, one side showing two levels by chance), and the rounds are decided as any others.
  if (ratios.length < baseline.length / 2) return null;
  const result = decide(ratios);
  return {
    ...result,
    method: { id: 'levels', baseline: seen(drawn.baseline), current: seen(drawn.current), unit, compared: 'rounds', inner: result.method },
    flags: ['flips', ...result.flags.filter((f) => f !== 'flips')],
    sides: undefined,
  };
}

/** The between-run drift added once to a pooled shift, as compare/samples.ts adds it to one comparison's. */
export function pooledWithDrift(result: StrategyResult, drift: number, options: StrategyOptions): StrategyResult {
  if (!result.interval) return result;
  const widened = withDrift(result.shift, result.interval, result.pRaw ?? 0, drift > 0 ? Math.log1p(drift) : 0, options);
  return { ...result, interval: widened.interval, pRaw: result.pRaw === null ? null : widened.p };
}

/**
 * Shifts of one change pooled: the inverse-variance weighted mean of the
 * log shifts, each interval's half-width read as z standard errors. A pair
 * that cannot reach significance alone still adds its estimate; only when
 * none can is the row short of values.
 */
export function pooled(pairs: readonly StrategyResult[], method: MethodUsed, options: StrategyOptions): StrategyResult {
  const z = zQuantile(1 - (1 - options.confidence) / 2);
  const ses = pairs.map((r) => (r.interval ? (r.interval[1] - r.interval[0]) / (2 * z) : NaN));
  const shifts = pairs.map((r) => r.shift);
  const flags = ['flips' as const, ...pairs.flatMap((r) => r.flags).filter((f, i, all) => f !== 'noisier' && all.indexOf(f) === i)];
  const short = pairs.every((r) => r.minimumNeeded !== null) ? Math.max(...pairs.map((r) => r.minimumNeeded!)) : null;
  const samplesNeeded = pairs.some((r) => r.samplesNeeded !== null) ? Math.max(...pairs.map((r) => r.samplesNeeded ?? 0)) : null;
  if (shifts.some((s) => !Number.isFinite(s)) || ses.some((se) => !(se > 0))) {
    // Identical values on a level (no spread): the tolerance alone decides, on the plain mean of the shifts.
    const shift = shifts.reduce((a, b) => a + b, 0) / shifts.length;
    return { method, shift, interval: null, pRaw: null, flags, minimumNeeded: null, samplesNeeded };
  }
  const weights = ses.map((se) => 1 / (se * se));
  const total = weights.reduce((a, b) => a + b, 0);
  const shift = weights.reduce((sum, w, i) => sum + w * shifts[i]!, 0) / total;
  const se = 1 / Math.sqrt(total);
  return {
    method,
    shift,
    interval: [shift - z * se, shift + z * se],
    pRaw: Math.min(1, 2 * upperTail(Math.abs(shift) / se)),
    flags,
    minimumNeeded: short,
    samplesNeeded,
  };
}

/**
 * Interleaved rounds of a benchmark that flips (stats/folded-rounds.ts): each
 * round's log ratio with the flip taken out, then decided as any rounds'
 * ratios (`decide`: compare/paired.ts). The report names the levels by
 * their ratio: the machine's drift smears the values themselves, not the
 * rounds' ratios.
 */
export function compareFoldedRounds(ratios: readonly number[], decide: (ratios: readonly number[]) => StrategyResult): StrategyResult | null {
  const fold = foldRounds(ratios);
  if (!fold) return null;
  const result = decide(fold.folded);
  return {
    ...result,
    method: {
      id: 'folded-rounds',
      ratio: Math.exp(fold.gap),
      folded: fold.folds.filter((k) => k !== 0).length,
      rounds: fold.folds.length,
      inner: result.method,
    },
    flags: ['flips', ...result.flags.filter((f) => f !== 'flips')],
    sides: undefined,
  };
}
