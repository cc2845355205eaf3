import type { GateReport, VerdictRow } from '../gate/types.js';
import { escapeMarkdown } from './escape-markdown.js';
import { formatChecked, formatLimit, formatStddev, rowScale } from './format.js';
import { MARKDOWN_HOOKS, markdownContext, markdownFailures, markdownLegend, markdownTable, markdownWarnings } from './markdown.js';
import { orderRows, verdictText } from './table.js';

/**
 * The release report (`mode: release`): whether the release may ship, every
 * benchmark against the release baseline, which benchmarks became less stable
 * (their spread, as users read it: "stddev 3.1 ms → 29.7 ms"), and every
 * budget checked. Markdown, for the job summary and the release artifact; it
 * is not folded or truncated, because it is read as a record.
 */
export interface ReleaseOptions {
  /** The release being gated ("v1.5.0"); escaped. */
  version?: string;
}

function varianceTable(rows: readonly VerdictRow[]): string {
  const noisier = rows.filter((r) => r.flags.includes('noisier'));
  if (noisier.length === 0) return 'No benchmark became noisier than in the baseline.';
  const lines = noisier.map((r) => {
    const scale = { ...rowScale(r) };
    scale.symbol = escapeMarkdown(scale.symbol);
    const before = r.baseline?.stddev;
    const after = r.current?.stddev;
    const ratio = typeof before === 'number' && typeof after === 'number' && before > 0 && Number.isFinite(after / before) ? ` (×${(after / before).toFixed(1)})` : '';
    return `| ${escapeMarkdown(r.benchmark)} | ${escapeMarkdown(r.metric)} | ${formatStddev(r.baseline, scale)} | ${formatStddev(r.current, scale)}${ratio} | ${MARKDOWN_HOOKS.verdict(r)} |`;
  });
  return ['| Benchmark | Metric | Stddev baseline | Stddev current | Verdict |', '| :-- | :-- | --: | --: | :-- |', ...lines].join('\n');
}

function budgetTable(rows: readonly VerdictRow[]): string {
  const withBudget = rows.filter((r) => r.budget !== null);
  if (withBudget.length === 0) return 'No budget applies to these benchmarks.';
  const mark = (result: 'pass' | 'fail' | null, severity: 'fail' | 'warn'): string =>
    result === null ? '—' : `${MARKDOWN_HOOKS.budgetMark(result, severity)} ${result}`;
  const lines = withBudget.map((r) => {
    const b = r.budget!;
    const scale = { ...rowScale(r) };
    scale.symbol = escapeMarkdown(scale.symbol);
    const severity = b.severity === 'warn' ? ' (warn)' : '';
    return `| ${escapeMarkdown(r.benchmark)} | ${escapeMarkdown(r.metric)} | ${formatLimit(b, scale)}${severity} | ${formatChecked(b, scale)} | ${mark(b.result, b.severity)} | ${mark(b.baselineResult, b.severity)} | ${escapeMarkdown(b.source)} |`;
  });
  return [
    '| Benchmark | Metric | Budget | Checked | Release | Baseline | Source |',
    '| :-- | :-- | :-- | --: | :-- | :-- | :-- |',
    ...lines,
  ].join('\n');
}

export function renderRelease(report: GateReport, options: ReleaseOptions = {}): string {
  const go = report.verdict === 'pass';
  const version = options.version ? ` ${escapeMarkdown(options.version)}` : '';
  const rows = orderRows(report.rows);
  const what = escapeMarkdown(verdictText(report, go ? 'pass' : 'fail'));
  const advice = go
    ? 'Nothing blocks this release.'
    : 'Do not release: fix the regressions and failures below, or change the budgets in a reviewed pull request.';
  const blocks = [
    `## ${go ? '✅' : '🚫'} release${version}: ${go ? 'go' : 'no-go'}`,
    `**${what}.** ${advice}`,
    markdownContext(report),
    '### Benchmarks',
    rows.length > 0 ? markdownTable(rows) : 'No benchmarks were compared.',
    '### Variance changes',
    varianceTable(rows),
    '### Budget validation',
    budgetTable(rows),
    markdownFailures(rows),
    markdownWarnings(report),
    markdownLegend(rows),
  ];
  return `${blocks.filter((b) => b !== '').join('\n\n')}\n`;
}
