/**
 * Which change of a batch (a merge queue's group) made a row slower, as
 * data: pipeline/history/group-blame.ts finds it, report/batch-blame.ts
 * words it.
 */
import type { BisectCommit } from './bisect-steps.js';

/** One change of the batch: its commit on the path, and the pull request it brought (null: its subject names none). */
export interface BatchMember {
  commit: BisectCommit;
  pullRequest: number | null;
}

/** What made one regressed row slower. */
export interface RowBlame {
  benchmark: string;
  metric: string;
  /** The batch's change, as the run measured it. */
  change: number | null;
  /** The member whose commit the row got slower at; null when the search could not place it (`why`). */
  culprit: BatchMember | null;
  why: string | null;
}

export interface BatchBlame {
  members: BatchMember[];
  rows: RowBlame[];
}
