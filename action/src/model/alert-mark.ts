/**
 * What a main-branch alert's issue records of the step it reported, in its
 * hidden marker: pipeline/history/main-alerts.ts fills it, github/alert-issues.ts
 * writes and reads it to find the issue of a series again.
 */
export interface AlertMark {
  gate: string;
  /** The series (gate/main-alerts.ts seriesKey). */
  key: string;
  /** The first run at the new level, as last reported: its commit and time, and the step. */
  commit: string;
  created: string;
  change: number;
}
