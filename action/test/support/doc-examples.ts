import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Examples in the documentation that a test runs exactly as written.
 *
 * A page marks a fenced block with an HTML comment on the line before it
 * (invisible on GitHub):
 *
 *   <!-- tested: NAME -->   the block is a script: run it, as written, with sh -e
 *   <!-- output: NAME -->   the block is what script NAME prints on stdout; it may
 *                           start with "$ command" lines (the command shown must be
 *                           one of the script's commands), the rest is output
 *
 * One script may have several output blocks (the README shows the same run at
 * its top and in its section).
 */
export interface TaggedBlock {
  kind: 'tested' | 'output';
  name: string;
  /** 1-based line of the block's first content line. */
  line: number;
  body: string;
}

export function taggedBlocks(markdown: string): TaggedBlock[] {
  const lines = markdown.split('\n');
  const blocks: TaggedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const tag = /^<!--\s*(tested|output):\s*([\w.-]+)\s*-->\s*$/.exec(lines[i]!);
    if (!tag) continue;
    const open = i + 1;
    if (!/^```/.test(lines[open] ?? '')) throw new Error(`line ${i + 1}: <!-- ${tag[1]}: ${tag[2]} --> must be followed directly by a fenced block`);
    const close = lines.findIndex((l, j) => j > open && /^```\s*$/.test(l));
    if (close < 0) throw new Error(`line ${open + 1}: the fenced block is never closed`);
    blocks.push({ kind: tag[1] as 'tested' | 'output', name: tag[2]!, line: open + 2, body: lines.slice(open + 1, close).join('\n') });
    i = close;
  }
  return blocks;
}

