/**
 * The commands a pull request comment can give perf-gate, one per line that
 * starts with `/perf-gate`:
 *
 *     /perf-gate accept <benchmark glob> <reason>
 *     /perf-gate run
 *
 * The glob may be wrapped in backticks (so Markdown leaves `*` alone). Lines
 * inside fenced code blocks and quoted lines (`>`) are not commands: quoting
 * someone's command in a reply must not give it again.
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

/** The commands of a comment body, in order. */
export function parsePrCommands(body: string): PrCommand[] {
  const commands: PrCommand[] = [];
  let fenced = false;
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || !PREFIX.test(line)) continue;
    commands.push(parseLine(line));
  }
  return commands;
}
