/**
 * What a notification webhook is told (github/webhook.ts sends it,
 * pipeline/notifications.ts writes it): new regressions on main, or a release
 * that must not ship, as plain lines and structured facts.
 */
export interface Notification {
  /** What happened: new regressions on main, or a release that must not ship. */
  event: 'main-alert' | 'release-no-go';
  /** One line, e.g. "perf-gate: 2 new regressions on main". */
  title: string;
  /** A line each, plain text (escaped here for Slack). */
  lines: string[];
  /** The workflow run, for "details". */
  runUrl: string | null;
  repository: string;
  ref: string;
  sha: string;
  gate: string;
  /** The structured facts (alerts, counts) for a program reading the json body. */
  data: Record<string, unknown>;
}
