import type { GateReport } from '../gate/types.js';
import { renderMarkdown, type MarkdownOptions } from './markdown.js';

/**
 * The job summary: the Markdown report under the step summary's limit of
 * 1 MiB (counted in bytes, unlike a comment), without the sticky-comment
 * marker. It is where the truncated PR comment points to for the full table.
 */
export const JOB_SUMMARY_LIMIT = 1024 * 1024;

export function renderJobSummary(report: GateReport, options: Pick<MarkdownOptions, 'title' | 'fullReportHint' | 'previouslyFailed'> = {}): string {
  return `${renderMarkdown(report, { ...options, maxLength: JOB_SUMMARY_LIMIT - 1, measure: 'utf8-bytes' })}\n`;
}
