/**
 * The decisions of `perf-gate bisect`, as pure functions: which commit to
 * measure next, what one measured step says about its commit, and when the
 * search stops. No git, no processes: pipeline/history/bisect.ts measures, this file
 * decides, report/bisect.ts words it.
 *
 * Commits are numbered along the first-parent path: 0 is the good end, 1 … n
 * the commits of `git rev-list --first-parent --reverse good..bad`, n the bad
 * end. Every step measures one commit against the good end, interleaved.
 */
import type { Direction, RowStatus } from '../model/index.js';
import type { VerdictRow } from './types.js';

/** What one interleaved measurement of a commit against the good end says about the benchmark × metric. */
export interface StepMeasure {
  status: RowStatus;
  /** commit/good − 1 of the compared statistic; null when not comparable. */
  change: number | null;
  /** The change's confidence interval; null when none. */
  ci: [number, number] | null;
  /** The regression tolerance the gate used (a fraction). */
  tolerance: number;
}

/**
 * Where a measured commit sits:
 * - `bad`: it shows the change (same verdict as bad, interval overlapping the change's);
 * - `good`: it does not (unchanged, or an interval that rules the change out);
 * - `inconclusive`: the measurement cannot tell;
 * - `differs`: it shows a change of its own (the opposite way, or clearly
 *   smaller or larger than the change): the change is not one step;
 * - `failed`: the benchmark failed or was missing on a side.
 */
export type StepSide = 'good' | 'bad' | 'inconclusive' | 'differs' | 'failed';

/** Why a step got its side, as data (report/ words it). */
export type SideReason =
  | 'is-the-change'
  | 'same-verdict-overlapping'
  | 'unchanged'
  | 'rules-out-change'
  | 'cannot-tell'
  | 'opposite-direction'
  | 'smaller-than-change'
  | 'larger-than-change'
  | 'not-measured';

export interface StepClassification {
  side: StepSide;
  reason: SideReason;
}

/** The numbers of a gate row that bisect decides on. */
export function stepOf(row: Pick<VerdictRow, 'status' | 'change' | 'ci' | 'tolerance'>): StepMeasure {
  return { status: row.status, change: row.change, ci: row.ci, tolerance: row.tolerance };
}

/** Is the good → bad measurement a change to search for (the gate called it regressed or improved)? */
export function isChange(step: StepMeasure): boolean {
  return (step.status === 'regressed' || step.status === 'improved') && step.change !== null;
}

/**
 * The bad end's side: `bad` when good → bad is a change to search for,
 * `good` when it is unchanged (no step), `inconclusive` when the gate cannot
 * tell, `failed` when the benchmark did not run on a side.
 */
export function classifyChange(step: StepMeasure): StepClassification {
  if (isChange(step)) return { side: 'bad', reason: 'is-the-change' };
  if (step.status === 'unchanged') return { side: 'good', reason: 'unchanged' };
  if (step.status === 'inconclusive') return { side: 'inconclusive', reason: 'cannot-tell' };
  return { side: 'failed', reason: 'not-measured' };
}

/** The interval, or the point estimate as a zero-width interval when the gate gave none. */
function bounds(step: StepMeasure): [number, number] | null {
  if (step.ci) return step.ci;
  return step.change === null ? null : [step.change, step.change];
}

/**
 * Classifies a commit's step against the change (the good → bad step).
 *
 * The gate's verdict answers "did it change at all?"; bisect asks "is this
 * commit like good or like bad?". Where the two differ is an inconclusive
 * row: on a noisy machine a commit identical to good often cannot be shown
 * unchanged within the tolerance, yet its interval (say −8 … +12 %) plainly
 * excludes a +150 % change. Such a row counts as `good` when its whole
 * interval lies short of the change's interval and it shows no change beyond
 * the tolerance in the change's direction. Everything else the gate leaves
 * open stays `inconclusive`: bisect never guesses a side.
 */
export function classifyStep(change: StepMeasure, step: StepMeasure): StepClassification {
  const full = bounds(change);
  if (!isChange(change) || full === null) throw new Error('classifyStep: the good → bad step is not a change');
  const up = change.change! > 0;
  if (step.status === 'failed' || step.status === 'missing' || step.status === 'new') return { side: 'failed', reason: 'not-measured' };
  const own = bounds(step);
  if (step.status === 'unchanged') return { side: 'good', reason: 'unchanged' };
  if (step.status === 'regressed' || step.status === 'improved') {
    if (step.status !== change.status || own === null) return { side: 'differs', reason: 'opposite-direction' };
    if (own[0] <= full[1] && own[1] >= full[0]) return { side: 'bad', reason: 'same-verdict-overlapping' };
    const smaller = up ? own[1] < full[0] : own[0] > full[1];
    return { side: 'differs', reason: smaller ? 'smaller-than-change' : 'larger-than-change' };
  }
  // inconclusive
  if (own === null) return { side: 'inconclusive', reason: 'cannot-tell' };
  const shortOfChange = up ? own[1] < full[0] : own[0] > full[1];
  const noChangeBeyondTolerance = up ? own[0] < step.tolerance : own[1] > -step.tolerance;
  return shortOfChange && noChangeBeyondTolerance ? { side: 'good', reason: 'rules-out-change' } : { side: 'inconclusive', reason: 'cannot-tell' };
}

