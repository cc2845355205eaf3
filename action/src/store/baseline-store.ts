import type { ResultSet } from '../model/index.js';

/**
 * What the run about to be gated is, so a store can choose its baseline. A
 * store that keeps one baseline (the folder of today) ignores it; a history
 * store picks the run of the commit's merge base on the same testbed, and
 * never mixes in another testbed's runs.
 */
export interface BaselineQuery {
  /** The commit being measured (GITHUB_SHA or HEAD); absent outside a git repository. */
  commit?: string;
  /** Id of the testbed the current results come from; absent when unknown. */
  testbed?: string;
  /** The id the same machine had under the previous id recipe: its runs in a history are this testbed's too. */
  formerTestbed?: string;
}

/** A baseline a store chose, and where it came from (named in messages). */
export interface ChosenBaseline {
  results: ResultSet;
  /** The files (or other location) read. */
  source: string;
  /**
   * Earlier runs on this testbed to learn the between-run drift from, oldest
   * first (a history store only; absent: the budgets' `drift:` applies).
   */
  driftRuns?: ResultSet[];
}

/** Which part of a run is recorded: a shard of a matrix job, or the whole run. */
export interface RecordedPart {
  /** This runner's 1-based share, or null for the whole run. */
  shard: { index: number; count: number } | null;
}

/**
 * Where baselines live. The pipeline never knows paths: it asks for the
 * baseline of a commit and testbed, and records main's runs. Every write is
 * atomic (a reader sees the old baseline or the whole new one).
 */
export interface BaselineStore {
  /** Where the store lives, for messages ("baselines/", a data branch …). */
  readonly location: string;
  /**
   * Fails early (InputError) when the store cannot take a run, so a long
   * measurement is not wasted on a baseline that cannot be written.
   */
  checkWritable(): Promise<void>;
  /** The baseline for the query, or undefined when the store holds none. */
  select(query: BaselineQuery): Promise<ChosenBaseline | undefined>;
  /** Stores a run as a future baseline; returns where it went. */
  record(results: ResultSet, part: RecordedPart): Promise<string>;
}

/**
 * Turns stored files (or a folder of them) into one ResultSet; several files
 * are the shards of one run. The pipeline passes the adapters' registry, so a
 * store never parses formats itself and store/ imports only model/.
 */
export type ResultSetReader = (paths: readonly string[]) => ResultSet;
