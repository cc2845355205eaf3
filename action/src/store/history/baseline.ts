import type { HistoryStore } from './history-store.js';
import type { HistoryEntry } from './layout.js';
import { firstParentChain, mergeBase, previousReleaseTag, resolveCommit } from './commit-graph.js';
import { poolRuns, type PooledRuns } from './pool.js';
import {
  DEFAULT_DRIFT_WINDOW,
  DEFAULT_MAX_DISTANCE,
  driftWindow,
  earliestRelevantTime,
  pickBaseline,
  type BaselineChoice,
  type BaselineStart,
  type ChainCommit,
  type PickInput,
} from './select.js';
import { InputError, type ResultSet } from '../../model/index.js';

/** Where to start looking for a baseline. */
export type BaselineFrom =
  /** A pull request: the merge base of `head` with `base` (e.g. "origin/main"). */
  | { mergeBaseWith: string }
  /** A release: the previous tag matching `tagPattern` (default "v*"). */
  | { previousTag: true; tagPattern?: string }
  /** An explicit commit (`--base REF`), no merge base. */
  | { commit: string };

export interface BaselineRequest {
  /** The project's repository (its commit graph is queried, nothing is written). */
  repo: string;
  /** The testbed of the current run: only its history is read. */
  testbed: string;
  /** The id this machine had under the previous id recipe: its runs are read as this testbed's. */
  formerTestbed?: string;
  /** The commit being measured; default "HEAD". */
  head?: string;
  from: BaselineFrom;
  /** How many first-parent commits back a baseline may be; default 50. */
  maxDistance?: number;
  /**
   * How many runs to learn the between-run drift from (the newest at and
   * before the baseline commit, looking at most this many commits further
   * back); default 20, 0 to learn nothing.
   */
  driftWindow?: number;
}

/** The choice, with the pooled runs when one was found, and the runs to learn the drift from (creation order). */
export type BaselineSelection =
  (Extract<BaselineChoice, { found: true }> & { pooled: PooledRuns; driftRuns: ResultSet[] }) | Extract<BaselineChoice, { found: false }>;

export const DEFAULT_TAG_PATTERN = 'v*';

/**
 * Chooses and reads the baseline of a comparison: git answers where to start
 * and the first-parent chain (commit-graph.ts), the store lists this
 * testbed's runs from the months that can matter, select.ts decides, and the
 * chosen commit's runs are read and pooled. Only the chosen runs are read.
 */
export async function selectBaseline(store: HistoryStore, request: BaselineRequest): Promise<BaselineSelection> {
  const maxDistance = request.maxDistance ?? DEFAULT_MAX_DISTANCE;
  const window = request.driftWindow ?? DEFAULT_DRIFT_WINDOW;
  if (!Number.isInteger(window) || window < 0)
    throw new InputError('baseline selection', `the drift window must be a whole number ≥ 0, found ${window}`, undefined, 'driftWindow');
  if (!Number.isInteger(maxDistance) || maxDistance < 0)
    throw new InputError('baseline selection', `the search distance must be a whole number ≥ 0, found ${maxDistance}`, undefined, 'maxDistance');
  const head = request.head ?? 'HEAD';
  const start = await startOf(request.repo, head, request.from);
  let chain: ChainCommit[] = [];
  let entries: PickInput['entries'] = [];
  if (!('missing' in start)) {
    // Past the search distance, as far back again as the drift window may need.
    chain = await firstParentChain(request.repo, start.commit, maxDistance + window);
    const since = earliestRelevantTime(chain, chain.length);
    entries = await store.list({ testbed: request.testbed, ...(since !== undefined ? { since } : {}) });
    if (request.formerTestbed !== undefined && request.formerTestbed !== request.testbed) {
      // The runs filed under the machine's former id are its own: read them as this testbed's (their files keep their paths).
      const former = await store.list({ testbed: request.formerTestbed, ...(since !== undefined ? { since } : {}) });
      entries = [...entries, ...former.map((e) => ({ ...e, testbed: request.testbed }))];
    }
  }
  const keyOf = (e: HistoryEntry): string => e.file + '\u0000' + e.runId;
  // A run that does not decode is left out and the choice made again without it:
  // the next run of the commit, or the nearest older commit that has one.
  for (;;) {
    const choice = pickBaseline({ testbed: request.testbed, start, chain, entries, maxDistance });
    if (!choice.found) return choice;
    const learnFrom = driftWindow(chain, entries, request.testbed, choice.commit, window);
    // One read for both: the chosen runs are usually in the window too.
    const wanted = [...new Map([...choice.runs, ...learnFrom].map((e) => [keyOf(e), e])).values()];
    const usable = await store.readUsable(wanted);
    const byKey = new Map(usable.entries.map((e, i) => [keyOf(e), usable.sets[i]!]));
    if (usable.entries.length < wanted.length) {
      entries = entries.filter((e) => byKey.has(keyOf(e)) || !wanted.some((w) => keyOf(w) === keyOf(e)));
    }
    if (!choice.runs.every((e) => byKey.has(keyOf(e)))) continue;
    const setOf = (e: HistoryEntry): ResultSet => byKey.get(keyOf(e))!;
    return { ...choice, pooled: poolRuns(choice.runs.map(setOf)), driftRuns: learnFrom.filter((e) => byKey.has(keyOf(e))).map(setOf) };
  }
}

async function startOf(repo: string, head: string, from: BaselineFrom): Promise<PickInput['start']> {
  if ('commit' in from) {
    const commit = await resolveCommit(repo, from.commit);
    if (commit === undefined) throw new InputError('--base', `${JSON.stringify(from.commit)} does not name a commit in ${repo}`);
    return { kind: 'commit', commit } satisfies BaselineStart;
  }
  if ('mergeBaseWith' in from) {
    const commit = await mergeBase(repo, head, from.mergeBaseWith);
    return commit !== undefined ? { kind: 'merge-base', commit, base: from.mergeBaseWith } : { missing: 'no-merge-base' };
  }
  const tag = await previousReleaseTag(repo, head, from.tagPattern ?? DEFAULT_TAG_PATTERN);
  return tag !== undefined ? { kind: 'release-tag', commit: tag.commit, tag: tag.tag } : { missing: 'no-previous-tag' };
}
