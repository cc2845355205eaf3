import { InputError, maxOf, minOf, type BenchmarkResult, type Metric, type Summary } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText } from './json-text.js';

/**
 * criterion.rs's `target/criterion` tree. Each benchmark has a folder whose
 * `new/` holds `estimates.json`, `sample.json`, `benchmark.json` and
 * `tukey.json`; `base/` (and `--save-baseline NAME` folders) are copies, and
 * `change/estimates.json` holds relative changes against the previous run.
 *
 * `new/estimates.json` is the file that yields the benchmark; it reads its
 * siblings. Every other file of the tree is recognised and yields nothing, so
 * pointing perf-gate at `target/criterion` reads each benchmark once. An
 * `estimates.json` with no `new/` folder beside its own (a copied-out file) is
 * read as well.
 *
 * The id is `full_id` from `benchmark.json` (the folder name is cut to 64
 * bytes and made file-name safe, so it is never used). Samples are per
 * iteration: `times[i] / iters[i]` (ns → s), in sample order; the summary
 * carries criterion's own mean, median and standard deviation. A `throughput`
 * in `benchmark.json` adds a rate: `bytes_per_second` (B/s) for `Bytes`,
 * `BytesDecimal` and `Bits` (÷ 8), `throughput` (1/s) for `Elements`. Legacy files
 * (criterion ≤ 0.3.2: `Mean`/`StdDev` keys, sample.json as `[[iters],[times]]`)
 * are read too. Custom measurements (cycles, instructions) are not recorded in
 * the files; values are taken as WallTime nanoseconds.
 */
