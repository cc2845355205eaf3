/**
 * report/ turns the gate's decided GateReport into text: Markdown (PR comment,
 * job summary), the JSON report, the terminal table, check-run annotations
 * and workflow commands, a standalone HTML page and the release report.
 * Each reporter is a pure function from (GateReport, options) to text; the
 * caller decides where the text goes. The gate's reasons and warnings arrive
 * as data; reason-text.ts and warning-text.ts are the one place each becomes
 * a sentence, so every format says the same thing.
 *
 * It imports only gate/ and model/. It must never decide or change a verdict
 * (rows arrive fully decided), do I/O, read the environment or talk to
 * GitHub. Untrusted text (benchmark and metric names, units, error messages,
 * log tails) is escaped by exactly one function per output format:
 * escapeMarkdown/codeBlock, escapeTerminal, escapeHtml, plainText + the
 * workflow-command escapers.
 */
export { renderMarkdown, markdownTable, GITHUB_COMMENT_LIMIT, type MarkdownOptions } from './markdown.js';
export { renderJobSummary, JOB_SUMMARY_LIMIT } from './summary.js';
export { renderJson, toJsonReport, type JsonReport, type JsonRow, type JsonWarning } from './json.js';
export { reasonText } from './reason-text.js';
export { warningText } from './warning-text.js';
export { renderTerminal, type TerminalOptions } from './terminal.js';
export { toAnnotations, workflowCommands, parseSource, type Annotation } from './annotations.js';
export { renderHtml, type HtmlOptions } from './html.js';
export { renderRelease, type ReleaseOptions } from './release.js';
export { escapeMarkdown, codeBlock } from './escape-markdown.js';
export { escapeTerminal } from './escape-terminal.js';
export { escapeHtml } from './escape-html.js';
