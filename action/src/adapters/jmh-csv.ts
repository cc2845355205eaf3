import { parse as parseCsv } from 'csv-parse/sync';
import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { tableResults, type JmhTableRow } from './jmh-table.js';

/** Longer than any row JMH writes (its names, params and units are short). */
const MAX_ROW_LENGTH = 65536;

const HEADER = ['Benchmark', 'Mode', 'Threads', 'Samples', 'Score', 'Score Error (99.9%)', 'Unit'];

/**
 * JMH `-rf csv` (`-rff results.csv`): one row a benchmark, mode and
 * parameter combination, then a row for each secondary metric
 * (`method:gc.alloc.rate.norm`); `Param: <name>` columns hold the `@Param`
 * values (empty for a benchmark without that parameter). No raw samples: the
 * score is the mean of `Samples` values, and the standard deviation comes
 * back from `Score Error (99.9%)` (adapters/jmh-table.ts), so the statistics
 * still see the spread. Ids, units and directions are those of the JSON
 * format (`example.jmh.JoinBench.builder[size=10]`, ops/ms → throughput 1/s
 * ↑, ns/op → time s ↓).
 */
export const jmhCsvAdapter: Adapter = {
  name: 'jmh-csv',

  detect({ text }: AdapterInput) {
    const first = text.slice(0, 4096).split('\n')[0] ?? '';
    if (!first.startsWith('"Benchmark","Mode","Threads","Samples","Score","Score Error (99.9%)","Unit"')) {
      return {
        match: false,
        reason: 'the first line is not JMH\'s CSV header ("Benchmark","Mode","Threads","Samples","Score","Score Error (99.9%)","Unit" …)',
      };
    }
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, `the file is empty; expected JMH -rf csv output`);
    const lines = text.split('\n').map((l) => l.trimEnd());
    // A JMH CSV row is a few hundred characters; a longer line is not one, and the CSV parser would take seconds on it.
    const long = lines.findIndex((l) => l.length > MAX_ROW_LENGTH);
    if (long >= 0)
      throw new InputError(
        path,
        `line ${long + 1} is ${lines[long]!.length.toLocaleString('en')} characters long; a JMH CSV row is at most a few hundred`,
        long + 1,
      );
    let records: { record: string[]; info: { lines: number } }[];
    try {
      // Trailing spaces and CRLF line ends (an edited or copied file) are not part of the values.
      records = parseCsv(lines.join('\n'), { info: true, skip_empty_lines: true, relax_column_count: false }) as unknown as typeof records;
    } catch (error) {
      const line = (error as { lines?: number }).lines;
      throw new InputError(path, `not readable as CSV: ${(error as Error).message.replace(/^Invalid Record Length: /, '')}`, line);
    }
    const header = records[0]?.record ?? [];
    if (HEADER.some((h, i) => header[i] !== h)) throw new InputError(path, `expected JMH's CSV header ${HEADER.map((h) => `"${h}"`).join(',')}`, 1);
    const params = header.slice(HEADER.length).map((h, i) => {
      if (!h.startsWith('Param: '))
        throw new InputError(path, `expected the columns after "Unit" to be "Param: <name>", found ${JSON.stringify(h)} (column ${HEADER.length + i + 1})`, 1);
      return h.slice('Param: '.length);
    });
    const rows = records.slice(1).map(({ record, info }): JmhTableRow => {
      const line = info.lines;
      const number = (text: string, what: string, allowNaN: boolean): number => {
        const v = text === 'NaN' && allowNaN ? Number.NaN : Number(text);
        if (text.trim() === '' || (Number.isNaN(v) && !(allowNaN && text === 'NaN')))
          throw new InputError(path, `expected ${what} to be a number, found ${JSON.stringify(text)}`, line);
        return v;
      };
      const [benchmark, mode, threads, samples, score, error, unit] = record as [string, string, string, string, string, string, string];
      return {
        benchmark,
        mode,
        threads: number(threads, 'Threads', false),
        count: number(samples, 'Samples', false),
        score: number(score, 'Score', true),
        error: number(error, 'Score Error (99.9%)', true),
        unit,
        params: params.flatMap((name, i): [string, string][] => (record[HEADER.length + i] === '' ? [] : [[name, record[HEADER.length + i]!]])),
        line,
      };
    });
    // A NaN score (JMH could not compute it) stays: a failed row, or an unavailable secondary metric (jmh-table.ts).
    return tableResults(rows, path);
  },
};
