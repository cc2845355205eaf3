/**
 * The words of a main-branch alert (`mode: main`): the job summary's section
 * and the body of its GitHub issue — the benchmark, the step with its
 * interval, the commit range with a compare link, and how to find the commit
 * (perf-gate bisect, or git bisect run). Benchmark ids are untrusted text:
 * escaped everywhere, and never put in a shell line unquoted.
 */
import type { BisectReport } from '../gate/bisect-steps.js';
import type { ChangeRow } from '../gate/change-rows.js';
import { bisectMarkdown } from './bisect.js';
import type { MainAlert } from '../gate/main-alerts.js';
import { escapeMarkdown } from './escape-markdown.js';
import { compareUrl } from './compare-url.js';
import { formatChange, formatP, formatPercent, formatTolerance, formatValue, plural, scaleFor, shortCommit } from './format.js';

export interface AlertLinks {
  /** https://github.com/owner/name, or null when the repository is unknown (no links then). */
  repositoryUrl: string | null;
}

/** A single-quoted shell word: safe for any benchmark id. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function range(row: ChangeRow, links: AlertLinks): string {
  const text = `${shortCommit(row.previousCommit)}..${shortCommit(row.commit)}`;
  const url = compareUrl(links.repositoryUrl, row.previousCommit, row.commit);
  return url ? `[\`${text}\`](${url})` : `\`${text}\``;
}

/** "time of parse/small +8.1 % on vm" — the issue's title (plain text: GitHub renders no Markdown in titles). */
export function alertTitle(alert: MainAlert): string {
  const r = alert.row;
  return `perf-gate: ${r.benchmark} ${r.metric} ${formatPercent(r.change)} on ${r.testbed} (${shortCommit(r.previousCommit)}..${shortCommit(r.commit)})`;
}

