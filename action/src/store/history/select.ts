import { minOf } from '../../model/index.js';
import type { HistoryEntry } from './layout.js';

/**
 * Which stored commit a comparison uses as its baseline, decided from facts
 * (the first-parent chain from a start commit, the store's listing) without
 * I/O, so every rule is testable on plain data. baseline.ts gathers the facts.
 *
 * The rule: start at the merge base (pull request) or the previous release
 * tag (release); take the nearest commit on the start's first-parent chain,
 * at most `maxDistance` commits back, that has a run on this testbed; pool
 * all its runs. Another testbed's runs are never used. No such run: the
 * comparison runs on budgets only, and the choice says why.
 */

/** The default for how far back along the first-parent chain a baseline may be. */
export const DEFAULT_MAX_DISTANCE = 50;

/** One commit of the chain: index i in the chain is i commits from the start. */
export interface ChainCommit {
  commit: string;
  /** Committer date, ISO 8601. */
  date: string;
}

/** Where the search starts and why. */
export type BaselineStart =
  { kind: 'merge-base'; commit: string; base: string } | { kind: 'release-tag'; commit: string; tag: string } | { kind: 'commit'; commit: string };

/** Why there is no baseline: no start commit at all, or no run near it. */
export type NoBaselineReason = 'no-merge-base' | 'no-previous-tag' | 'no-run-within-distance';

export type BaselineChoice =
  | {
      found: true;
      start: BaselineStart;
      /** The commit whose runs are the baseline. */
      commit: string;
      /** Its committer date. */
      date: string;
      /** First-parent commits between the start and the chosen commit (0: the start itself). */
      distance: number;
      /** Its runs on this testbed, in creation order (several: re-runs, pooled). */
      runs: HistoryEntry[];
    }
  | {
      found: false;
      /** The comparison has no baseline and checks budgets only. */
      use: 'budgets-only';
      reason: NoBaselineReason;
      start?: BaselineStart;
      /** Commits of the chain that were looked at. */
      searched: number;
      maxDistance: number;
    };

export interface PickInput {
  testbed: string;
  /** The start, or why there is none. */
  start: BaselineStart | { missing: 'no-merge-base' | 'no-previous-tag' };
  /** The start's first-parent chain, the start first. */
  chain: readonly ChainCommit[];
  /** The store's listing (any testbeds; others are ignored here too). */
  entries: readonly HistoryEntry[];
  maxDistance: number;
}

export function pickBaseline(input: PickInput): BaselineChoice {
  const { maxDistance } = input;
  if ('missing' in input.start) return { found: false, use: 'budgets-only', reason: input.start.missing, searched: 0, maxDistance };
  const runsOf = new Map<string, HistoryEntry[]>();
  for (const e of input.entries) {
    if (e.testbed !== input.testbed) continue;
    const list = runsOf.get(e.commit);
    if (list === undefined) runsOf.set(e.commit, [e]);
    else list.push(e);
  }
  const chain = input.chain.slice(0, maxDistance + 1);
  for (const [distance, { commit, date }] of chain.entries()) {
    const runs = runsOf.get(commit);
    if (runs !== undefined) return { found: true, start: input.start, commit, date, distance, runs: [...runs].sort((a, b) => (a.runId < b.runId ? -1 : 1)) };
  }
  return { found: false, use: 'budgets-only', reason: 'no-run-within-distance', start: input.start, searched: chain.length, maxDistance };
}

/** The default for how many runs the between-run drift is learned from. */
export const DEFAULT_DRIFT_WINDOW = 20;

/**
 * The runs the between-run drift is learned from: the newest `window` runs on
 * this testbed of the chain from the chosen baseline commit back (its own
 * runs included), in creation order. Chain order decides which runs are the
 * newest, so a run of a side branch never enters.
 */
export function driftWindow(
  chain: readonly ChainCommit[],
  entries: readonly HistoryEntry[],
  testbed: string,
  fromCommit: string,
  window: number,
): HistoryEntry[] {
  if (window <= 0) return [];
  const at = chain.findIndex((c) => c.commit === fromCommit);
  if (at < 0) return [];
  const position = new Map(chain.slice(at).map((c, i) => [c.commit, i]));
  const mine = entries.filter((e) => e.testbed === testbed && position.has(e.commit));
  // Newest first: nearer commits first, and a commit's later re-runs first.
  mine.sort((a, b) => position.get(a.commit)! - position.get(b.commit)! || (a.runId < b.runId ? 1 : -1));
  return mine.slice(0, window).sort((a, b) => (a.runId < b.runId ? -1 : 1));
}

/** The earliest time a run of any chain commit can have been created (listing reads only months from there on). */
export function earliestRelevantTime(chain: readonly ChainCommit[], length: number): Date | undefined {
  const times = chain
    .slice(0, length)
    .map((c) => Date.parse(c.date))
    .filter((t) => !Number.isNaN(t));
  if (times.length === 0) return undefined;
  // A day of slack for a runner's clock running behind the committer's.
  return new Date(minOf(times) - 24 * 3600 * 1000);
}
