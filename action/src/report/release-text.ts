/**
 * The release report's own sections for the terminal (`perf-gate report
 * release` prints them under the comparison table, before the verdict): the
 * change points between the releases and the recommendations. Aligned plain
 * text; untrusted text through escapeTerminal.
 */
import type { ReleaseModel } from '../gate/release-model.js';
import { escapeTerminal } from './escape-terminal.js';
import { bisectCommands } from './release-commands.js';
import { bisectWhat, changeNumbers, changesIntro, changesTitle, commitsText, nearLimitCells, rangeText, remeasureWhy, singleCommit } from './release-parts.js';

function aligned(rows: readonly string[][], indent: string): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
  return rows.map(
    (r) =>
      indent +
      r
        .map((cell, i) => cell + ' '.repeat(widths[i]! - [...cell].length))
        .join('  ')
        .trimEnd(),
  );
}

function changesSection(model: ReleaseModel): string {
  const changes = model.changes ?? [];
  const head = [escapeTerminal(changesTitle(model)), `  ${escapeTerminal(changesIntro(model))}`];
  if (changes.length === 0) return head.join('\n');
  const rows = [
    ['benchmark', 'metric', 'commits', 'before → after', 'change (95% CI)', 'p', 'verdict'],
    ...changes.map((c) => {
      const commits = commitsText(c.commits);
      return [
        escapeTerminal(c.benchmark),
        escapeTerminal(c.metric),
        `${rangeText(c.previousCommit, c.commit)}${commits ? ` (${commits})` : ''}`,
        ...changeNumbers(c).map((t) => escapeTerminal(t)),
      ];
    }),
  ];
  return [...head, ...aligned(rows, '  ')].join('\n');
}

function recommendationsSection(model: ReleaseModel): string {
  const { bisect, remeasure, nearLimit } = model.recommendations;
  const lines = ['Recommendations'];
  if (bisect.length + remeasure.length + nearLimit.length === 0) return [...lines, '  nothing to bisect, re-measure or watch'].join('\n');
  for (const a of bisect) {
    lines.push(`  bisect ${escapeTerminal(a.benchmark)} ${escapeTerminal(a.metric)}: ${escapeTerminal(bisectWhat(a, model.changes !== null))}`);
    if (singleCommit(a)) {
      lines.push(`    one commit: read ${a.bad.slice(0, 12)}, it brought the step`);
      continue;
    }
    const commands = bisectCommands(a);
    lines.push(`    ${escapeTerminal(commands.perfGate)}`, `    or: ${escapeTerminal(commands.gitBisect)}`);
  }
  for (const a of remeasure) lines.push(`  re-measure ${escapeTerminal(a.benchmark)} ${escapeTerminal(a.metric)}: ${escapeTerminal(remeasureWhy(a))}`);
  for (const a of nearLimit) {
    const [budget, checked, left] = nearLimitCells(a);
    lines.push(
      `  budget close to its limit: ${escapeTerminal(a.benchmark)} ${escapeTerminal(a.metric)} ${escapeTerminal(budget)}, ${escapeTerminal(checked)}, ${left} left (${escapeTerminal(a.budget.source)})`,
    );
  }
  return lines.join('\n');
}

/** The sections renderTerminal prints before the verdict. */
export function releaseTerminalSections(model: ReleaseModel): string[] {
  return [...(model.changes !== null ? [changesSection(model)] : []), recommendationsSection(model)];
}
