import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { tableResults, type JmhTableRow } from './jmh-table.js';

/** The summary table's header: `Benchmark  (size)  Mode  [Threads]  Cnt  Score  Error  Units`. */
const HEADER = /^Benchmark\s+((?:\(\S+\)\s+)*)Mode\s+(Threads\s+)?(?:Cnt|Samples)\s+Score\s+Error\s+Units\s*$/;

/**
 * JMH's console summary (`# Run complete.` … the table JMH prints last, and
 * what `-rf text` writes): one line a benchmark, mode and parameter
 * combination, secondary metrics as `method:gc.alloc.rate`. Read from the
 * table's header (`Benchmark (size) Mode Cnt Score Error Units`, the last
 * one in the file), so a whole console log or a table pasted from an issue
 * both work. The `@Param` columns are the `(name)` headers (`N/A`: the
 * benchmark has no such parameter); `≈ 0` and `≈ 10⁻⁴` are JMH's way of
 * printing a score too small for the column. No raw samples: `Cnt` and the
 * 99.9 % `Error` give the summary (adapters/jmh-table.ts), as for the CSV.
 *
 * JMH shortens the names in this table: the package prefix the benchmarks
 * share is left out (`JoinBench.builder`, where the JSON and CSV say
 * `example.jmh.JoinBench.builder`), so compare a text table with a text
 * table.
 */
export const jmhTextAdapter: Adapter = {
  name: 'jmh-text',

  detect({ text }: AdapterInput) {
    if (!text.split('\n').some((line) => HEADER.test(line.trim()))) {
      return { match: false, reason: 'no JMH summary header ("Benchmark … Mode … Cnt … Score … Error … Units")' };
    }
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, `the file is empty; expected JMH's summary table`);
    const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
    const start = lines.map((l) => HEADER.test(l.trim())).lastIndexOf(true);
    if (start < 0) throw new InputError(path, 'no JMH summary table; expected its header "Benchmark … Mode … Cnt … Score … Error … Units"');
    const header = HEADER.exec(lines[start]!.trim())!;
    const params = [...header[1]!.matchAll(/\((\S+)\)/g)].map((m) => m[1]!);
    const hasThreads = header[2] !== undefined;
    const rows: JmhTableRow[] = [];
    for (let i = start + 1; i < lines.length && lines[i]!.trim() !== ''; i++) rows.push(readRow(lines[i]!, i + 1, params, hasThreads, path));
    if (rows.length === 0) throw new InputError(path, 'the JMH summary table has a header and no rows; the output is truncated', start + 1);
    return tableResults(rows, path);
  },
};

const SUPERSCRIPT: Record<string, string> = { '⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9', '⁻': '-' };

/** A score as JMH prints it: `4917.496`, `≈ 0`, `≈ 10⁻⁴` (JMH's "too small for three decimals"). */
function scoreOf(tokens: string[]): number {
  if (tokens[0] === '≈') {
    const m = /^10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/.exec(tokens[1] ?? '');
    if (tokens[1] === '0') return 0;
    return m ? 10 ** Number([...m[1]!].map((c) => SUPERSCRIPT[c]).join('')) : Number.NaN;
  }
  return tokens.length === 1 ? Number(tokens[0]) : Number.NaN;
}

function readRow(line: string, n: number, params: string[], hasThreads: boolean, path: string): JmhTableRow {
  const tokens = line.trim().split(/\s+/);
  const fixed = 1 + params.length + 1 + (hasThreads ? 1 : 0);
  if (tokens.length < fixed + 2)
    throw new InputError(
      path,
      `cannot read JMH row ${JSON.stringify(line.trim())}: expected the name, ${params.length} parameter(s), the mode, a score and a unit`,
      n,
    );
  const benchmark = tokens[0]!;
  const rowParams = params.flatMap((name, i): [string, string][] => (tokens[1 + i] === 'N/A' ? [] : [[name, tokens[1 + i]!]]));
  const mode = tokens[1 + params.length]!;
  const threads = hasThreads ? Number(tokens[2 + params.length]) : 1;
  const rest = tokens.slice(fixed);
  const unit = rest.pop()!;
  const plusMinus = rest.indexOf('±');
  const error = plusMinus >= 0 ? Number(rest[plusMinus + 1]) : Number.NaN;
  const before = plusMinus >= 0 ? rest.slice(0, plusMinus) : rest;
  // `Cnt` is blank on percentile rows: a count is a whole number followed by the score.
  const counted = before.length >= 2 && /^\d+$/.test(before[0]!) && before[1] !== undefined;
  const count = counted ? Number(before[0]) : undefined;
  const score = scoreOf(counted ? before.slice(1) : before);
  if (!Number.isFinite(score) || (plusMinus >= 0 && !Number.isFinite(error)) || !Number.isFinite(threads)) {
    throw new InputError(path, `cannot read JMH row ${JSON.stringify(line.trim())}: expected "[Cnt] Score [± Error] Units"`, n);
  }
  return { benchmark, params: rowParams, mode, threads, count, score, error, unit, line: n };
}
