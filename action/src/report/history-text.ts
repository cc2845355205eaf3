/**
 * `perf-gate history`'s tables for the terminal: the runs (`list`) and each
 * series' learned drift (`noise`). Benchmark ids are untrusted text: escaped.
 */
import { escapeTerminal } from './escape-terminal.js';

/** One benchmark × metric of `history noise`, as the pipeline measured it. */
export interface NoiseLine {
  benchmark: string;
  metric: string;
  runs: number;
  /** Learned between-run drift (fraction). */
  drift: number;
  /** The smallest change a stored-baseline comparison can decide at that drift (fraction). */
  smallest: number;
}

/** The drift table, noisiest first, with what each row can gate. */
export function noiseText(rows: readonly NoiseLine[], runs: number, testbed: string, tolerance: number): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
  const head = `between-run drift on testbed ${testbed}, from its newest ${runs} run(s); tolerance ${pct(tolerance)}\n`;
  if (rows.length === 0) return `${head}no benchmark has a level in two or more of these runs\n`;
  const cells = [
    ['benchmark', 'metric', 'runs', 'drift', 'decides changes of', `gates ${pct(tolerance)}`],
    ...rows.map((r) => [
      escapeTerminal(r.benchmark),
      escapeTerminal(r.metric),
      String(r.runs),
      `±${pct(r.drift)}`,
      `> ${pct(r.smallest)}`,
      r.smallest < tolerance ? 'yes' : 'no: interleave (perf-gate run --ab, ab: base) or widen the tolerance',
    ]),
  ];
  return head + aligned(cells);
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
