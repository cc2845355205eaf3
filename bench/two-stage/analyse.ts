/**
 * The two-stage verdict against the two one-stage designs, replayed on real
 * timings: the detection benchmark's committed data (bench/detect/data/),
 * measured on one machine in one collection. Per load:
 *
 * - the history is the sequential trials' A blocks in the order they ran
 *   (each a run of main); a pull request's row is a trial's B block
 *   (unchanged, or 5 % or 10 % slower by construction), gated against the
 *   A block before it with the drift learned from the 20 A blocks before
 *   that — exactly what `perf-gate run` with a history does;
 * - **stored baseline only**: that comparison decides;
 * - **two stages**: the screen (gate/screen.ts) sorts the row; a suspect is
 *   decided by interleaved rounds of the same condition: a real interleaved
 *   trial (30 rounds, one process a side a round), taken with the adaptive
 *   schedule of `run --ab` (10 rounds, 4 more while inconclusive, up to 30)
 *   and, when regressed, confirmed on the first 12+ rounds of another trial;
 * - **always interleaved**: every row is decided that way.
 *
 * Runner time is the sum of the measured process times a design used, plus
 * one real compile of the workload per build (a plain run builds once, an
 * interleaved stage builds base and head). A 20-benchmark pull request is 20
 * rows drawn at random (seeded) from the pool, each its own suite.
 */
import { decide, learnDrift, screenRow, DEFAULT_GATE_OPTIONS, type GateOptions, type VerdictRow } from '../../action/src/gate/index.js';
import { EMPTY_BUDGETS, newResultSet, type Budgets, type ResultSet } from '../../action/src/model/index.js';
import type { DataFile, Load, Trial } from '../detect/data-file.js';
import { seededRandom } from '../../action/src/stats/prng.js';

/** A design's decision on one row and the runner time it cost (seconds). */
export interface Decided {
  status: VerdictRow['status'];
  seconds: number;
  /** Two stages only: the screen sent the row to the interleaved stage. */
  suspect: boolean;
}

export interface RowOutcome {
  slowdown: number;
  stored: Decided;
  twoStage: Decided;
  interleaved: Decided;
}

export interface ReplayPlan {
  /** Samples per side of a plain run. */
  k: number;
  /** Runs of history the drift is learned from. */
  driftWindow: number;
  /** The regression tolerance per slowdown (fraction): +5 % is judged at 2 %, everything else at the default 5 %. */
  tolerance: (slowdown: number) => number;
  /** Seconds one build of the workload takes (measured by the caller). */
  buildSeconds: number;
  seed: number;
  /** The screen's one-sided level (gate/screen.ts); default DEFAULT_SCREEN_ALPHA. */
  screenAlpha?: number;
}

export const REPLAY_PLAN: Omit<ReplayPlan, 'buildSeconds'> = { k: 10, driftWindow: 20, tolerance: (s) => (s === 5 ? 0.02 : 0.05), seed: 7 };

function budgetsAt(tolerance: number): Budgets {
  return { ...EMPTY_BUDGETS, defaults: { ...EMPTY_BUDGETS.defaults, regression: tolerance } };
}

function runOf(samples: readonly number[], design?: 'interleaved'): ResultSet {
  const set = newResultSet('2026-01-01T00:00:00Z', [{ id: 'work', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [...samples] } } }]);
  return design ? { ...set, design } : set;
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** The interleaved status of the first `rounds` rounds of a trial. */
function pairedStatus(trial: Trial, rounds: number, budgets: Budgets): VerdictRow['status'] {
  return decide(runOf(trial.a.slice(0, rounds), 'interleaved'), runOf(trial.b.slice(0, rounds), 'interleaved'), budgets).rows[0]!.status;
}

/** `run --ab`'s adaptive schedule on one trial: `start` rounds, 4 more while inconclusive, up to 30. */
function adaptive(trial: Trial, start: number, budgets: Budgets): { status: VerdictRow['status']; rounds: number } {
  let rounds = start;
  let status = pairedStatus(trial, rounds, budgets);
  while (status === 'inconclusive' && rounds + 4 <= Math.min(30, trial.a.length)) {
    rounds += 4;
    status = pairedStatus(trial, rounds, budgets);
  }
  return { status, rounds };
}

