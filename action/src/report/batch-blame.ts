/**
 * A merge group's blame in words, for the job summary and the check run:
 * the pull requests the group holds, and for each regressed row the one
 * that made it slower. Names, subjects and messages are escaped (entities:
 * never inside a code span, where they would show as written).
 */
import type { BatchBlame, BatchMember } from '../gate/batch-blame.js';
import { escapeMarkdown } from './escape-markdown.js';
import { formatChange, plural, shortCommit } from './format.js';

function memberName(m: BatchMember): string {
  return m.pullRequest !== null ? `#${m.pullRequest}` : `\`${shortCommit(m.commit.sha)}\` (${escapeMarkdown(m.commit.subject)})`;
}

/** The section: which pull requests the group holds, and which one each regressed row points at. */
export function batchBlameMarkdown(blame: BatchBlame, unsearched: number): string {
  const lines = [
    `### Merge group: which pull request made it slower`,
    '',
    `This group holds ${plural(blame.members.length, 'pull request')}: ${blame.members.map(memberName).join(', ')}.`,
    '',
  ];
  for (const row of blame.rows) {
    const what = `**${escapeMarkdown(row.benchmark)}** (${escapeMarkdown(row.metric)}, ${formatChange(row.change, null)})`;
    if (row.culprit === null) lines.push(`- ${what}: not placed (${escapeMarkdown(row.why ?? 'unknown')})`);
    else if (blame.members.length === 1) lines.push(`- ${what}: ${memberName(row.culprit)}, the group's only pull request`);
    else lines.push(`- ${what}: ${memberName(row.culprit)} (commit \`${shortCommit(row.culprit.commit.sha)}\`, bisected over the group's commits)`);
  }
  if (unsearched > 0) lines.push(`- ${plural(unsearched, 'more regressed row')} not searched`);
  return `${lines.join('\n')}\n`;
}
