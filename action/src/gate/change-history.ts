/**
 * Change points against an earlier report of them (`history changes
 * --previous FILE`): E-Divisive on a longer history can place an old step a
 * run or two away, or merge it into a neighbour, so each point says whether
 * it is new, where it was, and which earlier points are gone — nothing moves
 * silently. Pure: rows and the runs' order in, annotated rows out.
 */
import type { ChangeRow, ChangeSince } from './change-rows.js';

/** How far (in runs of the testbed) a step may have moved and still be the same step. */
export const MAX_MOVE_RUNS = 3;

export type { ChangeSince } from './change-rows.js';

const seriesOf = (r: ChangeRow): string => `${r.testbed}\u0000${r.benchmark}\u0000${r.metric}\u0000${r.regression}`;

/**
 * Matches each row with the nearest earlier point of its series and sense
 * within MAX_MOVE_RUNS runs (`runIndex`: run id → position among its
 * testbed's runs). Earlier points left unmatched whose run is still in the
 * history are `gone`; those whose run was pruned are left out.
 */
export function againstPrevious(
  rows: readonly ChangeRow[],
  previous: readonly ChangeRow[],
  runIndex: ReadonlyMap<string, number>,
): { rows: ChangeRow[]; gone: ChangeRow[] } {
  const unmatched = new Set(previous.filter((p) => runIndex.has(p.runId)));
  const annotated = rows.map((row) => {
    const at = runIndex.get(row.runId);
    let best: { p: ChangeRow; distance: number } | null = null;
    for (const p of unmatched) {
      if (at === undefined || seriesOf(p) !== seriesOf(row)) continue;
      const distance = runIndex.get(p.runId)! - at;
      if (Math.abs(distance) <= MAX_MOVE_RUNS && (best === null || Math.abs(distance) < Math.abs(best.distance))) best = { p, distance };
    }
    if (best === null) return { ...row, since: { kind: 'new' } as ChangeSince };
    unmatched.delete(best.p);
    const since: ChangeSince = best.distance === 0 ? { kind: 'same' } : { kind: 'moved', commit: best.p.commit, runs: best.distance };
    return { ...row, since };
  });
  return { rows: annotated, gone: [...unmatched] };
}
