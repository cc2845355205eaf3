import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric, buildSummary, finiteOrUndefined } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText, type JsonErrors, type JsonPath } from './json-text.js';

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
 *
 * Versions before 0.10 wrote the same document without `FullName`,
 * `DisplayInfo` or `OriginalValues`: a benchmark is `Namespace` (0.9.9 on),
 * `Type`, `Method` and `Parameters`, and its id is built the way `FullName`
 * is later (`Ns.Type.Method(N: 10)`), so a baseline survives the upgrade. Their
 * full exporter lists `Measurements`; the `IterationMode: "Result"` ones
 * (`Nanoseconds` / `Operations`, in order) are the samples, as are
 * `IterationStage: "Result"` workload measurements of a newer file that lacks
 * `OriginalValues`.
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
  if (!isRecord(bench)) throw errors.error(at, 'expected an object with a "FullName" string');
  const job = typeof bench.DisplayInfo === 'string' ? jobOf(bench.DisplayInfo) : undefined;
  const params: Record<string, string> = {};
  if (typeof bench.Parameters === 'string' && bench.Parameters !== '') {
    for (const pair of bench.Parameters.split('&')) {
      const eq = pair.indexOf('=');
      if (eq > 0) params[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
  }
  const fullName = fullNameOf(bench, params);
  if (fullName === undefined) {
    throw errors.error([...at, 'FullName'], 'expected an object with a "FullName" string (or, before BenchmarkDotNet 0.10, "Type" and "Method")');
  }
  const customJob = job !== undefined && job !== 'DefaultJob' ? job : undefined;
  if (customJob) params.job = customJob;
  const id = customJob ? `${fullName} [${customJob}]` : fullName;
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
  const summary = buildSummary({ n: stats.N, mean: stats.Mean, stddev: stats.StandardDeviation, median: stats.Median, min: stats.Min, max: stats.Max }, NS);
  let samples: number[] | undefined;
  if (Array.isArray(stats.OriginalValues) && stats.OriginalValues.length > 0) {
    samples = stats.OriginalValues.map((v, i) => {
      const ns = finiteOrUndefined(v);
      if (ns === undefined || ns < 0) {
        throw errors.error([...at, 'Statistics', 'OriginalValues', i], `expected a non-negative number of nanoseconds, found ${JSON.stringify(v)}`);
      }
      return ns * NS;
    });
  } else if (Array.isArray(bench.Measurements)) {
    samples = resultMeasurements(bench.Measurements, [...at, 'Measurements'], errors);
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
  const job = displayInfo
    .slice(at + 2)
    .replace(/\s*\[[^\]]*\]\s*$/, '')
    .replace(/\(.*\)\s*$/, '')
    .trim();
  return job === '' ? undefined : job;
}

/**
 * The id of a benchmark: `FullName`, or for files before 0.10 (which lack it)
 * the same text built from its parts: `Namespace.Type.Method(N: 10, Mode: Fast)`.
 */
function fullNameOf(bench: Record<string, unknown>, params: Record<string, string>): string | undefined {
  if (typeof bench.FullName === 'string' && bench.FullName !== '') return bench.FullName;
  if (typeof bench.Method !== 'string' || bench.Method === '') return undefined;
  const parts = [bench.Namespace, bench.Type, bench.Method].filter((p): p is string => typeof p === 'string' && p !== '');
  const args = Object.entries(params).map(([k, v]) => `${k}: ${v}`);
  return `${parts.join('.')}${args.length > 0 ? `(${args.join(', ')})` : ''}`;
}

/**
 * Per-operation times of the result iterations, in order: `IterationMode:
 * "Result"` before 0.10, `IterationStage: "Result"` with `IterationMode:
 * "Workload"` after. Undefined when there are none (a brief export).
 */
function resultMeasurements(measurements: unknown[], at: JsonPath, errors: JsonErrors): number[] | undefined {
  const samples: number[] = [];
  measurements.forEach((m, i) => {
    if (!isRecord(m)) return;
    const result = m.IterationStage === undefined ? m.IterationMode === 'Result' : m.IterationStage === 'Result' && m.IterationMode === 'Workload';
    if (!result) return;
    const ns = finiteOrUndefined(m.Nanoseconds);
    const ops = finiteOrUndefined(m.Operations);
    if (ns === undefined || ns < 0 || ops === undefined || ops <= 0) {
      throw errors.error(
        [...at, i],
        `expected "Nanoseconds" (≥ 0) and "Operations" (> 0), found ${JSON.stringify(m.Nanoseconds)} and ${JSON.stringify(m.Operations)}`,
      );
    }
    samples.push((ns / ops) * NS);
  });
  return samples.length > 0 ? samples : undefined;
}