export const criterionAdapter: Adapter = {
  name: 'criterion',

  detect({ text, path }: AdapterInput) {
    const head = text.slice(0, 4096);
    const file = baseName(path);
    if (/^\s*\{/.test(head)) {
      if (/"(?:mean|Mean)"\s*:\s*\{\s*"confidence_interval"/.test(head)) return { match: true };
      if (/"group_id"\s*:/.test(head) && /"(?:full_id|directory_name)"\s*:/.test(head)) return { match: true };
      if (/"sampling_mode"\s*:/.test(head) && /"iters"\s*:/.test(head)) return { match: true };
      return { match: false, reason: 'no criterion estimates ("mean": {"confidence_interval" …), benchmark.json or sample.json keys' };
    }
    if (/^\s*\[/.test(head) && (file === 'tukey.json' || file === 'sample.json') && isCriterionFolder(path)) return { match: true };
    if (file === 'raw.csv' && /^group,function,value,/.test(head)) return { match: true };
    return { match: false, reason: 'not a criterion target/criterion file (new/estimates.json, benchmark.json, sample.json)' };
  },

  parse(input: AdapterInput): BenchmarkResult[] {
    const { text, path } = input;
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected a criterion JSON file (new/estimates.json)');
    if (baseName(path) !== 'estimates.json') {
      // benchmark.json, sample.json, tukey.json, raw.csv: read through their estimates.json.
      if (baseName(path).endsWith('.json')) parseJsonText(text, path, 'criterion JSON');
      return [];
    }
    const folder = parentName(path);
    if (folder !== 'new' && input.readRelated('../new/estimates.json') !== undefined) return []; // base/, change/, saved baselines
    const estimates = parseJsonText(text, path, 'criterion estimates.json ({"mean": …, "median": …, "std_dev": …})');
    if (!isRecord(estimates)) throw new InputError(path, 'expected a JSON object of criterion estimates', 1);
    if (
      estimateOf(estimates, 'std_dev', 'StdDev') === undefined &&
      estimateOf(estimates, 'mean', 'Mean') !== undefined &&
      estimateOf(estimates, 'median_abs_dev', 'MedianAbsDev') === undefined
    ) {
      return []; // change/estimates.json: relative changes, not measurements
    }
    return [parseBenchmark(input, estimates)];
  },
};

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

function parentName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 2] ?? '';
}

/** True when a file sits in a criterion result folder (new/, base/ … beside a benchmark.json). */
function isCriterionFolder(path: string): boolean {
  return ['new', 'base', 'change'].includes(parentName(path)) || /[\\/]criterion[\\/]/.test(path);
}

/** One estimate's point value, from the current or the legacy (capitalised) key. */
function estimateOf(estimates: Record<string, unknown>, key: string, legacyKey: string): number | undefined {
  const entry = estimates[key] ?? estimates[legacyKey];
  if (!isRecord(entry)) return undefined;
  return typeof entry.point_estimate === 'number' && Number.isFinite(entry.point_estimate) ? entry.point_estimate : undefined;
}

const NS = 1e-9;

function parseBenchmark(input: AdapterInput, estimates: Record<string, unknown>): BenchmarkResult {
  const { path } = input;
  const mean = estimateOf(estimates, 'mean', 'Mean');
  if (mean === undefined) throw jsonErrors(input.text, path).error(['mean'], 'expected "mean": {"point_estimate": <ns>} in criterion estimates');

  const benchmarkText = input.readRelated('benchmark.json');
  if (benchmarkText === undefined) {
    throw new InputError(path, 'no benchmark.json beside it; criterion writes one into each new/ folder, and the benchmark id comes from it');
  }
  const benchmarkPath = siblingPath(path, 'benchmark.json');
  const id = parseJsonText(benchmarkText, benchmarkPath, 'criterion benchmark.json ({"group_id", "full_id", …})');
  if (!isRecord(id) || typeof id.group_id !== 'string') {
    throw jsonErrors(benchmarkText, benchmarkPath).error(isRecord(id) ? ['group_id'] : [], 'expected a criterion BenchmarkId object with "group_id"');
  }
  const fullId = typeof id.full_id === 'string' ? id.full_id : [id.group_id, id.function_id, id.value_str].filter((p) => typeof p === 'string').join('/');

  const sampleText = input.readRelated('sample.json');
  if (sampleText === undefined) throw new InputError(path, 'no sample.json beside it; criterion writes one into each new/ folder (the per-iteration samples)');
  const samplePath = siblingPath(path, 'sample.json');
  const perIteration = readSamples(parseJsonText(sampleText, samplePath, 'criterion sample.json ({"iters": [...], "times": [...]})'), sampleText, samplePath);

  const samples = perIteration.map((ns) => ns * NS);
  const summary: Summary = { n: samples.length, mean: mean * NS, stddev: null, min: minOf(samples), max: maxOf(samples) };
  const stddev = estimateOf(estimates, 'std_dev', 'StdDev');
  if (stddev !== undefined) summary.stddev = stddev * NS;
  const median = estimateOf(estimates, 'median', 'Median');
  if (median !== undefined) summary.median = median * NS;

  const metrics: Record<string, Metric> = { time: buildMetric('time', 's', { samples, summary }, { sourceUnit: 'ns' }) };
  const throughput = readThroughput(id.throughput, benchmarkText, benchmarkPath);
  if (throughput) {
    const rates = samples.map((s) => throughput.perIteration / s);
    metrics[throughput.metric] = buildMetric(throughput.metric, throughput.unit, { samples: rates }, { sourceUnit: throughput.sourceUnit });
  }
  const result: BenchmarkResult = { id: fullId, status: 'ok', metrics };
  if (typeof id.value_str === 'string') result.params = { value: id.value_str };
  return result;
}

function siblingPath(path: string, name: string): string {
  return path.replace(/[^\\/]+$/, name);
}

/** Per-iteration values (ns) from sample.json: `times[i] / iters[i]`, in sample order. */
function readSamples(data: unknown, text: string, path: string): number[] {
  const errors = jsonErrors(text, path);
  let iters: unknown;
  let times: unknown;
  // criterion ≤ 0.3.2 wrote [[iters], [times]].
  const legacy = Array.isArray(data);
  if (isRecord(data)) ({ iters, times } = data);
  else if (Array.isArray(data) && data.length === 2) [iters, times] = data;
  const itersAt = legacy ? [0] : ['iters'];
  const timesAt = legacy ? [1] : ['times'];
  if (!Array.isArray(iters) || !Array.isArray(times)) {
    throw errors.error(Array.isArray(iters) ? timesAt : itersAt, 'expected {"iters": [...], "times": [...]} (criterion sample.json)');
  }
  if (iters.length === 0 || iters.length !== times.length) {
    throw errors.error(timesAt, `expected "iters" and "times" of the same, non-zero length; found ${iters.length} and ${times.length}`);
  }
  return times.map((t, i) => {
    const n = iters[i];
    if (typeof t !== 'number' || typeof n !== 'number' || !(n > 0) || !Number.isFinite(t) || t < 0) {
      const at = typeof n !== 'number' || !(n > 0) ? [...itersAt, i] : [...timesAt, i];
      throw errors.error(at, `expected a positive iteration count and a time at sample ${i}, found iters ${JSON.stringify(n)}, times ${JSON.stringify(t)}`);
    }
    return t / n;
  });
}

/** benchmark.json's throughput: a serde enum `{"Bytes": n}` etc., or null. */
function readThroughput(raw: unknown, text: string, path: string): { metric: string; perIteration: number; unit: string; sourceUnit: string } | undefined {
  if (raw === null || raw === undefined) return undefined;
  const errors = jsonErrors(text, path);
  if (!isRecord(raw)) throw errors.error(['throughput'], 'expected "throughput" to be null or {"Bytes"|"BytesDecimal"|"Elements"|"Bits": n}');
  const [kind, amount] = Object.entries(raw)[0] ?? [];
  if (typeof amount !== 'number' || !(amount >= 0)) {
    throw errors.error(
      kind === undefined ? ['throughput'] : ['throughput', kind],
      `expected a non-negative number in "throughput", found ${JSON.stringify(raw)}`,
    );
  }
  switch (kind) {
    case 'Bytes':
    case 'BytesDecimal':
      return { metric: 'bytes_per_second', perIteration: amount, unit: 'B/s', sourceUnit: 'B/s' };
    case 'Bits':
      return { metric: 'bytes_per_second', perIteration: amount / 8, unit: 'B/s', sourceUnit: 'bit/s' };
    case 'Elements':
      return { metric: 'throughput', perIteration: amount, unit: '1/s', sourceUnit: 'elem/s' };
    default:
      throw errors.error(['throughput'], `unknown throughput kind ${JSON.stringify(kind)}; expected Bytes, BytesDecimal, Elements or Bits`);
  }
}
