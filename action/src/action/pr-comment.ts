/**
 * The gate's one comment on a pull request, with its ledger: the sticky
 * comment's marker carries the last run's acceptable rows and the
 * acceptances on record (pipeline/pr-ledger.ts), and the record of
 * acceptances is shown above the report. Reading it before the verdict is
 * final is the one API call a pull request run makes that early; when it
 * fails, no acceptance applies — the safe side — and a warning says so.
 */
import {
  acceptanceRecordMarkdown,
  commentMarkdown,
  decodeLedger,
  encodeLedger,
  ledgerOf,
  runStatusMarkdown,
  withRunStatus,
  type RunOutcome,
  type RunStatus,
  type PrLedger,
} from '../pipeline/index.js';
import { boundedAcceptances, type RecordedAcceptance } from '../model/index.js';
import type { GitHubApi, IssueComment, RepoRef } from '../github/client.js';
import { MAX_COMMENT_CHARS, MAX_LEDGER_CHARS, readStickyComment, stickyMarker, upsertStickyComment, type MarkerState } from '../github/sticky-comment.js';

/** The gate's comment on a pull request as the action reads it: the comment, its marker, and the ledger the marker carries. */
export interface GateComment {
  comment: IssueComment;
  state: MarkerState;
  /** Null when the marker has none (a comment from before ledgers, or one holding only a run status). */
  ledger: PrLedger | null;
}

/** The gate's comment on a pull request, or null when there is none yet. */
export async function readGateComment(github: GitHubApi, repo: RepoRef, pullRequest: number, settings: Settings): Promise<GateComment | null> {
  const sticky = await readStickyComment(github, repo, pullRequest, settings.gateName, settings.commentAuthor || undefined);
  return sticky ? { ...sticky, ledger: decodeLedger(sticky.state.ledger) } : null;
}

/** A fresh comment's marker: nothing measured yet, so nothing failed. */
const NOTHING_YET: MarkerState = { verdict: 'pass', digest: '0' };

/**
 * The run-status line on top of the gate's comment (requested, started); a
 * pull request without the comment gets one holding just that line, which
 * the run's report then replaces.
 */
export async function sayRunStatus(github: GitHubApi, repo: RepoRef, pullRequest: number, settings: Settings, status: RunStatus): Promise<void> {
  const line = runStatusMarkdown(status);
  const sticky = await readGateComment(github, repo, pullRequest, settings);
  if (sticky) await github.updateIssueComment(repo, sticky.comment.id, withRunStatus(sticky.comment.body, line));
  else await github.createIssueComment(repo, pullRequest, `${line}\n${stickyMarker(settings.gateName, NOTHING_YET)}`);
}
import { reportDigest } from './digest.js';
import { checkPolicyOf } from './check-policy.js';
import type { ActionDeps } from './deps.js';
import type { ActionLog } from './log.js';
import { repoRef, type Settings } from './settings.js';

/** The run's report before any acceptance (the ledger records it) and the ledger read from the comment. */

/** The ledger of the gate's comment on the pull request; null when there is none, or GitHub could not be asked. */
export async function readPrLedger(settings: Settings, pullRequest: number, deps: ActionDeps): Promise<PrLedger | null> {
  if (!deps.github || settings.comment === 'never') return null;
  try {
    const ledger = (await readGateComment(deps.github, repoRef(settings), pullRequest, settings))?.ledger ?? null;
    if (ledger && ledger.acceptances.length > 0)
      deps.log.info(
        `${ledger.acceptances.length} acceptance(s) on record in the pull request comment: ${ledger.acceptances.map((a) => `${a.benchmarks} by @${a.by}`).join(', ')}`,
      );
    return ledger;
  } catch (error) {
    deps.log.warning(`perf-gate: could not read the pull request comment for acceptances (${(error as Error).message}); none applies to this run`);
    return null;
  }
}

/**
 * mode main: the acceptances of the pull request this commit merged, for the
 * history to keep with the run. A lookup that fails records none, with a
 * warning: the run is stored all the same.
 */
export async function mergedAcceptances(settings: Settings, deps: ActionDeps): Promise<RecordedAcceptance[]> {
  if (!deps.github || settings.mode !== 'main' || settings.github.sha === '') return [];
  const repo = repoRef(settings);
  try {
    const merged = (await deps.github.pullRequestsOfCommit(repo, settings.github.sha)).filter((p) => p.merged);
    const kept: RecordedAcceptance[] = [];
    for (const pr of merged) {
      for (const a of (await readGateComment(deps.github, repo, pr.number, settings))?.ledger?.acceptances ?? []) {
        kept.push({
          pullRequest: pr.number,
          by: a.by,
          reason: a.reason,
          benchmarks: a.benchmarks,
          rows: a.rows.map((r) => ({ benchmark: r.benchmark, metric: r.metric, change: r.change })),
        });
      }
    }
    if (kept.length > 0) deps.log.info(`recording ${kept.length} acceptance(s) of ${merged.map((p) => `#${p.number}`).join(', ')} with this run`);
    return boundedAcceptances(kept);
  } catch (error) {
    deps.log.warning(`perf-gate: could not look up the merged pull request's acceptances (${(error as Error).message}); the run is recorded without them`);
    return [];
  }
}

/** Creates or updates the sticky comment: the record of acceptances, the report, and the marker with the new ledger. */
export async function postComment(
  github: GitHubApi,
  target: { repo: RepoRef; pullRequest: number; headSha: string },
  settings: Settings,
  outcome: Pick<RunOutcome, 'report' | 'unaccepted' | 'acceptances'>,
  status: RunStatus | null,
  log: ActionLog,
): Promise<void> {
  const { report, acceptances } = outcome;
  const state: MarkerState = {
    verdict: report.verdict,
    digest: reportDigest(report),
    // The ledger records the rows before the acceptances, so each acceptance can be checked and withdrawn later.
    ledger: encodeLedger(ledgerOf(outcome.unaccepted, target.headSha, acceptances, checkPolicyOf(settings)), MAX_LEDGER_CHARS),
  };
  const record = (status ? runStatusMarkdown(status) : '') + acceptanceRecordMarkdown(acceptances, null);
  try {
    const outcome = await upsertStickyComment(github, {
      repo: target.repo,
      pullRequest: target.pullRequest,
      gate: settings.gateName,
      mode: settings.comment,
      state,
      ...(settings.commentAuthor ? { author: settings.commentAuthor } : {}),
      render: (previous) =>
        record +
        commentMarkdown(report, {
          title: settings.gateName,
          marker: stickyMarker(settings.gateName, state),
          maxLength: MAX_COMMENT_CHARS - record.length,
          previouslyFailed: previous?.verdict === 'fail',
        }),
    });
    log.info(`comment ${outcome.action}${outcome.reason ? ` (${outcome.reason})` : ''}${outcome.url ? `: ${outcome.url}` : ''}`);
    log.setOutput('comment-url', outcome.url ?? '');
  } catch (error) {
    log.warning(
      `perf-gate: could not write the pull request comment (${(error as Error).message}); the verdict stands. A fork's read-only token cannot comment: use the two-stage mode.`,
    );
  }
}
