import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric, buildSummary, finiteOrUndefined } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText, type JsonErrors } from './json-text.js';

const NS = 1e-9;

/**
 * BenchmarkDotNet JSON exporters (`*-report-full.json`, `-brief.json`, default
 * `-report.json`). Statistics are nanoseconds per operation whatever the summary
 * table shows; `OriginalValues` (the per-iteration results, in order) are the
 * samples. `Memory.BytesAllocatedPerOperation` becomes `alloc_bytes`. NaN is
 * written as "" by current versions, so every number is read leniently and a
 * missing stddev stays null. `Statistics: null` means the benchmark failed.
 *
 * `FullName` is not unique across jobs, so a job other than BenchmarkDotNet's
 * `DefaultJob` is appended to the id (`Ns.Type.Method(N: 10) [ShortRun]`) and kept as
 * param `job`; `Parameters` (`N=10&Mode=Fast`) become params.
 */
export const benchmarkDotNetAdapter: Adapter = {
  name: 'benchmarkdotnet',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 16384);
    if (!/^\s*\{/.test(head)) return { match: false, reason: 'not a JSON object' };
    if (!/"HostEnvironmentInfo"\s*:/.test(head)) return { match: false, reason: 'no "HostEnvironmentInfo" key near the start' };
    if (!/"Benchmarks"\s*:/.test(text)) return { match: false, reason: 'no "Benchmarks" key' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    const data = parseJsonText(text, path, 'BenchmarkDotNet JSON ({"Title", "HostEnvironmentInfo", "Benchmarks": [...]})');
    if (!isRecord(data) || !Array.isArray(data.Benchmarks)) {
      throw new InputError(path, 'expected a JSON object with a "Benchmarks" array (BenchmarkDotNet JSON exporter)', 1);
    }
    const errors = jsonErrors(text, path);
    if (data.Benchmarks.length === 0) {
      throw errors.error(['Benchmarks'], 'the "Benchmarks" array is empty; expected at least one benchmark');
    }
    return data.Benchmarks.map((bench, index) => parseBenchmark(bench, index, errors));
  },
};

function parseBenchmark(bench: unknown, index: number, errors: JsonErrors): BenchmarkResult {
  const at = ['Benchmarks', index];
  if (!isRecord(bench) || typeof bench.FullName !== 'string' || bench.FullName === '') {
    throw errors.error(isRecord(bench) ? [...at, 'FullName'] : at, 'expected an object with a "FullName" string');
  }
  const job = typeof bench.DisplayInfo === 'string' ? jobOf(bench.DisplayInfo) : undefined;
  const params: Record<string, string> = {};
  if (typeof bench.Parameters === 'string' && bench.Parameters !== '') {
    for (const pair of bench.Parameters.split('&')) {
      const eq = pair.indexOf('=');
      if (eq > 0) params[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
  }
  const customJob = job !== undefined && job !== 'DefaultJob' ? job : undefined;
  if (customJob) params.job = customJob;
  const id = customJob ? `${bench.FullName} [${customJob}]` : bench.FullName;
  const result: BenchmarkResult = { id, status: 'ok', metrics: {} };
  if (Object.keys(params).length > 0) result.params = params;

  const stats = bench.Statistics;
  if (stats === null || stats === undefined) {
    result.status = 'failed';
    result.error = { message: 'BenchmarkDotNet reported no statistics (the benchmark failed or produced no results)' };
    return result;
  }
  if (!isRecord(stats)) throw errors.error([...at, 'Statistics'], `expected "Statistics" to be an object or null for "${id}"`);
  const metrics: Record<string, Metric> = {};
  const summary = buildSummary(
    { n: stats.N, mean: stats.Mean, stddev: stats.StandardDeviation, median: stats.Median, min: stats.Min, max: stats.Max },
    NS,
  );
  let samples: number[] | undefined;
  if (Array.isArray(stats.OriginalValues) && stats.OriginalValues.length > 0) {
    samples = stats.OriginalValues.map((v, i) => {
      const ns = finiteOrUndefined(v);
      if (ns === undefined || ns < 0) {
        throw errors.error([...at, 'Statistics', 'OriginalValues', i], `expected a non-negative number of nanoseconds, found ${JSON.stringify(v)}`);
      }
      return ns * NS;
    });
  }
  if (samples) metrics.time = buildMetric('time', 's', summary ? { samples, summary } : { samples }, { sourceUnit: 'ns' });
  else if (summary) metrics.time = buildMetric('time', 's', { summary }, { sourceUnit: 'ns' });
  else throw errors.error([...at, 'Statistics'], `expected "Statistics" with "OriginalValues" or "N" and "Mean" (ns per operation) for "${id}"`);

  if (isRecord(bench.Memory)) {
    const bytes = finiteOrUndefined(bench.Memory.BytesAllocatedPerOperation);
    if (bytes !== undefined) metrics.alloc_bytes = buildMetric('alloc_bytes', 'B', { value: bytes }, { sourceUnit: 'B/op' });
  }
  result.metrics = metrics;
  return result;
}

/**
 * The job from `DisplayInfo` ("Type.Method: ShortRun(IterationCount=3, …) [N=10]"):
 * the text after the first ": ", without the parameter block and the job's
 * characteristics, which BenchmarkDotNet derives from the job's name anyway.
 */
function jobOf(displayInfo: string): string | undefined {
  const at = displayInfo.indexOf(': ');
  if (at < 0) return undefined;
  const job = displayInfo.slice(at + 2).replace(/\s*\[[^\]]*\]\s*$/, '').replace(/\(.*\)\s*$/, '').trim();
  return job === '' ? undefined : job;
}
