import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric, buildSummary } from './build-metric.js';
import { isRecord, lineOfKeyOccurrence, parseJsonText } from './json-text.js';

/**
 * pytest-benchmark `--benchmark-json` (also `--benchmark-save` files). `stats.data`
 * (seconds per iteration, one per round, in round order) are the samples; the
 * stats block is kept beside them as the summary, and is all there is in saved
 * files without `--benchmark-save-data`. The id is `fullname`
 * (`test_file.py::test_fib[5]`), which includes the parametrize id; `params`
 * become the benchmark's params. pytest-benchmark silently drops benchmarks
 * whose test raised, so an empty list is an error, not "nothing regressed".
 */
export const pytestBenchmarkAdapter: Adapter = {
  name: 'pytest-benchmark',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (!/^\s*\{/.test(head)) return { match: false, reason: 'not a JSON object' };
    if (!/"machine_info"\s*:/.test(head)) return { match: false, reason: 'no "machine_info" key near the start' };
    if (!/"benchmarks"\s*:/.test(text)) return { match: false, reason: 'no "benchmarks" key' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    const data = parseJsonText(text, path, 'pytest-benchmark JSON ({"machine_info", "benchmarks": [...]})');
    if (!isRecord(data) || !Array.isArray(data.benchmarks)) {
      throw new InputError(path, 'expected a JSON object with a "benchmarks" array (pytest --benchmark-json)', 1);
    }
    if (data.benchmarks.length === 0) {
      throw new InputError(path, 'the "benchmarks" array is empty; expected at least one benchmark (pytest-benchmark drops benchmarks whose test failed)', lineOfKeyOccurrence(text, 'benchmarks', 0));
    }
    return data.benchmarks.map((bench, index) => parseBenchmark(bench, index, text, path));
  },
};

function parseBenchmark(bench: unknown, index: number, text: string, path: string): BenchmarkResult {
  const where = `benchmarks[${index}]`;
  // Found only when needed: scanning a 50 MB file once per record would dominate parsing.
  const line = (): number | undefined => lineOfKeyOccurrence(text, 'stats', index);
  if (!isRecord(bench) || typeof bench.name !== 'string' || !isRecord(bench.stats)) {
    throw new InputError(path, 'expected an object with "name" and "stats"', line(), where);
  }
  const id = typeof bench.fullname === 'string' && bench.fullname !== '' ? bench.fullname : bench.name;
  const stats = bench.stats;
  const summary = buildSummary({ n: stats.rounds, mean: stats.mean, stddev: stats.stddev, median: stats.median, min: stats.min, max: stats.max });
  let samples: number[] | undefined;
  if (stats.data !== undefined) {
    if (!Array.isArray(stats.data)) throw new InputError(path, `expected "data" to be an array of seconds for "${id}"`, line(), `${where}.stats.data`);
    stats.data.forEach((v, i) => {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        throw new InputError(path, `expected a non-negative number of seconds, found ${JSON.stringify(v)}`, line(), `${where}.stats.data[${i}]`);
      }
    });
    if (stats.data.length > 0) samples = stats.data as number[];
  }
  if (!samples && !summary) {
    throw new InputError(path, `expected "stats" with "data" samples or "rounds" and "mean" (seconds) for "${id}"`, line(), `${where}.stats`);
  }
  const time = samples
    ? buildMetric('time', 's', summary ? { samples, summary } : { samples }, { sourceUnit: 's' })
    : buildMetric('time', 's', { summary: summary! }, { sourceUnit: 's' });
  const result: BenchmarkResult = { id, status: 'ok', metrics: { time } };
  if (isRecord(bench.params)) {
    result.params = Object.fromEntries(Object.entries(bench.params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  }
  return result;
}
