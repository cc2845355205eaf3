/**
 * One GitHub issue per main-branch regression (`alert: issue`): created when
 * the step first appears, updated — never duplicated — while later runs
 * confirm it, closed with a comment when a later step reverses it. The issue
 * is recognised by a hidden marker in its body (the gate, the series and the
 * step as it was last reported), the way the sticky comment is; every alert
 * issue carries one label, so finding them is one listing.
 *
 * The plan is pure (the issues and the alerts in, the calls to make out); the
 * words come from the caller (report/main-alert.ts), so this module knows no
 * Markdown and decides no verdict.
 */
import type { AlertMark } from '../model/index.js';
import type { GitHubApi, IssueInfo, RepoRef } from './client.js';

export type { AlertMark } from '../model/index.js';

/** The label every alert issue carries. */
export const ALERT_LABEL = 'perf-gate-regression';

const MARKER = /<!-- perf-gate-alert ([A-Za-z0-9_-]+) -->/;

/** The hidden marker: the mark as base64url JSON, so no benchmark name can end the HTML comment. */
export function alertMarker(mark: AlertMark): string {
  return `<!-- perf-gate-alert ${Buffer.from(JSON.stringify(mark), 'utf8').toString('base64url')} -->`;
}

export function readAlertMarker(body: string): AlertMark | null {
  const found = MARKER.exec(body);
  if (!found) return null;
  try {
    const mark = JSON.parse(Buffer.from(found[1]!, 'base64url').toString('utf8')) as Partial<AlertMark>;
    if (
      typeof mark.gate !== 'string' ||
      typeof mark.key !== 'string' ||
      typeof mark.commit !== 'string' ||
      typeof mark.created !== 'string' ||
      typeof mark.change !== 'number'
    )
      return null;
    return mark as AlertMark;
  } catch {
    return null;
  }
}

/** An alert as the issue flow sees it: its mark and its words. */
export interface AlertIssueText {
  mark: AlertMark;
  title: string;
  /** The body without the marker; the marker is added here. */
  body: (previous: AlertMark | null) => string;
}

/** A reported series to check for a reversal: given an open issue's mark, the comment to close it with, or null. */
export type ReversalCheck = (mark: AlertMark) => string | null;

export type AlertIssueStep =
  | { kind: 'create'; alert: AlertIssueText }
  | { kind: 'update'; issue: IssueInfo; alert: AlertIssueText; previous: AlertMark }
  | { kind: 'close'; issue: IssueInfo; comment: string }
  | { kind: 'keep-closed'; issue: IssueInfo; alert: AlertIssueText };

/**
 * The calls that bring the issues in line with the alerts:
 * - an alert whose series has an open issue of this gate updates it (the step
 *   may have moved by a run or two as more runs arrived; the body says so);
 * - an alert whose series' issue was closed at the same step is left closed
 *   (someone decided about it);
 * - any other alert opens an issue;
 * - an open issue with no alert is closed when its step was reversed, and
 *   otherwise left alone (the step is outside the window, not gone).
 */
export function planAlertIssues(issues: readonly IssueInfo[], gate: string, alerts: readonly AlertIssueText[], reversal: ReversalCheck): AlertIssueStep[] {
  const marked = issues.flatMap((issue) => {
    const mark = readAlertMarker(issue.body);
    return mark && mark.gate === gate ? [{ issue, mark }] : [];
  });
  const steps: AlertIssueStep[] = [];
  const alerted = new Set<string>();
  for (const alert of alerts) {
    alerted.add(alert.mark.key);
    const open = marked.find((m) => m.mark.key === alert.mark.key && m.issue.state === 'open');
    if (open) {
      steps.push({ kind: 'update', issue: open.issue, alert, previous: open.mark });
      continue;
    }
    const closed = marked.find((m) => m.mark.key === alert.mark.key && m.issue.state === 'closed' && m.mark.commit === alert.mark.commit);
    steps.push(closed ? { kind: 'keep-closed', issue: closed.issue, alert } : { kind: 'create', alert });
  }
  for (const { issue, mark } of marked) {
    if (issue.state !== 'open' || alerted.has(mark.key)) continue;
    const comment = reversal(mark);
    if (comment !== null) steps.push({ kind: 'close', issue, comment });
  }
  return steps;
}

export interface AlertIssueOutcome {
  created: IssueInfo[];
  updated: IssueInfo[];
  closed: IssueInfo[];
  /** Alerts that would have opened an issue but were not confirmed when measured again. */
  notConfirmed: AlertMark[];
}

/** Lists the gate's alert issues, plans, and makes the calls. */
export async function syncAlertIssues(
  api: GitHubApi,
  repo: RepoRef,
  gate: string,
  alerts: readonly AlertIssueText[],
  reversal: ReversalCheck,
  confirmNew?: (alert: AlertIssueText) => Promise<boolean>,
): Promise<AlertIssueOutcome> {
  const issues = await api.listLabelledIssues(repo, ALERT_LABEL);
  const outcome: AlertIssueOutcome = { created: [], updated: [], closed: [], notConfirmed: [] };
  for (const step of planAlertIssues(issues, gate, alerts, reversal)) {
    switch (step.kind) {
      case 'create':
        // A new issue only for a step measured again and confirmed (when the caller confirms).
        if (confirmNew && !(await confirmNew(step.alert))) {
          outcome.notConfirmed.push(step.alert.mark);
          break;
        }
        outcome.created.push(await api.createIssue(repo, { title: step.alert.title, body: withMarker(step.alert, null), labels: [ALERT_LABEL] }));
        break;
      case 'update':
        outcome.updated.push(await api.updateIssue(repo, step.issue.number, { title: step.alert.title, body: withMarker(step.alert, step.previous) }));
        break;
      case 'close':
        await api.createIssueComment(repo, step.issue.number, step.comment);
        outcome.closed.push(await api.updateIssue(repo, step.issue.number, { state: 'closed' }));
        break;
      case 'keep-closed':
        break;
    }
  }
  return outcome;
}

function withMarker(alert: AlertIssueText, previous: AlertMark | null): string {
  return `${alertMarker(alert.mark)}\n${alert.body(previous)}`;
}