/** The interleaved second stage on two trials of the row's condition: first rounds, then fresh rounds to confirm a regression. */
function interleavedStage(first: Trial, fresh: Trial, budgets: Budgets, buildSeconds: number): Decided {
  const roundSeconds = (t: Trial, n: number): number => sum(t.a.slice(0, n)) + sum(t.b.slice(0, n));
  const a = adaptive(first, 10, budgets);
  let seconds = 2 * buildSeconds + roundSeconds(first, a.rounds);
  if (a.status !== 'regressed') return { status: a.status, seconds, suspect: true };
  const again = adaptive(fresh, 12, budgets);
  seconds += roundSeconds(fresh, again.rounds);
  return { status: again.status, seconds, suspect: true };
}

/** Every row of one load, decided by the three designs. */
export function replayLoad(data: DataFile, load: Load, plan: ReplayPlan): RowOutcome[] {
  const sequential = data.trials.filter((t) => t.design === 'sequential' && t.load === load).sort((p, q) => p.startedAt - q.startedAt);
  const pools = new Map<number, Trial[]>();
  for (const t of data.trials.filter((x) => x.design === 'interleaved' && x.load === load)) pools.set(t.slowdown, [...(pools.get(t.slowdown) ?? []), t]);
  const random = seededRandom(plan.seed);
  const draw = (slowdown: number): Trial => {
    const pool = pools.get(slowdown)!;
    return pool[random.int(pool.length)]!;
  };
  const history = sequential.map((t) => runOf(t.a.slice(0, plan.k)));
  const out: RowOutcome[] = [];
  for (let i = plan.driftWindow + 1; i < sequential.length; i++) {
    const trial = sequential[i]!;
    if (!pools.has(trial.slowdown)) continue;
    const budgets = budgetsAt(plan.tolerance(trial.slowdown));
    const options: GateOptions = { ...DEFAULT_GATE_OPTIONS, learnedDrift: learnDrift(history.slice(i - plan.driftWindow, i)) };
    const row = decide(history[i - 1]!, runOf(trial.b.slice(0, plan.k)), budgets, options).rows[0]!;
    const plain = plan.buildSeconds + sum(trial.b.slice(0, plan.k));
    const stored: Decided = { status: row.status, seconds: plain, suspect: false };
    const first = draw(trial.slowdown);
    const fresh = draw(trial.slowdown);
    const interleaved = interleavedStage(first, fresh, budgets, plan.buildSeconds);
    const suspect = screenRow(row, plan.screenAlpha).suspect;
    const twoStage: Decided = suspect ? { ...interleaved, seconds: plain + interleaved.seconds } : { ...stored };
    out.push({ slowdown: trial.slowdown, stored, twoStage, interleaved });
  }
  return out;
}

export type DesignName = 'stored' | 'twoStage' | 'interleaved';
export const DESIGNS: { key: DesignName; label: string }[] = [
  { key: 'stored', label: 'stored baseline only' },
  { key: 'twoStage', label: 'two stages (the default)' },
  { key: 'interleaved', label: 'always interleaved' },
];

export interface PullRequests {
  /** Share of A/A pull requests with any row regressed. */
  failed: number;
  /** Median and mean runner time per A/A pull request, seconds. */
  median: number;
  mean: number;
  /** Share of A/A pull requests that ran the second stage (two stages only). */
  confirmed: number;
}

/** `count` A/A pull requests of `size` rows drawn with replacement from the A/A rows (seeded). */
export function pullRequests(rows: readonly RowOutcome[], design: DesignName, size: number, count: number, seed: number): PullRequests {
  const aa = rows.filter((r) => r.slowdown === 0);
  const random = seededRandom(seed);
  const times: number[] = [];
  let failed = 0;
  let confirmed = 0;
  for (let p = 0; p < count; p++) {
    const picked = Array.from({ length: size }, () => aa[random.int(aa.length)]!);
    const decided = picked.map((r) => r[design]);
    if (decided.some((d) => d.status === 'regressed')) failed++;
    if (decided.some((d) => d.suspect)) confirmed++;
    times.push(sum(decided.map((d) => d.seconds)));
  }
  times.sort((a, b) => a - b);
  return { failed: failed / count, median: times[count >> 1]!, mean: sum(times) / count, confirmed: confirmed / count };
}
