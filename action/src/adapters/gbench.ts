import { InputError, type BenchmarkResult, type Metric, type Summary } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText, quoteNonFinite, type JsonErrors, type JsonPath } from './json-text.js';

/**
 * Google Benchmark JSON (`--benchmark_out_format=json` or `--benchmark_format=json`).
 *
 * Rows with `run_type: "iteration"` are measurements: each repetition of a
 * benchmark is one row, so repetitions become the samples, in file order. The
 * `_mean`/`_median`/`_stddev`/`_cv` aggregate rows summarise those same
 * repetitions and are ignored when the repetitions are there (counting them
 * again would double the evidence); with `--benchmark_report_aggregates_only`
 * they are all there is, and become a summary. BigO/RMS rows are not
 * measurements and are skipped.
 *
 * `time` is `real_time` (wall clock per iteration, in `time_unit`), `cpu_time`
 * is its own metric; user counters become metrics under their own names,
 * `items_per_second` (1/s) and `bytes_per_second` (B/s) as rates. Google
 * Benchmark writes bare `NaN`, `-NaN`, `Infinity` (not JSON): they are read,
 * and such values are left out of the samples. `error_occurred` makes the
 * benchmark failed with its message.
 */
export const gbenchAdapter: Adapter = {
  name: 'gbench',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (!/^\s*\{/.test(head)) return { match: false, reason: 'not a JSON object' };
    if (!/"context"\s*:/.test(head)) return { match: false, reason: 'no "context" key near the start' };
    if (!/"benchmarks"\s*:/.test(text)) return { match: false, reason: 'no "benchmarks" key' };
    if (!/"(?:real_time|cpu_time|run_type|time_unit|big_o)"\s*:|"benchmarks"\s*:\s*\[\s*\]/.test(text)) {
      return { match: false, reason: 'no real_time/cpu_time/run_type keys in "benchmarks"' };
    }
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    const quoted = quoteNonFinite(text);
    const data = parseJsonText(quoted, path, 'Google Benchmark JSON ({"context": …, "benchmarks": [...]})');
    const errors = jsonErrors(quoted, path);
    if (!isRecord(data) || !Array.isArray(data.benchmarks)) {
      throw new InputError(path, 'expected a JSON object with a "benchmarks" array (Google Benchmark --benchmark_out_format=json)', 1);
    }
    if (data.benchmarks.length === 0) {
      throw errors.error(['benchmarks'], 'the "benchmarks" array is empty; expected at least one benchmark run (did --benchmark_filter match nothing?)');
    }
    return collect(data.benchmarks, errors);
  },
};

/** Keys of a run that are not user counters. */
const RUN_KEYS = new Set([
  'name',
  'family_index',
  'per_family_instance_index',
  'run_name',
  'run_type',
  'repetitions',
  'repetition_index',
  'threads',
  'iterations',
  'real_time',
  'cpu_time',
  'time_unit',
  'aggregate_name',
  'aggregate_unit',
  'error_occurred',
  'error_message',
  'skipped',
  'skip_message',
  'label',
  'big_o',
  'cpu_coefficient',
  'real_coefficient',
  'rms',
]);

const TIME_UNITS: Record<string, number> = { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1 };

/** Counters whose names say their unit; all others are plain numbers. */
const COUNTER_UNITS: Record<string, { metric: string; unit: string }> = {
  items_per_second: { metric: 'items_per_second', unit: '1/s' },
  bytes_per_second: { metric: 'bytes_per_second', unit: 'B/s' },
  allocs_per_iter: { metric: 'allocs', unit: 'count' },
  max_bytes_used: { metric: 'memory_peak', unit: 'B' },
  total_allocated_bytes: { metric: 'total_allocated_bytes', unit: 'B' },
  net_heap_growth: { metric: 'net_heap_growth', unit: 'B' },
};

interface Group {
  id: string;
  threads?: number;
  label?: string;
  /** Metric name → { unit, samples in repetition order, or aggregate name → value }. */
  iterations: Map<string, { unit: string; sourceUnit: string; values: number[] }>;
  aggregates: Map<string, { unit: string; sourceUnit: string; byAggregate: Map<string, number>; n?: number }>;
  errors: string[];
}

