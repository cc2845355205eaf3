/**
 * Phase 5 of a run on the main branch: remember. The run becomes a future
 * baseline in the store; the store decides where it goes and writes it
 * atomically.
 */
import type { ResultSet } from '../model/index.js';
import type { BaselineStore } from '../store/index.js';
import type { Shard } from '../runner/shard.js';

/** Records main's run (this shard's share) in the store; returns where it went. */
export function recordBaseline(store: BaselineStore, results: ResultSet, shard: Shard | null): Promise<string> {
  return store.record(results, { shard });
}
