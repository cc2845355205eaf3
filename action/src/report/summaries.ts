/**
 * The report as each GitHub surface and the release terminal take it: the
 * job summary, the pull request comment, the check run's summary and title,
 * the release report on a terminal. Thin shapes over the renderers, with
 * the limits each surface has.
 */
import type { GateReport } from '../gate/types.js';
import type { ReleaseModel } from '../gate/release-model.js';
import { renderJobSummary } from './summary.js';
import { renderMarkdown } from './markdown.js';
import { renderTerminal } from './terminal.js';
import { releaseTerminalSections } from './release-text.js';
import { outcomeOf, verdictText } from './table.js';

/** Said wherever a report is cut short: where the whole one is. */
export const FULL_REPORT_HINT = "The job summary and the run's `perf-gate` artifact have the full report.";

/** The job summary's Markdown. */
export function jobSummary(report: GateReport, title: string): string {
  return renderJobSummary(report, { title, fullReportHint: FULL_REPORT_HINT });
}

/** The pull request comment's body, cut to `maxLength` with a pointer to the full report. */
export function commentMarkdown(report: GateReport, options: { title: string; marker: string; maxLength: number; previouslyFailed: boolean }): string {
  return renderMarkdown(report, { ...options, fullReportHint: FULL_REPORT_HINT });
}

/** The check run's summary (its limit is 65,535 characters). */
export function checkRunSummary(report: GateReport, title: string): string {
  return renderMarkdown(report, { title, maxLength: 65_535, fullReportHint: FULL_REPORT_HINT });
}

/** One line for the check run's title: "Fail: 2 regressions, 3 unchanged", with the reports' own wording. */
export function checkRunTitle(report: GateReport): string {
  return `${report.verdict === 'pass' ? 'Pass' : 'Fail'}: ${verdictText(report, outcomeOf(report))}`;
}

/** The release report on the terminal: the comparison table, the change points and recommendations, the verdict last. */
export function releaseTerminalText(model: ReleaseModel, color: boolean): string {
  return renderTerminal(model.report, { color, sections: releaseTerminalSections(model) });
}
