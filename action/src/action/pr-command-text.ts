/**
 * The commands a pull request comment can give perf-gate, one per line that
 * starts with `/perf-gate`:
 *
 *     /perf-gate accept <benchmark glob> <reason>
 *     /perf-gate run
 *
 * The glob may be wrapped in backticks (so Markdown leaves `*` alone). What
 * GitHub does not show as text is not a command: lines inside fenced code
 * blocks (closed only by a fence of the same character, at least as long),
 * indented code blocks and HTML comments; nor are quoted lines (`>`):
 * quoting someone's command in a reply must not give it again.
 */

export type PrCommand =
  | { kind: 'accept'; benchmarks: string; reason: string }
  | { kind: 'run' }
  /** A `/perf-gate` line that is not a command: the reply says what is. */
  | { kind: 'unknown'; text: string; problem: string };

export const COMMAND_USAGE = '`/perf-gate accept <benchmark glob> <reason>` or `/perf-gate run`';

const PREFIX = /^\/perf-gate(?:\s+|$)/;

function parseLine(line: string): PrCommand {
  const rest = line.replace(PREFIX, '').trim();
  const [verb = '', ...words] = rest.split(/\s+/);
  if (verb === 'run') return words.length === 0 ? { kind: 'run' } : { kind: 'unknown', text: line, problem: '`run` takes nothing after it' };
  if (verb !== 'accept') return { kind: 'unknown', text: line, problem: verb === '' ? 'no command given' : `\`${verb}\` is not a command` };
  const match = /^accept\s+(`[^`\n]+`|\S+)\s*(.*)$/.exec(rest);
  if (!match) return { kind: 'unknown', text: line, problem: '`accept` needs a benchmark glob and a reason' };
  const benchmarks = match[1]!.replace(/^`|`$/g, '');
  const reason = match[2]!.trim();
  if (reason === '') return { kind: 'unknown', text: line, problem: 'an acceptance needs a reason after the glob, for the record' };
  return { kind: 'accept', benchmarks, reason };
}

/** An opening code fence (CommonMark 4.5): up to three spaces, then three or more backticks (no backtick after) or tildes. */
const FENCE_OPEN = /^ {0,3}(`{3,}(?!.*`)|~{3,})/;

/** The commands of a comment body, in order. */
export function parsePrCommands(body: string): PrCommand[] {
  const commands: PrCommand[] = [];
  // What GitHub does not show as text is no command: fenced and indented code, HTML comments (CommonMark's rules).
  let fence: { char: string; length: number } | null = null;
  let inComment = false;
  for (const raw of body.split(/\r?\n/)) {
    if (fence) {
      const close = new RegExp(`^ {0,3}${fence.char === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
      if (close.test(raw)) fence = null;
      continue;
    }
    if (inComment) {
      if (raw.includes('-->')) inComment = false;
      continue;
    }
    const open = FENCE_OPEN.exec(raw);
    if (open) {
      fence = { char: open[1]![0]!, length: open[1]!.length };
      continue;
    }
    const comment = raw.lastIndexOf('<!--');
    if (comment !== -1 && !raw.slice(comment + 4).includes('-->')) inComment = true;
    // Four spaces or a tab of indentation make an indented code block.
    if (/^(?: {4}| {0,3}\t)/.test(raw)) continue;
    const line = raw.trim();
    if (!PREFIX.test(line)) continue;
    commands.push(parseLine(line));
  }
  return commands;
}
