import type { HistoryStore } from './history-store.js';
import { firstParentChain, mergeBase, previousReleaseTag, resolveCommit } from './commit-graph.js';
import { poolRuns, type PooledRuns } from './pool.js';
import { DEFAULT_MAX_DISTANCE, earliestRelevantTime, pickBaseline, type BaselineChoice, type BaselineStart, type ChainCommit, type PickInput } from './select.js';
import { InputError } from '../../model/index.js';

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
  /** The commit being measured; default "HEAD". */
  head?: string;
  from: BaselineFrom;
  /** How many first-parent commits back a baseline may be; default 50. */
  maxDistance?: number;
}

/** The choice, with the pooled runs when one was found. */
export type BaselineSelection = (Extract<BaselineChoice, { found: true }> & { pooled: PooledRuns }) | Extract<BaselineChoice, { found: false }>;

export const DEFAULT_TAG_PATTERN = 'v*';

/**
 * Chooses and reads the baseline of a comparison: git answers where to start
 * and the first-parent chain (commit-graph.ts), the store lists this
 * testbed's runs from the months that can matter, select.ts decides, and the
 * chosen commit's runs are read and pooled. Only the chosen runs are read.
 */
export async function selectBaseline(store: HistoryStore, request: BaselineRequest): Promise<BaselineSelection> {
  const maxDistance = request.maxDistance ?? DEFAULT_MAX_DISTANCE;
  if (!Number.isInteger(maxDistance) || maxDistance < 0) throw new InputError('baseline selection', `the search distance must be a whole number ≥ 0, found ${maxDistance}`, undefined, 'maxDistance');
  const head = request.head ?? 'HEAD';
  const start = await startOf(request.repo, head, request.from);
  let chain: ChainCommit[] = [];
  let entries: PickInput['entries'] = [];
  if (!('missing' in start)) {
    chain = await firstParentChain(request.repo, start.commit, maxDistance);
    const since = earliestRelevantTime(chain, maxDistance);
    entries = await store.list({ testbed: request.testbed, ...(since !== undefined ? { since } : {}) });
  }
  const choice = pickBaseline({ testbed: request.testbed, start, chain, entries, maxDistance });
  if (!choice.found) return choice;
  return { ...choice, pooled: poolRuns(await store.readMany(choice.runs)) };
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
