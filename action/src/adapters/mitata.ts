import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric, buildSummary, finiteOrUndefined } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText, type JsonErrors, type JsonPath } from './json-text.js';

const NS = 1e-9;

/**
 * mitata 1.x `run({ format: 'json' })` output (`{layout, benchmarks, context}`).
 * Each run of each benchmark is one result; `args` become params and the id is
 * `name[arg=value,…]` when there are any. Times are nanoseconds per iteration:
 * `stats.samples` (when not disabled) are the time samples; without them mitata
 * gives no sample count, so the average is kept as a single value. A run that
 * threw (`error` instead of `stats`) is failed.
 */
export const mitataAdapter: Adapter = {
  name: 'mitata',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (!/^\s*\{/.test(head)) return { match: false, reason: 'not a JSON object' };
    if (!/"benchmarks"\s*:/.test(head) || !/"runs"\s*:/.test(head)) return { match: false, reason: 'no mitata "benchmarks" with "runs"' };
    if (!/"(layout|context)"\s*:/.test(text)) return { match: false, reason: 'no mitata "layout"/"context" keys' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    const data = parseJsonText(text, path, 'mitata JSON ({layout, benchmarks, context})');
    if (!isRecord(data) || !Array.isArray(data.benchmarks)) {
      throw new InputError(path, 'expected a JSON object with a "benchmarks" array (mitata run({format: "json"}))', 1);
    }
    const errors = jsonErrors(text, path);
    const results: BenchmarkResult[] = [];
    data.benchmarks.forEach((bench, b) => {
      if (!isRecord(bench) || !Array.isArray(bench.runs)) {
        throw errors.error(isRecord(bench) ? ['benchmarks', b, 'runs'] : ['benchmarks', b], 'expected a benchmark with a "runs" array');
      }
      bench.runs.forEach((run, r) => results.push(parseRun(run, ['benchmarks', b, 'runs', r], errors)));
    });
    if (results.length === 0) throw errors.error(['benchmarks'], 'the "benchmarks" hold no runs; expected at least one benchmark');
    return results;
  },
};

function parseRun(run: unknown, at: JsonPath, errors: JsonErrors): BenchmarkResult {
  if (!isRecord(run) || typeof run.name !== 'string') throw errors.error(isRecord(run) ? [...at, 'name'] : at, 'expected a run with a "name" string');
  const params = isRecord(run.args) ? Object.fromEntries(Object.entries(run.args).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])) : {};
  const keys = Object.keys(params);
  const id = keys.length ? `${run.name}[${keys.map((k) => `${k}=${params[k]}`).join(',')}]` : run.name;
  const base: BenchmarkResult = { id, status: 'ok', metrics: {} };
  if (keys.length) base.params = params;
  if (isRecord(run.error) || !isRecord(run.stats)) {
    const message = isRecord(run.error) && typeof run.error.message === 'string' ? run.error.message : 'the benchmark produced no stats';
    return { ...base, status: 'failed', error: { message } };
  }
  const stats = run.stats;
  const avg = finiteOrUndefined(stats.avg);
  if (avg === undefined || avg < 0)
    throw errors.error([...at, 'stats', 'avg'], `expected "avg" in nanoseconds per iteration, found ${JSON.stringify(stats.avg)}`);
  if (Array.isArray(stats.samples) && stats.samples.length > 0) {
    const samples = stats.samples.map((v, i) => {
      const ns = finiteOrUndefined(v);
      if (ns === undefined || ns < 0) throw errors.error([...at, 'stats', 'samples', i], `expected nanoseconds, found ${JSON.stringify(v)}`);
      return ns * NS;
    });
    const summary = buildSummary({ n: samples.length, mean: avg, median: stats.p50, min: stats.min, max: stats.max }, NS);
    base.metrics.time = buildMetric('time', 's', summary ? { samples, summary } : { samples }, { sourceUnit: 'ns' });
  } else {
    base.metrics.time = buildMetric('time', 's', { value: avg * NS }, { sourceUnit: 'ns' });
  }
  return base;
}
