import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric, finiteOrUndefined } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText, type JsonErrors, type JsonPath } from './json-text.js';

const NS = 1e-9;

/**
 * Julia BenchmarkTools JSON, as `BenchmarkTools.save("results.json", results)`
 * writes it: `[{"Julia": "1.10.4", "BenchmarkTools": "1.5.0"}, [value, …]]`,
 * where every value is `[typeName, fields]` (`"BenchmarkGroup"`, `"Trial"`,
 * `"TrialEstimate"`; a `"BenchmarkTools."` prefix is allowed, as `load` allows it).
 *
 * Groups nest (`{"data": {key: value}, "tags": […]}`); a benchmark's id is the
 * path of keys joined with `/` (`fib/20`, or `trig/("sin", 0.0)` for tuple
 * keys, kept as Julia printed them). JSON.parse orders integer-like keys
 * ("10", "20") numerically, so benchmarks may come out in another order than
 * the file's; samples never do.
 *
 * - `Trial` (what `run(suite)` returns): `times` are the samples, nanoseconds
 *   per evaluation, in the order measured → `time` (s, lower is better).
 *   `memory` (bytes) → `alloc_bytes` and `allocs` → `allocs`, both exact
 *   counts per evaluation. `gctimes` are not read: GC time is part of each
 *   time already, and is 0 in most samples, a metric nothing can be said of.
 *   A Trial with no times never ran and is a failed benchmark.
 * - `TrialEstimate` (`median(results)`, what github-action-benchmark reads):
 *   one `time` in ns, `memory`, `allocs` → single values.
 * - `TrialRatio`, `TrialJudgement` and `Parameters` hold comparisons or
 *   tuning settings, not measurements, and are an error naming their key.
 */
export const juliaBenchmarkToolsAdapter: Adapter = {
  name: 'julia-benchmarktools',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 16384);
    if (!/^\s*\[\s*\{/.test(head)) return { match: false, reason: 'not a JSON array starting with a version object' };
    if (!/"BenchmarkTools"\s*:/.test(head) || !/"Julia"\s*:/.test(head)) {
      return { match: false, reason: 'no {"Julia", "BenchmarkTools"} version object (BenchmarkTools.save)' };
    }
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    const what = 'BenchmarkTools.save JSON ([{"Julia", "BenchmarkTools"}, [["BenchmarkGroup", {...}]]])';
    const data = parseJsonText(text, path, what);
    const errors = jsonErrors(text, path);
    if (!Array.isArray(data) || data.length !== 2 || !isRecord(data[0]) || !Array.isArray(data[1])) {
      throw new InputError(path, `expected ${what}`, 1);
    }
    if (data[1].length === 0) throw errors.error([1], 'no saved values; expected at least one BenchmarkGroup or Trial');
    const results: BenchmarkResult[] = [];
    data[1].forEach((value, index) => collect(value, [1, index], [], results, errors));
    if (results.length === 0) throw errors.error([1], 'the saved groups hold no Trial or TrialEstimate');
    const seen = new Set<string>();
    for (const r of results) {
      if (seen.has(r.id)) throw errors.error([1], `benchmark "${r.id}" appears twice; save one group per file or give the groups distinct keys`);
      seen.add(r.id);
    }
    return results;
  },
};

/** Walks one `[typeName, fields]` value, adding a result for each Trial or TrialEstimate under it. */
function collect(value: unknown, at: JsonPath, names: string[], out: BenchmarkResult[], errors: JsonErrors): void {
  if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'string' || !isRecord(value[1])) {
    throw errors.error(at, 'expected a ["TypeName", {fields}] pair as BenchmarkTools writes it');
  }
  const type = value[0].replace(/^BenchmarkTools\./, '');
  const fields = value[1];
  const fieldsAt = [...at, 1];
  // A value saved on its own has no key: it is named after its type, the only name it has.
  const id = names.length > 0 ? names.join('/') : type;
  switch (type) {
    case 'BenchmarkGroup': {
      if (!isRecord(fields.data)) throw errors.error([...fieldsAt, 'data'], 'expected the group\'s "data" object');
      for (const [key, child] of Object.entries(fields.data)) collect(child, [...fieldsAt, 'data', key], [...names, key], out, errors);
      return;
    }
    case 'Trial':
      out.push(trial(id, fields, fieldsAt, errors));
      return;
    case 'TrialEstimate':
      out.push(estimate(id, fields, fieldsAt, errors));
      return;
    case 'TrialRatio':
    case 'TrialJudgement':
      throw errors.error(at, `"${id}" is a ${type}, a comparison of two runs, not a measurement; save the Trials (run(suite)) or their estimates instead`);
    case 'Parameters':
      throw errors.error(at, `"${id}" holds tuning Parameters, not results; save the results of run(suite)`);
    default:
      throw errors.error([...at, 0], `unknown BenchmarkTools type "${value[0]}"; expected BenchmarkGroup, Trial or TrialEstimate`);
  }
}

function trial(id: string, fields: Record<string, unknown>, at: JsonPath, errors: JsonErrors): BenchmarkResult {
  if (!Array.isArray(fields.times)) throw errors.error([...at, 'times'], `expected "times" (nanoseconds per evaluation) for "${id}"`);
  if (fields.times.length === 0) {
    return { id, status: 'failed', error: { message: 'the Trial has no samples (the benchmark never ran)' }, metrics: {} };
  }
  const metrics: Record<string, Metric> = {};
  metrics.time = buildMetric('time', 's', { samples: nanoseconds(fields.times, [...at, 'times'], errors) }, { sourceUnit: 'ns' });
  addMemory(metrics, fields, at, errors);
  return { id, status: 'ok', metrics };
}

function estimate(id: string, fields: Record<string, unknown>, at: JsonPath, errors: JsonErrors): BenchmarkResult {
  const time = finiteOrUndefined(fields.time);
  if (time === undefined || time < 0) throw errors.error([...at, 'time'], `expected "time" in nanoseconds for "${id}"`);
  const metrics: Record<string, Metric> = { time: buildMetric('time', 's', { value: time * NS }, { sourceUnit: 'ns' }) };
  addMemory(metrics, fields, at, errors);
  return { id, status: 'ok', metrics };
}

/** `memory` (bytes) and `allocs`: Julia's minimum over the samples, per evaluation. */
function addMemory(metrics: Record<string, Metric>, fields: Record<string, unknown>, at: JsonPath, errors: JsonErrors): void {
  for (const [key, metric, unit, sourceUnit] of [
    ['memory', 'alloc_bytes', 'B', 'bytes'],
    ['allocs', 'allocs', 'count', 'allocs'],
  ] as const) {
    if (fields[key] === undefined) continue;
    const v = finiteOrUndefined(fields[key]);
    if (v === undefined || v < 0) throw errors.error([...at, key], `expected a non-negative "${key}", found ${JSON.stringify(fields[key])}`);
    metrics[metric] = buildMetric(metric, unit, { value: v }, { sourceUnit });
  }
}

function nanoseconds(values: unknown[], at: JsonPath, errors: JsonErrors): number[] {
  return values.map((v, i) => {
    const ns = finiteOrUndefined(v);
    if (ns === undefined || ns < 0) throw errors.error([...at, i], `expected a non-negative number of nanoseconds, found ${JSON.stringify(v)}`);
    return ns * NS;
  });
}