/** The summary section of a main run: every alert in one table, or one line saying there is none. */
export function alertsSummary(alerts: readonly MainAlert[], window: number, links: AlertLinks): string {
  const head = '### Main got slower';
  if (alerts.length === 0) return `${head}\n\nNo new regression beyond the budgets' tolerance among the change points of the last ${plural(window, 'run')}.\n`;
  const lines = [
    head,
    '',
    `${plural(alerts.length, 'change point')} of the last ${plural(window, 'run')} on main ${alerts.length === 1 ? 'is a regression' : 'are regressions'} beyond the budgets' tolerance:`,
    '',
    '| Benchmark | Metric | Testbed | Commits | Before → after | Change (95 % CI) | Tolerance | p |',
    '| :-- | :-- | :-- | :-- | --: | --: | --: | --: |',
  ];
  for (const a of alerts) {
    const r = a.row;
    const scale = scaleFor(r.unit, [r.stats.meanBefore, r.stats.meanAfter]);
    lines.push(
      `| ${escapeMarkdown(r.benchmark)} | ${escapeMarkdown(r.metric)} | ${escapeMarkdown(r.testbed)} | ${range(r, links)} | ${formatValue(r.stats.meanBefore, scale)} → ${formatValue(r.stats.meanAfter, scale)} | ${formatChange(r.change, r.interval)} | ${formatTolerance(a.tolerance)} | ${formatP(r.pValue)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Where an earlier report placed the step, when it was elsewhere. */
export interface PreviousPlace {
  commit: string;
  change: number;
}

/** The issue's body (without its marker): what changed, where, how sure, and how to find the commit. */
export function alertIssueBody(alert: MainAlert, previous: PreviousPlace | null, links: AlertLinks): string {
  const r = alert.row;
  const scale = scaleFor(r.unit, [r.stats.meanBefore, r.stats.meanAfter]);
  const id = shellQuote(r.benchmark);
  const moved =
    previous && previous.commit !== r.commit
      ? `\n> The step moved since it was first reported: it was placed at \`${shortCommit(previous.commit)}\` (${formatPercent(previous.change)}); with ${plural(r.stats.nAfter, 'run')} after it, it now sits at \`${shortCommit(r.commit)}\`.\n`
      : '';
  return [
    `**${escapeMarkdown(r.benchmark)}** (${escapeMarkdown(r.metric)}, testbed ${escapeMarkdown(r.testbed)}) got ${formatPercent(r.change)} ${r.direction === 'higher' ? 'lower' : 'higher'} on main, beyond the budgets' tolerance of ${formatTolerance(alert.tolerance)}.`,
    moved,
    '| | |',
    '| :-- | :-- |',
    `| Step | ${formatChange(r.change, r.interval)} |`,
    `| Level | ${formatValue(r.stats.meanBefore, scale)} → ${formatValue(r.stats.meanAfter, scale)} (${r.stats.nBefore} runs before, ${r.stats.nAfter} after) |`,
    `| p-value | ${formatP(r.pValue)} |`,
    `| Commits | ${range(r, links)}: after \`${shortCommit(r.previousCommit)}\`, up to and including \`${shortCommit(r.commit)}\` |`,
    `| First run at the new level | ${escapeMarkdown(r.runId)} (${escapeMarkdown(r.created)}) |`,
    '',
    '#### Find the commit',
    '',
    'Each step measures the midpoint interleaved against the good end, and says inconclusive rather than guessing:',
    '',
    '```sh',
    `perf-gate bisect --good ${r.previousCommit} --bad ${r.commit} --benchmark ${id} --metric ${shellQuote(r.metric)}`,
    '```',
    '',
    'or with git alone (each step gates the commit against the good end in interleaved A/B rounds; exit 1 marks it bad):',
    '',
    '```sh',
    `git bisect start ${r.commit} ${r.previousCommit}`,
    `git bisect run perf-gate run --ab ${r.previousCommit}`,
    '```',
    '',
    'perf-gate updates this issue while later runs on main confirm the step, and closes it if a later step reverses it.',
    '',
  ].join('\n');
}

/** The comment that closes an issue whose step a later one reversed. */
export function reversalComment(reversal: ChangeRow, links: AlertLinks): string {
  return `A later step reversed this one: ${escapeMarkdown(reversal.benchmark)} (${escapeMarkdown(reversal.metric)}) changed ${formatChange(reversal.change, reversal.interval)} at ${range(reversal, links)} (${formatP(reversal.pValue)}). Closing.`;
}

/** The comment `alert-bisect` posts on a new alert issue: bisect's outcome and evidence, or why it could not run. */
export function bisectIssueComment(result: { report: BisectReport } | { error: string }): string {
  if ('error' in result) {
    return `perf-gate could not bisect this range: ${escapeMarkdown(result.error)}\n\nRun the \`perf-gate bisect\` line above on a checkout with the range's commits.\n`;
  }
  return `perf-gate bisected this range (each step measured interleaved against the good end):\n\n${bisectMarkdown(result.report)}`;
}

/** One alert measured again and not confirmed: the interleaved row's verdict, or why it could not be measured. */
export interface UnconfirmedAlert {
  alert: MainAlert;
  row: { status: string; change: number | null; ci: readonly [number, number] | null } | null;
  error: string | null;
}

/**
 * The job summary's section for alerts whose step interleaved rounds did not
 * confirm: no issue was opened for them. '' when there are none.
 */
export function unconfirmedAlertsMarkdown(unconfirmed: readonly UnconfirmedAlert[]): string {
  if (unconfirmed.length === 0) return '';
  const items = unconfirmed.map(({ alert, row, error }) => {
    const step = `**${escapeMarkdown(alert.row.benchmark)}** ${escapeMarkdown(alert.row.metric)} ${formatChange(alert.row.change, null)} at <code>${shortCommit(alert.row.commit)}</code>`;
    if (row)
      return `- ${step}: not confirmed: one run's outlier. Measured again interleaved between <code>${shortCommit(alert.row.previousCommit)}</code> and <code>${shortCommit(alert.row.commit)}</code>: ${escapeMarkdown(row.status)}, ${formatChange(row.change, row.ci)}.`;
    return `- ${step}: not confirmed: it could not be measured again (${escapeMarkdown(error ?? 'unknown')}); no issue is opened for an unconfirmed step.`;
  });
  return [`**Not confirmed** (${plural(unconfirmed.length, 'step')} measured again; no issue opened)`, '', ...items].join('\n');
}
