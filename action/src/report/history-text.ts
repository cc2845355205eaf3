/**
 * `perf-gate history`'s tables for the terminal: the runs (`list`) and each
 * series' learned drift (`noise`). Benchmark ids are untrusted text: escaped.
 */
import type { Flips } from '../gate/history-flips.js';
import { escapeTerminal } from './escape-terminal.js';
import { formatValue, scaleFor } from './format.js';

/** One benchmark × metric of `history noise`, as the pipeline measured it. */
export interface NoiseLine {
  benchmark: string;
  metric: string;
  runs: number;
  /** Learned between-run drift (fraction). */
  drift: number;
  /** The smallest change a stored-baseline comparison can decide at that drift (fraction). */
  smallest: number;
  /** How often the screen would send this row to the interleaved second stage when nothing changed (fraction). */
  suspectRate: number;
  /** Its two levels, when it flips between them (gate/history-flips.ts); null when it does not. */
  flips: Flips | null;
}

/** A benchmark the screen sends on at least this often when nothing changed "often needs confirmation": one pull request in ten. */
const OFTEN = 0.1;

/** The drift table, noisiest first, with what each row can gate alone and how often the second stage would run for it. */
export function noiseText(rows: readonly NoiseLine[], runs: number, testbed: string, tolerance: number): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
  const head = `between-run drift on testbed ${testbed}, from its newest ${runs} run(s); tolerance ${pct(tolerance)}\n`;
  if (rows.length === 0) return `${head}no benchmark has a level in two or more of these runs\n`;
  const cells = [
    ['benchmark', 'metric', 'runs', 'drift', 'decides changes of', 'confirmed when unchanged', `gates ${pct(tolerance)} alone`],
    ...rows.map((r) => [
      escapeTerminal(r.benchmark),
      escapeTerminal(r.metric),
      String(r.runs),
      `±${pct(r.drift)}`,
      `> ${pct(r.smallest)}`,
      `${pct(r.suspectRate)} of runs`,
      r.smallest < tolerance ? 'yes' : 'no: the interleaved second stage decides (confirm: interleaved) or widen the tolerance',
    ]),
  ];
  const usually = rows.filter((r) => r.suspectRate >= OFTEN);
  const note =
    usually.length === 0
      ? `no benchmark would often need confirmation: each is sent to the interleaved stage in fewer than ${pct(OFTEN)} of unchanged runs\n`
      : `often need confirmation (sent to the interleaved stage in ${pct(OFTEN)} or more of unchanged runs, each costing its own interleaved rounds): ${usually.map((r) => `${escapeTerminal(r.benchmark)} ${escapeTerminal(r.metric)}`).join(', ')}\n`;
  return head + aligned(cells) + note + flipsText(rows);
}

/** The benchmarks that flip between two levels, and how often: they are compared level by level, so a different mix is no change. */
function flipsText(rows: readonly NoiseLine[]): string {
  const flipping = rows.filter((r) => r.flips !== null);
  if (flipping.length === 0) return 'no benchmark flips between two levels\n';
  const pct = (x: number): string => `${Math.round(x * 100)} %`;
  const lines = flipping.map((r) => {
    const f = r.flips!;
    const scale = scaleFor(f.unit, [f.fast, f.slow]);
    const where =
      f.seen === 'within'
        ? `${pct(f.slowShare)} of processes in the slow level, in ${f.runs} of ${f.of} runs`
        : `${pct(f.slowShare)} of runs in the slow level (each run draws one)`;
    return `  ${escapeTerminal(r.benchmark)} ${escapeTerminal(r.metric)}: flips between ${formatValue(f.fast, scale)} and ${formatValue(f.slow, scale)}; ${where}`;
  });
  return `flip between two levels (compared level by level: a different mix of the levels is no change, a level that moves is):\n${lines.join('\n')}\n`;
}

/** One run a line, columns aligned: created, testbed, commit (12), run id. */
export function runListText(entries: readonly { created: string; testbed: string; commit: string; runId: string }[]): string {
  return aligned([['created', 'testbed', 'commit', 'run'], ...entries.map((e) => [e.created, e.testbed, e.commit.slice(0, 12), e.runId])]);
}

function aligned(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}