/**
 * The status the A/B rounds should see for the followed row: the gate's,
 * except that an inconclusive step bisect has already placed (its interval
 * rules the change out) counts as decided, so no more rounds are spent on a
 * question already answered. Null `change` (the bad end itself): the gate's.
 */
export function roundsStatus(change: StepMeasure | null, step: StepMeasure): RowStatus {
  if (change === null || step.status !== 'inconclusive') return step.status;
  return classifyStep(change, step).side === 'good' ? 'unchanged' : step.status;
}

/** What the search knows: commit `good` is like the good end, commit `bad` like the bad end (indices along the path). */
export interface SearchBounds {
  good: number;
  bad: number;
}

/** The next commit to measure, or null when good and bad are neighbours (bad is the culprit). */
export function nextMidpoint(search: SearchBounds): number | null {
  if (search.bad - search.good <= 1) return null;
  return Math.floor((search.good + search.bad) / 2);
}

/** The bounds after commit `index` was classified `good` or `bad`. */
export function narrow(search: SearchBounds, index: number, side: 'good' | 'bad'): SearchBounds {
  if (index <= search.good || index >= search.bad) throw new Error(`narrow: ${index} is not between ${search.good} and ${search.bad}`);
  return side === 'good' ? { good: index, bad: search.bad } : { good: search.good, bad: index };
}

/** Measurements of one commit before an inconclusive answer stops the search: the first, and one with more rounds. */
export const MAX_ATTEMPTS = 2;

/** What to do after commit `index` was measured for the `attempt`-th time and classified `side`. */
export type BisectNext =
  | { kind: 'measure'; index: number; attempt: number; search: SearchBounds }
  | { kind: 'found'; index: number; search: SearchBounds }
  | { kind: 'stop'; index: number; side: 'inconclusive' | 'differs' | 'failed'; search: SearchBounds };

/** The first step of the search proper, once the good → bad step is known to be a change. */
export function firstStep(pathLength: number): BisectNext {
  return advance({ good: 0, bad: pathLength });
}

function advance(search: SearchBounds): BisectNext {
  const mid = nextMidpoint(search);
  return mid === null ? { kind: 'found', index: search.bad, search } : { kind: 'measure', index: mid, attempt: 1, search };
}

/**
 * The search's one rule: a side narrows the bounds; `inconclusive` earns the
 * same commit one more measurement (with more rounds), then stops the
 * search there; `differs` and `failed` stop it at once, since neither side
 * would be honest.
 */
export function afterStep(search: SearchBounds, index: number, attempt: number, side: StepSide): BisectNext {
  if (side === 'good' || side === 'bad') return advance(narrow(search, index, side));
  if (side === 'inconclusive' && attempt < MAX_ATTEMPTS) return { kind: 'measure', index, attempt: attempt + 1, search };
  return { kind: 'stop', index, side, search };
}

/** How many commits a search of a path of `n` commits measures at most, besides the bad end (when every step decides). */
export function maxSearchSteps(n: number): number {
  return n <= 1 ? 0 : Math.ceil(Math.log2(n));
}

// ---- the report ----

export const BISECT_SCHEMA = 'perf-gate/bisect@1';

/** A commit as the report names it. */
export interface BisectCommit {
  sha: string;
  subject: string;
  author: string;
}

/** One measurement of the search: a commit against the good end. */
export interface BisectStep {
  /** 1-based, in the order measured; step 1 is the bad end. */
  step: number;
  commit: BisectCommit;
  /** Position along the first-parent path (1 … commits; the bad end is `commits`). */
  index: number;
  /** 1 for the first measurement of this commit, 2 for the one with more rounds. */
  attempt: number;
  status: RowStatus;
  change: number | null;
  ci: [number, number] | null;
  ciLevel: number | null;
  p: number | null;
  /** For the bad end: `bad` when it is a change, else how the search ended before it began. */
  side: StepSide;
  reason: SideReason;
  /** Interleaved rounds the measurement took (the benchmark's suite; confirmation rounds excluded). */
  rounds: number;
}

export type BisectOutcome =
  /** The first commit of the path whose step matches the change; its parent is like good. */
  | { kind: 'culprit'; commit: BisectCommit }
  /** good → bad is not a change the gate can decide (unchanged, or still inconclusive with more rounds). */
  | { kind: 'no-step'; status: RowStatus }
  /** The search stopped at a commit it could not place; the steps are the evidence. */
  | { kind: 'inconclusive' | 'differs' | 'failed'; commit: BisectCommit };

export interface BisectReport {
  schema: typeof BISECT_SCHEMA;
  benchmark: string;
  metric: string;
  unit: string;
  direction: Direction;
  good: BisectCommit;
  bad: BisectCommit;
  /** Commits on the first-parent path good..bad. */
  commits: number;
  steps: BisectStep[];
  outcome: BisectOutcome;
}

/** The report's steps that narrowed the search (the bad end and every decided midpoint), for counting "steps to the culprit". */
export function commitsMeasured(report: Pick<BisectReport, 'steps'>): number {
  return new Set(report.steps.map((s) => s.commit.sha)).size;
}
