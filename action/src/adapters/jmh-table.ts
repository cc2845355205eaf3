import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { InputError, scaleValue, type BenchmarkResult, type Metric } from '../model/index.js';
import { buildMetric } from './build-metric.js';
import { assemble, convertUnit, JMH_MODES, metricOptions, primaryName, secondaryName, type JmhEntry } from './jmh.js';

/**
 * One row of JMH's result table, as `-rf csv` and the console summary print
 * it: `Benchmark` (a secondary metric as `method:gc.alloc.rate`), the
 * `@Param` values, `Mode`, `Threads` (the CSV only), `Cnt`/`Samples`,
 * `Score`, `Error` (the half-width of JMH's 99.9 % interval) and `Unit`.
 */
export interface JmhTableRow {
  benchmark: string;
  params: [string, string][];
  mode: string;
  threads: number;
  /** Samples behind the score; undefined when the row shows none (a percentile). */
  count: number | undefined;
  score: number;
  /** NaN when JMH could not compute one (one sample, a count). */
  error: number;
  unit: string;
  /** The row's line in the file, for errors. */
  line: number;
}

/** JMH's confidence level for `Error`: 99.9 %, two-sided (jmh-core's Statistics.getMeanErrorAt(0.999)). */
const JMH_CONFIDENCE = 0.999;

/**
 * The standard deviation behind a JMH error: JMH prints t(0.9995, n−1) ×
 * sd / √n, so sd = error × √n / t. Null when there is no error to invert.
 */
export function stddevFromError(error: number, n: number | undefined): number | null {
  if (n === undefined || n < 2 || !Number.isFinite(error)) return null;
  return (error * Math.sqrt(n)) / tQuantile(1 - (1 - JMH_CONFIDENCE) / 2, n - 1);
}

/**
 * The benchmarks of a JMH table: each primary row with the secondary rows
 * (`method:secondary`) of the same parameters, mode and threads as its
 * metrics. A primary metric is a summary (count, score as the mean, the
 * standard deviation recovered from the error); a row without a count (the
 * percentiles of sample mode) is one value. Units, names and directions are
 * the JSON adapter's (adapters/jmh.ts), so the three formats give the same
 * ids and metrics for the same run.
 */
export function tableResults(rows: JmhTableRow[], path: string): BenchmarkResult[] {
  const entries = new Map<string, JmhEntry>();
  const keyOf = (method: string, r: JmhTableRow): string =>
    `${method}\u0000${r.mode}\u0000${r.threads}\u0000${r.params.map(([k, v]) => `${k}=${v}`).join(',')}`;
  for (const row of rows) {
    if (!JMH_MODES.has(row.mode))
      throw new InputError(path, `expected the mode to be one of thrpt, avgt, sample, ss; found ${JSON.stringify(row.mode)}`, row.line);
    const colon = row.benchmark.indexOf(':');
    const method = colon < 0 ? row.benchmark : row.benchmark.slice(0, colon);
    const key = keyOf(method, row);
    if (colon < 0) {
      const name = primaryName(row.unit);
      if (name === undefined) {
        throw new InputError(
          path,
          `expected the unit of ${row.benchmark} to be operations per time (ops/s, ops/ms, ops/us, ops/ns) or time per operation (s/op, ms/op, us/op, ns/op); found ${JSON.stringify(row.unit)}`,
          row.line,
        );
      }
      if (entries.has(key)) throw new InputError(path, `${row.benchmark} (${row.mode}) appears twice with the same parameters`, row.line);
      // JMH writes NaN for a score it could not compute: the benchmark is a failed row, never a silently missing one.
      const facts = { benchmark: method, mode: row.mode, threads: row.threads, params: row.params };
      if (Number.isNaN(row.score)) entries.set(key, { ...facts, metrics: {}, failed: `JMH wrote no score (NaN) for ${row.benchmark} (line ${row.line})` });
      else entries.set(key, { ...facts, metrics: { [name]: metricOf(name, row) } });
      continue;
    }
    const entry = entries.get(key);
    if (!entry) throw new InputError(path, `the secondary metric ${row.benchmark} comes before (or without) its benchmark's own row ${method}`, row.line);
    // JMH ≤ 1.36 writes `:·gc.alloc.rate`, and a sample-mode percentile as `:parseSample·p0.50`.
    const name = secondaryName(row.benchmark.slice(colon + 1).replace(/^[^\u00b7]*\u00b7/, ''));
    if (name in entry.metrics || entry.failed !== undefined) continue;
    if (Number.isNaN(row.score)) entry.unavailable = { ...entry.unavailable, [name]: 'JMH wrote NaN for it' };
    else entry.metrics[name] = metricOf(name, row);
  }
  if (entries.size === 0) throw new InputError(path, 'the JMH table has no benchmark row; expected at least one');
  return assemble([...entries.values()]);
}

function metricOf(name: string, row: JmhTableRow): Metric {
  const { unit, factor } = convertUnit(row.unit);
  const options = metricOptions(name, row.unit);
  const mean = scaleValue(row.score, factor);
  if (row.count === undefined || row.count < 1) return buildMetric(name, unit, { value: mean }, options);
  const sd = stddevFromError(row.error, row.count);
  return buildMetric(name, unit, { summary: { n: row.count, mean, stddev: sd === null ? null : sd * Math.abs(factor) } }, options);
}
