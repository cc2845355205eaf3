/**
 * The action's conversation with GitHub's issues for main-branch alerts
 * (`alert: issue`): the issues pipeline/history/main-alerts.ts worded, filed one per
 * series (github/alert-issues.ts creates, updates or closes them), and each
 * bisect's outcome commented on its issue. It files what it is given and
 * decides nothing.
 */
import { readAlertMarker, syncAlertIssues, type AlertIssueOutcome } from '../github/alert-issues.js';
import type { GitHubApi, RepoRef } from '../github/client.js';
import { alertIssueWords, bisectComment, type AlertBisect, type AlertLinks, type MainAlert, type MainAlerts } from '../pipeline/history/main-alerts.js';

export type { AlertIssueOutcome };

/**
 * One issue per alert, updated while confirmed, closed when reversed. With
 * `confirm`, an alert that would open a new issue is first measured again
 * (pipeline's confirmAlertStep); one that is not confirmed opens none. An
 * open issue was confirmed when it was opened, so updating it measures nothing.
 */
export function fileAlertIssues(
  api: GitHubApi,
  repo: RepoRef,
  gate: string,
  found: MainAlerts,
  links: AlertLinks,
  confirm?: (alert: MainAlert) => Promise<boolean>,
): Promise<AlertIssueOutcome> {
  const words = alertIssueWords(gate, found, links);
  return syncAlertIssues(api, repo, gate, words.issues, words.reversal, confirm ? (text) => confirm(words.alertOf(text.mark.key)!) : undefined);
}

/** The issues a run opened, as the bisect of their alerts needs them: each number with the series its marker names. */
export function openedAlerts(created: AlertIssueOutcome['created']): { issue: number; key: string | undefined }[] {
  return created.map((issue) => ({ issue: issue.number, key: readAlertMarker(issue.body)?.key }));
}

/** Posts each bisect's outcome and evidence on its alert's issue. */
export async function commentBisects(api: GitHubApi, repo: RepoRef, bisects: readonly AlertBisect[]): Promise<void> {
  for (const b of bisects) await api.createIssueComment(repo, b.issue, bisectComment(b));
}