function collect(runs: unknown[], errors: JsonErrors): BenchmarkResult[] {
  const groups = new Map<string, Group>();
  runs.forEach((run, index) => {
    const at = ['benchmarks', index];
    if (!isRecord(run) || typeof run.name !== 'string') {
      throw errors.error(isRecord(run) ? [...at, 'name'] : at, 'expected a run object with a "name" string');
    }
    const runType = typeof run.run_type === 'string' ? run.run_type : 'iteration';
    const aggregateName = typeof run.aggregate_name === 'string' ? run.aggregate_name : undefined;
    if (runType === 'aggregate' && (aggregateName === 'BigO' || aggregateName === 'RMS')) return;
    if (run.skipped === true) return; // SkipWithMessage: not run, not failed
    const id = runType === 'aggregate' ? (typeof run.run_name === 'string' ? run.run_name : stripSuffix(run.name, aggregateName)) : run.name;
    let group = groups.get(id);
    if (!group) {
      group = { id, iterations: new Map(), aggregates: new Map(), errors: [] };
      groups.set(id, group);
    }
    if (typeof run.threads === 'number') group.threads = run.threads;
    if (typeof run.label === 'string' && run.label !== '') group.label = run.label;
    if (run.error_occurred === true) {
      group.errors.push(typeof run.error_message === 'string' ? run.error_message : 'error_occurred');
      return;
    }
    const values = runValues(run, at, errors);
    if (runType === 'aggregate') {
      if (aggregateName === undefined) throw errors.error(at, 'an aggregate run without "aggregate_name"');
      if (run.aggregate_unit === 'percentage') return; // cv: a fraction, not in the metric's unit
      for (const v of values) {
        const entry = group.aggregates.get(v.metric) ?? { unit: v.unit, sourceUnit: v.sourceUnit, byAggregate: new Map<string, number>() };
        if (Number.isFinite(v.value)) entry.byAggregate.set(aggregateName, v.value);
        if (typeof run.repetitions === 'number' && run.repetitions > 0) entry.n = run.repetitions;
        else if (aggregateName === 'mean' && typeof run.iterations === 'number') entry.n = run.iterations;
        group.aggregates.set(v.metric, entry);
      }
      return;
    }
    for (const v of values) {
      const entry = group.iterations.get(v.metric) ?? { unit: v.unit, sourceUnit: v.sourceUnit, values: [] };
      if (Number.isFinite(v.value)) entry.values.push(v.value);
      group.iterations.set(v.metric, entry);
    }
  });
  if (groups.size === 0) {
    throw errors.error(['benchmarks'], 'no benchmark runs: every row is a BigO/RMS or skipped row');
  }
  return [...groups.values()].map(toResult);
}

function stripSuffix(name: string, aggregateName: string | undefined): string {
  return aggregateName && name.endsWith(`_${aggregateName}`) ? name.slice(0, -aggregateName.length - 1) : name;
}

interface RunValue {
  metric: string;
  unit: string;
  sourceUnit: string;
  value: number;
}

/** The numbers of one run in base units: time, cpu_time and every counter. */
function runValues(run: Record<string, unknown>, at: JsonPath, errors: JsonErrors): RunValue[] {
  const out: RunValue[] = [];
  const timeUnit = typeof run.time_unit === 'string' ? run.time_unit : 'ns';
  const factor = TIME_UNITS[timeUnit];
  if (factor === undefined) {
    throw errors.error([...at, 'time_unit'], `unknown time_unit ${JSON.stringify(run.time_unit)}; expected ns, us, ms or s`);
  }
  for (const [key, metric] of [
    ['real_time', 'time'],
    ['cpu_time', 'cpu_time'],
  ] as const) {
    if (run[key] === undefined) throw errors.error([...at, key], `expected "${key}" (per-iteration time in ${timeUnit})`);
    out.push({ metric, unit: 's', sourceUnit: timeUnit, value: toNumber(run[key], [...at, key], errors) * factor });
  }
  for (const [key, raw] of Object.entries(run)) {
    if (RUN_KEYS.has(key)) continue;
    if (typeof raw !== 'number' && raw !== 'NaN' && raw !== 'Infinity' && raw !== '-Infinity') continue;
    const known = COUNTER_UNITS[key];
    out.push({ metric: known?.metric ?? key, unit: known?.unit ?? 'count', sourceUnit: known?.unit ?? '', value: toNumber(raw, [...at, key], errors) });
  }
  return out;
}

function toNumber(raw: unknown, at: JsonPath, errors: JsonErrors): number {
  if (typeof raw === 'number') return raw;
  if (raw === 'NaN') return Number.NaN;
  if (raw === 'Infinity') return Number.POSITIVE_INFINITY;
  if (raw === '-Infinity') return Number.NEGATIVE_INFINITY;
  throw errors.error(at, `expected a number, found ${JSON.stringify(raw)}`);
}

function toResult(group: Group): BenchmarkResult {
  const metrics: Record<string, Metric> = {};
  for (const [name, entry] of group.iterations) {
    if (entry.values.length === 0) continue;
    metrics[name] = buildMetric(name, entry.unit, { samples: entry.values }, entry.sourceUnit ? { sourceUnit: entry.sourceUnit } : {});
  }
  if (group.iterations.size === 0) {
    for (const [name, entry] of group.aggregates) {
      const mean = entry.byAggregate.get('mean');
      if (mean === undefined) continue;
      const summary: Summary = { n: entry.n ?? 1, mean, stddev: entry.byAggregate.get('stddev') ?? null };
      const median = entry.byAggregate.get('median');
      if (median !== undefined) summary.median = median;
      metrics[name] = buildMetric(name, entry.unit, { summary }, entry.sourceUnit ? { sourceUnit: entry.sourceUnit } : {});
    }
  }
  const result: BenchmarkResult = { id: group.id, status: 'ok', metrics };
  const params: Record<string, string> = {};
  if (group.threads !== undefined) params.threads = String(group.threads);
  if (group.label !== undefined) params.label = group.label;
  if (Object.keys(params).length > 0) result.params = params;
  if (group.errors.length > 0) {
    result.status = 'failed';
    result.error = { message: [...new Set(group.errors)].join('; ') };
  }
  return result;
}
