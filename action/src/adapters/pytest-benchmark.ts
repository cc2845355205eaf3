import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric, buildSummary } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText, type JsonErrors } from './json-text.js';

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
    const errors = jsonErrors(text, path);
    if (data.benchmarks.length === 0) {
      throw errors.error(
        ['benchmarks'],
        'the "benchmarks" array is empty; expected at least one benchmark (pytest-benchmark drops benchmarks whose test failed)',
      );
    }
    return data.benchmarks.map((bench, index) => parseBenchmark(bench, index, errors));
  },
};

function parseBenchmark(bench: unknown, index: number, errors: JsonErrors): BenchmarkResult {
  const at = ['benchmarks', index];
  if (!isRecord(bench) || typeof bench.name !== 'string' || !isRecord(bench.stats)) {
    const offending = !isRecord(bench) ? at : typeof bench.name !== 'string' ? [...at, 'name'] : [...at, 'stats'];
    throw errors.error(offending, 'expected an object with "name" and "stats"');
  }
  const id = typeof bench.fullname === 'string' && bench.fullname !== '' ? bench.fullname : bench.name;
  const stats = bench.stats;
  const summary = buildSummary({ n: stats.rounds, mean: stats.mean, stddev: stats.stddev, median: stats.median, min: stats.min, max: stats.max });
  let samples: number[] | undefined;
  if (stats.data !== undefined) {
    if (!Array.isArray(stats.data)) throw errors.error([...at, 'stats', 'data'], `expected "data" to be an array of seconds for "${id}"`);
    stats.data.forEach((v, i) => {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        throw errors.error([...at, 'stats', 'data', i], `expected a non-negative number of seconds, found ${JSON.stringify(v)}`);
      }
    });
    if (stats.data.length > 0) samples = stats.data as number[];
  }
  if (!samples && !summary) {
    throw errors.error([...at, 'stats'], `expected "stats" with "data" samples or "rounds" and "mean" (seconds) for "${id}"`);
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
