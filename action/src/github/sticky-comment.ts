/**
 * One sticky comment per pull request and per gate. The comment is found by a
 * hidden marker at the very END of its body (so text quoted from a benchmark
 * name inside the report can never be mistaken for it) and only among the
 * comments written by the token's own user (so nobody else's comment, quoting
 * ours, is ever edited). The marker also records the verdict and a digest of
 * the result, which makes "✅ resolved" and `comment: on-change` possible
 * without parsing the report back.
 */
import { GitHubError, type GitHubApi, type IssueComment, type RepoRef } from './client.js';

/** GitHub's limit for an issue comment body, in characters. */
export const MAX_COMMENT_CHARS = 65_536;

/** The most characters the encoded pull-request ledger may take of the comment (pipeline/pr-ledger.ts); the report needs the rest. */
export const MAX_LEDGER_CHARS = 24_000;

/** When to write the comment (the `comment` input). */
export type CommentMode = 'always' | 'on-change' | 'never';

/**
 * Gate names are restricted (settings enforce it) so the marker needs no
 * escaping and stays one well-formed HTML comment (no "--" inside).
 */
export const GATE_NAME = /^(?!.*--)[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface MarkerState {
  verdict: 'pass' | 'fail';
  /** A short digest of what the comment shows (statuses, budgets), to tell "changed" from "same". */
  digest: string;
  /**
   * The pull request's ledger (the last run's acceptable rows and the
   * acceptances on record), base64 of its JSON: standard base64 has no "-",
   * so the marker stays one well-formed HTML comment. Only this gate's own
   * comment carries it, and only the token's user can edit that comment, so
   * what it records is what perf-gate wrote.
   */
  ledger?: string;
}

/** The hidden marker placed at the end of the comment body. */
export function stickyMarker(gate: string, state: MarkerState): string {
  const ledger = state.ledger ? ` ledger=${state.ledger}` : '';
  return `<!-- perf-gate:sticky gate=${gate} verdict=${state.verdict} digest=${state.digest}${ledger} -->`;
}

const MARKER_AT_END = /<!-- perf-gate:sticky gate=([A-Za-z0-9._-]+) verdict=(pass|fail) digest=([0-9a-f]{1,64})(?: ledger=([A-Za-z0-9+/=]{1,60000}))? -->\s*$/;

/** Reads the marker at the end of a body, for this gate; null when there is none. */
export function readMarker(body: string, gate: string): MarkerState | null {
  const match = MARKER_AT_END.exec(body);
  if (!match || match[1] !== gate) return null;
  return { verdict: match[2] as 'pass' | 'fail', digest: match[3]!, ...(match[4] ? { ledger: match[4] } : {}) };
}

/** The body with its marker replaced (the ledger and verdict after an acceptance); the text above is kept. */
export function withMarker(body: string, gate: string, state: MarkerState): string {
  const match = MARKER_AT_END.exec(body);
  if (!match || match[1] !== gate) throw new Error(`the comment has no marker of gate ${gate}`);
  return `${body.slice(0, match.index)}${stickyMarker(gate, state)}`;
}

/**
 * The body cut to GitHub's limit, keeping its top (the record of acceptances
 * and the run status live there) and its marker: the report's tail goes, at a
 * line boundary, with a note. Used where a comment grows without the report
 * being rendered again (the command job adds to the record).
 */
export function fitToCommentLimit(body: string, gate: string): string {
  if (body.length <= MAX_COMMENT_CHARS) return body;
  const match = MARKER_AT_END.exec(body);
  if (!match || match[1] !== gate) throw new Error(`the comment has no marker of gate ${gate}`);
  const marker = body.slice(match.index);
  const note = "\n\n*The report was cut here to fit GitHub's comment limit; the job summary and the JSON report hold all of it.*\n\n";
  const room = MAX_COMMENT_CHARS - marker.length - note.length;
  const kept = body.slice(0, Math.min(room, match.index));
  const line = kept.lastIndexOf('\n');
  return `${line > 0 ? kept.slice(0, line) : kept}${note}${marker}`;
}

/**
 * The gate's own comment among all comments of the pull request: written by
 * `self` and ending with this gate's marker. The oldest wins, so the comment
 * stays where the conversation first saw it.
 */
export function findStickyComment(comments: readonly IssueComment[], gate: string, self: string): IssueComment | null {
  const selfLower = self.toLowerCase();
  for (const comment of comments) {
    if (comment.author?.toLowerCase() !== selfLower) continue;
    if (readMarker(comment.body, gate)) return comment;
  }
  return null;
}

export type CommentPlan = { action: 'create' } | { action: 'update'; commentId: number } | { action: 'skip'; reason: string };

/**
 * What to do, given the mode, the existing comment (if any) and the new state.
 * `on-change`: a passing first result creates nothing; an existing comment is
 * edited only when the verdict or what it shows changed.
 */
export function planComment(mode: CommentMode, existing: IssueComment | null, previous: MarkerState | null, state: MarkerState): CommentPlan {
  if (mode === 'never') return { action: 'skip', reason: 'comment: never' };
  if (mode === 'on-change') {
    if (!existing && state.verdict === 'pass') return { action: 'skip', reason: 'on-change: the gate passes and no earlier comment exists' };
    if (existing && previous && previous.verdict === state.verdict && previous.digest === state.digest) {
      return { action: 'skip', reason: 'on-change: the result is the same as the comment already shows' };
    }
  }
  return existing ? { action: 'update', commentId: existing.id } : { action: 'create' };
}

export interface StickyOutcome {
  action: 'created' | 'updated' | 'skipped';
  /** The comment's URL, when one exists. */
  url: string | null;
  reason?: string;
  /** True when the comment now says "✅ resolved". */
  resolved: boolean;
}

export interface StickyRequest {
  repo: RepoRef;
  pullRequest: number;
  gate: string;
  mode: CommentMode;
  state: MarkerState;
  /**
   * Renders the whole body, given the state of the comment it replaces (for
   * "✅ resolved"); it must end with stickyMarker(gate, state) and fit
   * MAX_COMMENT_CHARS (the Markdown reporter truncates to a given length).
   */
  render(previous: MarkerState | null): string;
  /** Login whose comments count as ours; looked up from the token when absent. */
  author?: string;
}

/** The login used when the token cannot call GET /user: the GITHUB_TOKEN's app bot. */
export const GITHUB_ACTIONS_BOT = 'github-actions[bot]';

/** The login whose comments are the gate's own: the configured author, else the token's user, else the GITHUB_TOKEN's bot. */
export async function selfLogin(api: GitHubApi, author?: string): Promise<string> {
  return author ?? (await api.authenticatedLogin()) ?? GITHUB_ACTIONS_BOT;
}

/** The gate's sticky comment on a pull request and its marker, or null when there is none yet. */
export async function readStickyComment(
  api: GitHubApi,
  repo: RepoRef,
  pullRequest: number,
  gate: string,
  author?: string,
): Promise<{ comment: IssueComment; state: MarkerState } | null> {
  const comment = findStickyComment(await api.listIssueComments(repo, pullRequest), gate, await selfLogin(api, author));
  const state = comment ? readMarker(comment.body, gate) : null;
  return comment && state ? { comment, state } : null;
}

/** Finds, then creates or updates, the gate's sticky comment. Errors propagate; the caller turns them into warnings. */
export async function upsertStickyComment(api: GitHubApi, request: StickyRequest): Promise<StickyOutcome> {
  if (request.mode === 'never') return { action: 'skipped', url: null, reason: 'comment: never', resolved: false };
  const self = await selfLogin(api, request.author);
  const comments = await api.listIssueComments(request.repo, request.pullRequest);
  const existing = findStickyComment(comments, request.gate, self);
  const previous = existing ? readMarker(existing.body, request.gate) : null;
  const plan = planComment(request.mode, existing, previous, request.state);
  if (plan.action === 'skip') return { action: 'skipped', url: existing?.url ?? null, reason: plan.reason, resolved: false };
  const body = request.render(previous);
  const marker = stickyMarker(request.gate, request.state);
  if (!body.trimEnd().endsWith(marker) || body.length > MAX_COMMENT_CHARS) {
    throw new Error(`sticky comment body must end with ${marker} and be at most ${MAX_COMMENT_CHARS} characters (got ${body.length})`);
  }
  const resolved = previous?.verdict === 'fail' && request.state.verdict === 'pass';
  if (plan.action === 'update') {
    try {
      const updated = await api.updateIssueComment(request.repo, plan.commentId, body);
      return { action: 'updated', url: updated.url, resolved };
    } catch (error) {
      // Deleted between the listing and the update (someone removed it): post it again, as a first run would.
      if (!(error instanceof GitHubError && error.status === 404)) throw error;
    }
  }
  const created = await api.createIssueComment(request.repo, request.pullRequest, body);
  return { action: 'created', url: created.url, resolved };
}
