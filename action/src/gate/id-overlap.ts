import type { ResultSet } from '../model/index.js';

/** How far the benchmark ids of a baseline and the current run overlap (data only; pipeline/ words it). */
export interface IdOverlap {
  /** Ids present on both sides. */
  shared: number;
  baselineCount: number;
  currentCount: number;
  /** Ids of the baseline with no match in the current run, in the baseline's order. */
  unmatchedBaseline: string[];
  /** Ids of the current run with no match in the baseline, in the current run's order. */
  unmatchedCurrent: string[];
  /**
   * True when the two sides cannot be compared: both non-empty and no id in
   * common, or fewer than half of each side's ids shared — the signature of
   * renamed benchmarks (a run that only adds new benchmarks still shares most
   * of the baseline's ids, and stays usable).
   */
  unusable: boolean;
}

/** Compares the ids of two result sets. Pure. */
export function idOverlap(baseline: ResultSet, current: ResultSet): IdOverlap {
  const baseIds = [...new Set(baseline.benchmarks.map((b) => b.id))];
  const curIds = [...new Set(current.benchmarks.map((b) => b.id))];
  const base = new Set(baseIds);
  const cur = new Set(curIds);
  const shared = curIds.filter((id) => base.has(id)).length;
  const bothNonEmpty = baseIds.length > 0 && curIds.length > 0;
  const barely = shared * 2 < curIds.length && shared * 2 < baseIds.length;
  return {
    shared,
    baselineCount: baseIds.length,
    currentCount: curIds.length,
    unmatchedBaseline: baseIds.filter((id) => !cur.has(id)),
    unmatchedCurrent: curIds.filter((id) => !base.has(id)),
    unusable: bothNonEmpty && (shared === 0 || barely),
  };
}
