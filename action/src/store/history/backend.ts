/**
 * What a history backend (a local folder, a git data branch) must offer: a
 * consistent read-only view, and one way to change files that is atomic to
 * readers. The store's operations (append, list, read, prune, compact) are
 * written once, in history-store.ts, on top of this.
 */

/** A consistent view of the store's files (for a git branch: one commit). */
export interface Snapshot {
  /** Store-relative paths under `<testbed>/` (every testbed when omitted); unrecognised names included. */
  paths(testbed?: string): Promise<string[]>;
  /** The bytes of each path; a path that is gone maps to undefined. */
  read(paths: readonly string[]): Promise<Map<string, Buffer | undefined>>;
}

/** Files to add and remove in one step; readers never see half of it on a git branch. */
export interface Change {
  add: { path: string; bytes: Buffer }[];
  remove: string[];
  /** One line saying what the change is (the data branch's commit message). */
  message: string;
}

/**
 * Builds the change from the current view; undefined when there is nothing
 * to do (e.g. the file is already there after an earlier attempt pushed it).
 * A backend may call it more than once (after a push race), each time with a
 * fresh view, so it must only read from the view it is given.
 */
export type Planner = (view: Snapshot) => Promise<Change | undefined>;

export interface Backend {
  /** Named in errors and reports: the folder, or "<remote> branch <name>". */
  readonly description: string;
  /** A view of the store as it is now (a git backend fetches first). */
  snapshot(): Promise<Snapshot>;
  /**
   * Plans and applies one change. `exclusive` changes (compaction, pruning)
   * rewrite other writers' files, so no two may run at once; appends only add
   * files of their own and run concurrently with anything.
   */
  apply(plan: Planner, options: { exclusive: boolean }): Promise<Change | undefined>;
}