/** The script's commands, continuation lines joined and comments dropped (heredoc bodies are not commands). */
export function commandsOf(script: string): string[] {
  const commands: string[] = [];
  let heredoc: string | null = null;
  let pending = '';
  for (const line of script.split('\n')) {
    if (heredoc !== null) {
      if (line.trim() === heredoc) heredoc = null;
      continue;
    }
    const text = pending + line.replace(/^\s+/, pending ? ' ' : '');
    if (/\\$/.test(text)) {
      pending = text.slice(0, -1).replace(/\s+$/, '');
      continue;
    }
    pending = '';
    const command = text.replace(/(^|\s)#.*$/, '').trim();
    if (command) commands.push(command);
    const marker = /<<-?\s*'?"?(\w+)'?"?/.exec(command);
    if (marker) heredoc = marker[1]!;
  }
  return commands;
}

/** An output block split into the commands it shows ("$ …" lines) and the output itself. */
export function splitShownOutput(body: string): { commands: string[]; output: string } {
  const lines = body.split('\n');
  const commands: string[] = [];
  let i = 0;
  while (i < lines.length && lines[i]!.startsWith('$ ')) {
    let command = lines[i]!.slice(2);
    while (/\\$/.test(command) && i + 1 < lines.length) command = `${command.slice(0, -1).trimEnd()} ${lines[++i]!.trim()}`;
    commands.push(command.trim());
    i++;
  }
  return { commands, output: lines.slice(i).join('\n') };
}

const INSTALLED_BY: Record<string, string> = {
  hyperfine: '.ci/run (apt-get install hyperfine)',
  cc: '.ci/run (apt-get install gcc)',
};

/**
 * Runs a documented script exactly as written, with `sh -e`, in `dir`, with the
 * repository's `perf-gate` (the bundled action/dist/cli.js, what `npm link`
 * installs) first on PATH and the repository's examples/ reachable as
 * `examples/` (a symlink), since the pages say "from the repository's root".
 * A tool the script needs that is missing fails with the command that installs it.
 */
export function runDocumentedScript(script: string, dir: string, root: string, timeoutMs = 180_000): { status: number | null; stdout: string; stderr: string } {
  const bin = join(dir, '.bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'perf-gate'), `#!/bin/sh\nexec node '${join(root, 'action', 'dist', 'cli.js')}' "$@"\n`);
  chmodSync(join(bin, 'perf-gate'), 0o755);
  symlinkSync(join(root, 'examples'), join(dir, 'examples'));
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, NO_COLOR: '1' };
  // The program each command runs: its first word after any NAME=value assignments.
  for (const tool of new Set(commandsOf(script).map((c) => c.split(/\s+/).find((w) => !/^[A-Za-z_]\w*=/.test(w)) ?? ''))) {
    const found = spawnSync('sh', ['-c', `command -v '${tool}'`], { env, encoding: 'utf8' });
    if (found.status !== 0)
      throw new Error(`the documented example needs ${tool}, which is not installed; CI installs it with ${INSTALLED_BY[tool] ?? '.ci/run'}`);
  }
  const r = spawnSync('sh', ['-e', '-c', script], { cwd: dir, env, encoding: 'utf8', timeout: timeoutMs });
  if (r.error) throw new Error(`the documented example could not run: ${r.error.message}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Compares the terminal report perf-gate printed with the one a page shows.
 * Timing numbers differ from run to run and machine to machine, so what is
 * compared is the decision and the shape, not the digits:
 *
 * - the table's header, exactly;
 * - the same rows in the same order, each with the same Benchmark, Metric and
 *   Budget cell (the limit and pass/FAIL/warn, exactly) and the same status
 *   (the Verdict cell's first word; the notes in parentheses after it follow
 *   the noise — `noisier`, samples needed — and are not compared);
 * - Baseline, Current and Δ only in form: a value with a unit and ± spread,
 *   a signed percentage with its interval, or — on both sides;
 * - every section under the table (Warnings, Failed benchmarks) exactly,
 *   except the Flags legend, which lists the notes' flags, and the Two
 *   stages lines, whose numbers and commit are this run's;
 * - the verdict line (the last line), exactly;
 * - perf-gate's own "perf-gate: …" lines only by kind (see infoKinds);
 *   `perf-gate run`'s progress lines not at all.
 *
 * Returns the differences, empty when the output matches.
 */
export function terminalOutputDifferences(shown: string, printed: string): string[] {
  const a = parseTerminal(withoutInfoLines(shown));
  const b = parseTerminal(withoutInfoLines(printed));
  const diffs: string[] = [];
  if (infoKinds(shown).join('|') !== infoKinds(printed).join('|'))
    diffs.push(`"perf-gate:" lines: shown ${infoKinds(shown).join(', ')}, printed ${infoKinds(printed).join(', ')}`);
  if (a.header.join('|') !== b.header.join('|')) diffs.push(`header: shown "${a.header.join('  ')}", printed "${b.header.join('  ')}"`);
  if (a.rows.length !== b.rows.length) diffs.push(`rows: shown ${a.rows.length}, printed ${b.rows.length}`);
  a.rows.forEach((row, i) => {
    const other = b.rows[i];
    if (!other) return;
    const name = row[0];
    for (const [col, label] of [
      [0, 'Benchmark'],
      [1, 'Metric'],
      [5, 'Budget'],
    ] as const) {
      if (row[col] !== other[col]) diffs.push(`row ${i + 1} ${label}: shown "${row[col]}", printed "${other[col]}"`);
    }
    if (statusOf(row[6]) !== statusOf(other[6])) diffs.push(`${name}: status shown "${statusOf(row[6])}", printed "${statusOf(other[6])}"`);
    for (const [col, label] of [
      [2, 'Baseline'],
      [3, 'Current'],
      [4, 'Δ'],
    ] as const) {
      if (shapeOf(row[col]) !== shapeOf(other[col])) diffs.push(`${name} ${label}: shown "${row[col]}", printed "${other[col]}" (a different form)`);
    }
  });
  if (a.sections.join('\n\n') !== b.sections.join('\n\n'))
    diffs.push(`sections under the table: shown\n${a.sections.join('\n\n')}\nprinted\n${b.sections.join('\n\n')}`);
  if (a.verdict !== b.verdict) diffs.push(`verdict: shown "${a.verdict}", printed "${b.verdict}"`);
  return diffs;
}

interface TerminalReport {
  header: string[];
  rows: string[][];
  sections: string[];
  verdict: string;
}

/**
 * perf-gate's own lines before the table ("perf-gate: recorded 1a2b… as run …",
 * "perf-gate: baseline: the run of …") name commits, run ids and temporary
 * folders that differ on every run: only their kind (the first word after
 * "perf-gate:") is compared, in order.
 */
function infoKinds(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('perf-gate: '))
    .map((l) => l.split(' ')[1]!);
}

/** `perf-gate run`'s progress lines ("=== suite demo (1 of 1, …) ===", "build: ok (1.6 s)"): their timings change on every run. */
const PROGRESS_LINE = /^(=== .* ===|(\[\w+\] )?(build|run|counts)\S*: .*\(\d+(\.\d+)? s\))$/;

function withoutInfoLines(text: string): string {
  return text
    .split('\n')
    .filter((l) => !l.startsWith('perf-gate: ') && !PROGRESS_LINE.test(l))
    .join('\n')
    .replace(/^\s*\n/, '');
}

function parseTerminal(text: string): TerminalReport {
  const blocks = text.replace(/\s+$/, '').split(/\n\s*\n/);
  const verdict = blocks.pop() ?? '';
  const table = blocks[0]?.startsWith('Benchmark') ? blocks.shift()!.split('\n') : [];
  const cells = (l: string): string[] => l.trim().split(/\s{2,}/);
  return {
    header: table.length > 0 ? cells(table[0]!) : [],
    rows: table.slice(1).map(cells),
    // The flag legend and the reasons of inconclusive rows carry this run's numbers (p-values, intervals); the rows' statuses already say whether they match.
    // The two stages' lines carry this run's rounds, seconds and commit: compared with those as placeholders.
    sections: blocks
      .filter((b) => !b.startsWith('Flags') && !b.startsWith('Why inconclusive'))
      .map((b) => b.replace(/\s+$/gm, ''))
      .map((b) => (b.startsWith('Two stages') ? b.replace(/\b[0-9a-f]{7,40}\b/g, '<commit>').replace(/\d+(\.\d+)?/g, '#') : b)),
    verdict: verdict.trim(),
  };
}

function statusOf(cell: string | undefined): string {
  return (cell ?? '').split(' (')[0]!.trim();
}

/** The form of a numeric cell: digits become #, so "6.93 ms ± 1.20" and "12.1 ms ± 0.4" compare equal, "—" does not. */
function shapeOf(cell: string | undefined): string {
  return (cell ?? '').replace(/[+-]?\d+(?:[.,]\d+)*/g, '#').replace(/\b(?:ns|µs|us|ms|s|min|h)\b/, 'unit');
}
