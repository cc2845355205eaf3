import type { GateReport, VerdictRow } from '../gate/types.js';
import { assembleRelease, type ReleaseModel } from '../gate/release-model.js';
import { codeBlock, escapeMarkdown } from './escape-markdown.js';
import { fitBlocks, type Block } from './fit-blocks.js';
import { formatChecked, formatCount, formatLimit, formatStddev, rowScale } from './format.js';
import { MARKDOWN_HOOKS, markdownContext, markdownFailures, markdownLegend, markdownTable, markdownWarnings } from './markdown.js';
import {
  bisectWhat,
  CHANGE_COLUMNS,
  changeNumbers,
  changesIntro,
  changesTitle,
  commitsText,
  countsSentence,
  historySentence,
  nearLimitCells,
  rangeText,
  remeasureWhy,
  singleCommit,
} from './release-parts.js';
import { bisectCommands } from './release-commands.js';
import { compareUrl } from './compare-url.js';
import { orderRows, verdictText } from './table.js';

/**
 * The release report (`mode: release`, `perf-gate report release`): whether
 * the release may ship and why in one paragraph, every benchmark against the
 * previous release, which benchmarks became less stable (their spread, as
 * users read it: "stddev 3.1 ms → 29.7 ms"), every budget checked, the change
 * points the run history shows between the releases, and what to do next
 * (bisect, re-measure, watch a budget). Markdown, for the job summary and the
 * release artifact. It is a record, so nothing is folded; only for the job
 * summary's 1 MiB (`maxBytes`) are rows cut from the tables' ends, saying so.
 */
export interface ReleaseOptions {
  /** The release being gated ("v1.5.0"); escaped. Default: the model's candidate. */
  version?: string;
  /** Cut the tables so the text stays within this many UTF-8 bytes (the job summary's limit). */
  maxBytes?: number;
  /** Trusted Markdown naming where the full report is, said where rows were cut. */
  fullReportHint?: string;
}

const DEFAULT_FULL_REPORT_HINT = 'the release report file (`release-report.md`, and `release-report.json`)';

function tableHead(heading: string, columns: readonly string[], align: readonly string[]): string {
  return [heading, '', `| ${columns.join(' | ')} |`, `| ${align.join(' | ')} |`].join('\n');
}

function benchmarksBlock(rows: readonly VerdictRow[]): Block {
  if (rows.length === 0) return '### Benchmarks\n\nNo benchmarks were compared.';
  // One header for the table, then one line per row (cells never hold a line break: escapeMarkdown turns them into spaces).
  const [header1, header2, ...lines] = markdownTable(rows).split('\n');
  return { head: ['### Benchmarks', '', header1, header2].join('\n'), rows: lines };
}

function varianceBlock(rows: readonly VerdictRow[]): Block {
  const noisier = rows.filter((r) => r.flags.includes('noisier'));
  if (noisier.length === 0) return '### Variance changes\n\nNo benchmark became noisier than in the baseline.';
  const lines = noisier.map((r) => {
    const scale = { ...rowScale(r) };
    scale.symbol = escapeMarkdown(scale.symbol);
    const before = r.baseline?.stddev;
    const after = r.current?.stddev;
    const ratio =
      typeof before === 'number' && typeof after === 'number' && before > 0 && Number.isFinite(after / before) ? ` (×${(after / before).toFixed(1)})` : '';
    return `| ${escapeMarkdown(r.benchmark)} | ${escapeMarkdown(r.metric)} | ${formatStddev(r.baseline, scale)} | ${formatStddev(r.current, scale)}${ratio} | ${MARKDOWN_HOOKS.verdict(r)} |`;
  });
  return {
    head: tableHead('### Variance changes', ['Benchmark', 'Metric', 'Stddev baseline', 'Stddev current', 'Verdict'], [':--', ':--', '--:', '--:', ':--']),
    rows: lines,
  };
}

function budgetBlock(rows: readonly VerdictRow[]): Block {
  const withBudget = rows.filter((r) => r.budget !== null);
  if (withBudget.length === 0) return '### Budget validation\n\nNo budget applies to these benchmarks.';
  const mark = (result: 'pass' | 'fail' | null, severity: 'fail' | 'warn'): string =>
    result === null ? '—' : `${MARKDOWN_HOOKS.budgetMark(result, severity)} ${result}`;
  const lines = withBudget.map((r) => {
    const b = r.budget!;
    const scale = { ...rowScale(r) };
    scale.symbol = escapeMarkdown(scale.symbol);
    const severity = b.severity === 'warn' ? ' (warn)' : '';
    return `| ${escapeMarkdown(r.benchmark)} | ${escapeMarkdown(r.metric)} | ${formatLimit(b, scale)}${severity} | ${formatChecked(b, scale)} | ${mark(b.result, b.severity)} | ${mark(b.baselineResult, b.severity)} | ${escapeMarkdown(b.source)} |`;
  });
  return {
    head: tableHead(
      '### Budget validation',
      ['Benchmark', 'Metric', 'Budget', 'Checked', 'Release', 'Baseline', 'Source'],
      [':--', ':--', ':--', '--:', ':--', ':--', ':--'],
    ),
    rows: lines,
  };
}

/** A compare link for a range when the address is a plain https URL ending in hex...hex; the range as text otherwise. */
function rangeCell(good: string, bad: string, url: string | null): string {
  const text = rangeText(good, bad);
  return url !== null && /^https:\/\/[\w.-]+(?::\d+)?(?:\/[\w.-]+)+\/compare\/[0-9a-f]+\.\.\.[0-9a-f]+$/i.test(url) ? `[${text}](${url})` : text;
}

