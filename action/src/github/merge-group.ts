/**
 * A merge queue's group, from the `merge_group` event: GitHub built a
 * temporary branch (`gh-readonly-queue/<base>/pr-<N>-<sha>`) holding the
 * base branch plus each queued pull request, one commit per pull request,
 * and waits for the required checks on its head commit. The pull request
 * each commit brought is read from its subject, as GitHub writes it for the
 * queue's merge methods ("Merge pull request #12 from …", squash: "Title
 * (#12)"). Pure: the payload is the runner's own file.
 */

import { payloadObject } from './fork.js';

/** The group the queue asks checks for. */
export interface MergeGroupFacts {
  /** The group's head commit: the one the queue waits on. */
  headSha: string;
  headRef: string;
  /** The base branch's commit the group is built on. */
  baseSha: string;
  baseRef: string;
  /** The last pull request of the group, from the head ref's name; null when the ref does not say. */
  lastPullRequest: number | null;
}

/** The group of a `merge_group` event payload; null for any other payload. */
export function mergeGroupFromEvent(payload: unknown): MergeGroupFacts | null {
  const group = payloadObject(payloadObject(payload)?.['merge_group']);
  if (!group) return null;
  const { head_sha: headSha, head_ref: headRef, base_sha: baseSha, base_ref: baseRef } = group;
  if (typeof headSha !== 'string' || typeof baseSha !== 'string' || typeof headRef !== 'string' || typeof baseRef !== 'string') return null;
  const last = /\/pr-(\d+)-[0-9a-f]+$/.exec(headRef);
  return { headSha, headRef, baseSha, baseRef, lastPullRequest: last ? Number(last[1]) : null };
}

/** The pull request a queue commit brought, from its subject; null when the subject names none. */
export function pullRequestOfSubject(subject: string): number | null {
  const merged = /^Merge pull request #(\d+)\b/.exec(subject) ?? /\(#(\d+)\)\s*$/.exec(subject);
  return merged ? Number(merged[1]) : null;
}
