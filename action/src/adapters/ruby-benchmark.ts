import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { labelLeftOpen, rubyErrorIn } from './ruby-output.js';

/** `Benchmark::CAPTION`: the header over every table. */
const CAPTION = /^\s*user\s+system\s+total\s+real\s*$/;
const NUMBER = String.raw`(-?\d+\.\d+)`;
/** `Benchmark::FORMAT` after the label: `%10.6u %10.6y %10.6t %10.6r` (real in parentheses). */
const ROW = new RegExp(String.raw`^(.*?)\s*${NUMBER}\s+${NUMBER}\s+${NUMBER}\s+\(\s*${NUMBER}\)\s*$`);
/** A line that has begun a row (a label, then numbers) but does not end as one: cut short. */
const PARTIAL_ROW = new RegExp(String.raw`^.*?\s${NUMBER}\s+${NUMBER}(?:\s|$)`);
/** bmbm's rehearsal: `Rehearsal ----…` up to `---- total: 2.960000sec`. */
const REHEARSAL = /^Rehearsal -+\s*$/;
const REHEARSAL_END = /^-+ total: \d+(?:\.\d+)?sec\s*$/;

/**
 * Ruby's standard `benchmark` library: the tables `Benchmark.bm`,
 * `Benchmark.bmbm` and `Benchmark.benchmark` print,
 *
 *                  user     system      total        real
 *     sort!    1.460000   0.000000   1.460000 (  1.460465)
 *
 * Each row is one run of the block. `real` (wall clock) becomes `time`; `user`
 * and `system` (CPU time of this process and its children) become `user_time`
 * and `system_time`, all in seconds and lower is better. `total` is their sum
 * and is not read. A label printed in several tables (a script that calls
 * `Benchmark.bm` in a loop) gives samples in output order, once a single value.
 * The label's trailing colon (`for:`, as the Ruby docs write them) is dropped;
 * a row without a label is named by its place in the table (`#2`).
 *
 * bmbm's `Rehearsal` table is a warm-up and is skipped, up to its
 * `---- total: …sec` line. Rows whose label starts with `>` are the summary
 * rows `Benchmark.benchmark` adds by convention (`>total:`, `>avg:`), not runs,
 * and are skipped.
 *
 * A block that raises ends the script on its label (see ruby-output.ts): that
 * label becomes a failed benchmark with Ruby's error message, the rows before
 * it are kept, and the benchmarks after it, never printed, cannot be named.
 * Otherwise a table without rows, a rehearsal without its total, or a row cut
 * short is output that stops early, an error naming the line.
 */
export const rubyBenchmarkAdapter: Adapter = {
  name: 'ruby-benchmark',

  detect({ text }: AdapterInput) {
    const lines = text
      .slice(0, 65536)
      .split('\n')
      .map((l) => l.replace(/\r$/, ''));
    const caption = lines.findIndex((l) => CAPTION.test(l));
    if (caption < 0) return { match: false, reason: 'no "user system total real" header (Ruby Benchmark.bm)' };
    if (!lines.some((l) => ROW.test(l))) return { match: false, reason: 'no "<label> <user> <system> <total> (<real>)" row' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected Ruby Benchmark.bm output ("user system total real" and rows)');
    const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
    const runs = new Map<string, { real: number[]; user: number[]; system: number[] }>();
    let failed: BenchmarkResult | undefined;
    let rehearsalAt: number | undefined;
    let tableAt: number | undefined;
    let rowsInTable = 0;
    const closeTable = (): void => {
      if (tableAt !== undefined && rowsInTable === 0) {
        throw new InputError(path, 'a "user system total real" table has no rows: the output stops early', tableAt);
      }
    };
    for (let i = 0; i < lines.length && !failed; i++) {
      const line = lines[i]!;
      if (REHEARSAL.test(line)) {
        closeTable();
        tableAt = undefined;
        rehearsalAt = i + 1;
        continue;
      }
      const error = rubyErrorIn(line);
      if (error && (rehearsalAt !== undefined || tableAt !== undefined)) {
        failed = failure(line.slice(0, error.at), `the block raised: ${error.message}`);
        break;
      }
      if (rehearsalAt !== undefined) {
        if (REHEARSAL_END.test(line)) rehearsalAt = undefined;
        continue;
      }
      if (CAPTION.test(line)) {
        closeTable();
        tableAt = i + 1;
        rowsInTable = 0;
        continue;
      }
      if (tableAt === undefined) continue;
      const row = ROW.exec(line);
      if (!row) {
        if (PARTIAL_ROW.test(line))
          throw new InputError(path, `expected "<label> <user> <system> <total> (<real>)", found ${JSON.stringify(line.slice(0, 120))} (cut short?)`, i + 1);
        continue;
      }
      rowsInTable++;
      if (row[1]!.trim().startsWith('>')) continue;
      // `x.report { … }` without a label prints none: such a row is known by its place in the table.
      const label = labelOf(row[1]!) || `#${rowsInTable}`;
      const run = runs.get(label) ?? { real: [], user: [], system: [] };
      run.user.push(Number(row[2]));
      run.system.push(Number(row[3]));
      run.real.push(Number(row[5]));
      runs.set(label, run);
    }
    const open = failed ? undefined : labelLeftOpen(text);
    if (open && !ROW.test(lines[open.line - 1]!) && (rehearsalAt !== undefined || tableAt !== undefined)) {
      failed = failure(open.label, 'the output stops inside this benchmark (it raised, or the process was killed)');
    } else if (!failed) {
      if (rehearsalAt !== undefined) throw new InputError(path, 'the bmbm Rehearsal has no "---- total: …sec" line: the output stops early', rehearsalAt);
      closeTable();
    }
    if (runs.size === 0 && !failed) throw new InputError(path, 'no "user system total real" table with rows found (Ruby Benchmark.bm)');
    const results: BenchmarkResult[] = [...runs.entries()].map(([id, run]) => ({
      id,
      status: 'ok',
      metrics: {
        time: buildMetric('time', 's', one(run.real), { sourceUnit: 's' }),
        user_time: buildMetric('user_time', 's', one(run.user), { sourceUnit: 's' }),
        system_time: buildMetric('system_time', 's', one(run.system), { sourceUnit: 's' }),
      },
    }));
    if (!failed) return results;
    // A benchmark that raised in one run has failed, whatever its earlier tables measured.
    return [...results.filter((r) => r.id !== failed.id), failed];
  },
};

/** The label as the row prints it, without padding and the trailing colon the Ruby docs use. */
function labelOf(text: string): string {
  return text.trim().replace(/:$/, '');
}

function failure(labelText: string, message: string): BenchmarkResult {
  return { id: labelOf(labelText) || '(unlabelled block)', status: 'failed', error: { message }, metrics: {} };
}

function one(values: number[]): { value: number } | { samples: number[] } {
  return values.length === 1 ? { value: values[0]! } : { samples: values };
}