function changesBlock(model: ReleaseModel): Block {
  const title = `### ${escapeMarkdown(changesTitle(model))}`;
  const changes = model.changes ?? [];
  const intro = escapeMarkdown(changesIntro(model));
  if (changes.length === 0) return `${title}\n\n${intro}`;
  const lines = changes.map((c) => {
    const commits = commitsText(c.commits);
    const range = `${rangeCell(c.previousCommit, c.commit, compareUrl(model.repositoryUrl, c.previousCommit, c.commit))}${commits ? ` (${commits})` : ''}`;
    return `| ${[escapeMarkdown(c.benchmark), escapeMarkdown(c.metric), range, ...changeNumbers(c).map(escapeMarkdown)].join(' | ')} |`;
  });
  return { head: tableHead(`${title}\n\n${intro}`, CHANGE_COLUMNS, [':--', ':--', ':--', '--:', '--:', '--:', ':--']), rows: lines };
}

function recommendationBlocks(model: ReleaseModel): Block[] {
  const { bisect, remeasure, nearLimit } = model.recommendations;
  const blocks: Block[] = ['### Recommendations'];
  if (bisect.length + remeasure.length + nearLimit.length === 0) return [...blocks, 'Nothing to bisect, re-measure or watch.'];
  if (bisect.length > 0) {
    blocks.push({
      head: tableHead(
        "**Bisect** where a benchmark got slower: `perf-gate bisect` finds the commit; `git bisect run` with `perf-gate run --base GOOD` does too (it fails on any regression against GOOD's run). A range of one commit needs no bisecting: read that commit.",
        ['Benchmark', 'Metric', 'Step', 'Range'],
        [':--', ':--', ':--', ':--'],
      ),
      rows: bisect.map(
        (a) =>
          `| ${escapeMarkdown(a.benchmark)} | ${escapeMarkdown(a.metric)} | ${escapeMarkdown(bisectWhat(a, model.changes !== null))} | ${rangeCell(a.good, a.bad, compareUrl(model.repositoryUrl, a.good, a.bad))} |`,
      ),
    });
    const commands = bisect.filter((a) => !singleCommit(a)).flatMap((a) => Object.values(bisectCommands(a)));
    // The commands in one code block: ids are shell-quoted, and a fence shows them verbatim.
    if (commands.length > 0) {
      const [open, ...rest] = codeBlock(commands.join('\n'), 'sh').split('\n');
      blocks.push({ head: open!, rows: rest.slice(0, -1), tail: rest.at(-1)! });
    }
  }
  if (remeasure.length > 0) {
    blocks.push({
      head: tableHead(
        '**Re-measure** what the comparison could not decide or what got noisier (on a quiet runner, or interleaved: `perf-gate run --ab REF`, or the action input `ab`):',
        ['Benchmark', 'Metric', 'Why'],
        [':--', ':--', ':--'],
      ),
      rows: remeasure.map((a) => `| ${escapeMarkdown(a.benchmark)} | ${escapeMarkdown(a.metric)} | ${escapeMarkdown(remeasureWhy(a))} |`),
    });
  }
  if (nearLimit.length > 0) {
    blocks.push({
      head: tableHead(
        '**Budgets close to their limit** (less than 10 % of it left): the next few percent break them.',
        ['Benchmark', 'Metric', 'Budget', 'Checked', 'Left', 'Source'],
        [':--', ':--', ':--', '--:', '--:', ':--'],
      ),
      rows: nearLimit.map(
        (a) =>
          `| ${escapeMarkdown(a.benchmark)} | ${escapeMarkdown(a.metric)} | ${nearLimitCells(a).map(escapeMarkdown).join(' | ')} | ${escapeMarkdown(a.budget.source)} |`,
      ),
    });
  }
  return blocks;
}

/** The release report of a model (with the history's change points when it has them). */
export function renderReleaseModel(model: ReleaseModel, options: ReleaseOptions = {}): string {
  const report = model.report;
  const go = model.verdict === 'go';
  const name = options.version ?? model.candidate?.name;
  const version = name ? ` ${escapeMarkdown(name)}` : '';
  const rows = orderRows(report.rows);
  const what = escapeMarkdown(verdictText(report, go ? 'pass' : 'fail'));
  const advice = go
    ? 'Nothing blocks this release.'
    : 'Do not release: fix the regressions and failures below, or change the budgets in a reviewed pull request.';
  const why = [countsSentence(model), historySentence(model)]
    .filter((s) => s !== '')
    .map(escapeMarkdown)
    .join(' ');
  const blocks: Block[] = [
    `## ${go ? '✅' : '🚫'} release${version}: ${go ? 'go' : 'no-go'}\n\n**${what}.** ${advice} ${why}`,
    markdownContext(report),
    benchmarksBlock(rows),
    varianceBlock(rows),
    budgetBlock(rows),
    ...(model.changes !== null ? [changesBlock(model)] : []),
    ...recommendationBlocks(model),
    markdownFailures(rows),
    markdownWarnings(report),
    markdownLegend(rows),
  ].filter((b) => b !== '');
  const hint = options.fullReportHint ?? DEFAULT_FULL_REPORT_HINT;
  const text = fitBlocks(blocks, {
    // One byte for the final newline.
    maxBytes: (options.maxBytes ?? Number.POSITIVE_INFINITY) - 1,
    notice: `> **This summary is cut to stay under GitHub's 1 MiB limit**: some tables below leave out rows. The full report is in ${hint}.`,
    cutNote: (left) => `*… ${formatCount(left)} more row${left === 1 ? '' : 's'} left out here; the full report is in ${hint}.*`,
  });
  return `${text}\n`;
}

/** The release report of a gate report alone (no run history): the sections the comparison gives. */
export function renderRelease(report: GateReport, options: ReleaseOptions = {}): string {
  return renderReleaseModel(assembleRelease({ report }), options);
}
