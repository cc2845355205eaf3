import { InputError, scaleValue, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText, type JsonErrors, type JsonPath } from './json-text.js';

/**
 * JMH `-rf json` (`-rff results.json`): an array with one entry per benchmark
 * method, mode and parameter combination.
 *
 * The id is the method's full name with its `@Param` values in brackets, in
 * the order JMH wrote them: `pkg.Class.method[size=10,kind=a]`. The primary
 * metric follows `primaryMetric.scoreUnit`, never the mode: operations per
 * time (`ops/s`, `ops/ms`, `ops/us`, `ops/ns` …) are `throughput` (1/s, higher
 * is better: a throughput that rose is an improvement), time per operation
 * (`s/op`, `ms/op`, `us/op`, `ns/op` …) is `time` (s per operation, lower is
 * better); any other primary unit is an error. JMH itself writes `thrpt` with
 * ops/<time> and `avgt`, `sample`, `ss` with <time>/op, but a file whose mode
 * and unit disagree (hand-edited, or another tool's JSON) is read by its unit;
 * the mode only names the result (param `mode`). Units are converted to base
 * units decimally (exact inputs stay exact). Samples are `rawData`, flattened
 * fork by fork in iteration order; sample mode has a histogram per iteration instead, whose weighted mean per
 * iteration is the sample (the same per-iteration granularity as the other
 * modes). Secondary metrics (`-prof gc` and others) are metrics of their own,
 * with JMH ≤ 1.36's `·` prefix removed, each read with its own `scoreUnit` and
 * the direction of its name and unit (model/metrics.ts): `gc.alloc.rate.norm`
 * (B per op, lower), `gc.alloc.rate` (B/s; JMH's MB is 2^20 bytes; lower
 * although a rate), `gc.count` (count), `gc.time` (s), and any other secondary
 * in ops/<time> higher, in <time>/op lower;
 * sample mode's `p0.50`… percentiles become `latency_p50`…. JMH writes the
 * strings `"NaN"`, `"+INF"`, `"-INF"` for values it could not compute; those
 * are left out of the samples. When the same name appears in two modes or
 * thread counts, the mode (`mode=avgt`) or `threads=N` joins the brackets so
 * ids stay unique.
 */
export const jmhAdapter: Adapter = {
  name: 'jmh',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 8192);
    if (!/^\s*\[/.test(head)) return { match: false, reason: 'not a JSON array' };
    if (!/"jmhVersion"\s*:|"primaryMetric"\s*:/.test(head)) return { match: false, reason: 'no "jmhVersion" or "primaryMetric" key near the start' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    const data = parseJsonText(text, path, 'JMH -rf json output (an array of benchmark results)');
    if (!Array.isArray(data)) throw new InputError(path, 'expected a JSON array of JMH results (-rf json)', 1);
    if (data.length === 0) {
      throw new InputError(
        path,
        'the JMH result array is empty; expected at least one benchmark (JMH leaves out benchmarks that threw: see its console log)',
        1,
      );
    }
    const errors = jsonErrors(text, path);
    const entries = data.map((entry, index) => readEntry(entry, index, errors));
    return assemble(entries);
  },
};

/** One JMH result: a method in one mode, thread count and parameter combination, with its metrics. */
export interface JmhEntry {
  benchmark: string;
  mode: string;
  threads: number;
  params: [string, string][];
  metrics: Record<string, Metric>;
  /** Metrics the harness named but gave no number for (JMH's NaN), with why. */
  unavailable?: Record<string, string>;
  /** Why the benchmark has no result at all (its primary score is NaN): a failed row. */
  failed?: string;
}

export const JMH_MODES = new Set(['thrpt', 'avgt', 'sample', 'ss']);

/** The primary metric's name from its unit: a rate of operations is throughput, time per operation is time. */
export function primaryName(scoreUnit: unknown): string | undefined {
  if (typeof scoreUnit !== 'string') return undefined;
  const { unit } = convertUnit(scoreUnit);
  if (unit === '1/s') return 'throughput';
  if (unit === 's') return 'time';
  return undefined;
}

function readEntry(entry: unknown, index: number, errors: JsonErrors): JmhEntry {
  const at = [index];
  if (!isRecord(entry) || typeof entry.benchmark !== 'string') {
    throw errors.error(isRecord(entry) ? [...at, 'benchmark'] : at, 'expected a JMH result object with a "benchmark" string');
  }
  const mode = entry.mode;
  if (typeof mode !== 'string' || !JMH_MODES.has(mode)) {
    throw errors.error([...at, 'mode'], `expected "mode" to be one of thrpt, avgt, sample, ss; found ${JSON.stringify(mode)}`);
  }
  if (!isRecord(entry.primaryMetric)) {
    throw errors.error([...at, 'primaryMetric'], `expected a "primaryMetric" object for ${entry.benchmark}`);
  }
  const params: [string, string][] = isRecord(entry.params) ? Object.entries(entry.params).map(([k, v]) => [k, String(v)]) : [];
  const metrics: Record<string, Metric> = {};
  const name = primaryName(entry.primaryMetric.scoreUnit);
  if (name === undefined && typeof entry.primaryMetric.scoreUnit === 'string') {
    throw errors.error(
      [...at, 'primaryMetric', 'scoreUnit'],
      `expected "scoreUnit" to be operations per time (ops/s, ops/ms, ops/us, ops/ns) or time per operation (s/op, ms/op, us/op, ns/op); found ${JSON.stringify(entry.primaryMetric.scoreUnit)}`,
    );
  }
  const primary = readMetric(entry.primaryMetric, name ?? 'time', [...at, 'primaryMetric'], errors, entry.measurementIterations, entry.forks);
  if (!primary) {
    throw errors.error([...at, 'primaryMetric', 'score'], `no usable score for ${entry.benchmark}: "score" and every "rawData" value are NaN or missing`);
  }
  metrics[primary.name] = primary.metric;
  if (entry.secondaryMetrics !== undefined && !isRecord(entry.secondaryMetrics)) {
    throw errors.error([...at, 'secondaryMetrics'], 'expected "secondaryMetrics" to be an object');
  }
  for (const [label, value] of Object.entries(entry.secondaryMetrics ?? {})) {
    if (!isRecord(value)) throw errors.error([...at, 'secondaryMetrics', label], 'expected a metric object');
    const name = secondaryName(label.replace(/^\u00b7/, ''));
    const read = readMetric(value, name, [...at, 'secondaryMetrics', label], errors, entry.measurementIterations, entry.forks);
    if (read && !(read.name in metrics)) metrics[read.name] = read.metric;
  }
  return { benchmark: entry.benchmark, mode, threads: typeof entry.threads === 'number' ? entry.threads : 1, params, metrics };
}

/** Sample mode's derived percentiles `p0.50` become `latency_p50`; other labels stay as JMH names them. */
export function secondaryName(label: string): string {
  const m = /^p(\d(?:\.\d+)?)$/.exec(label);
  if (!m) return label;
  const percent = Number((Number(m[1]) * 100).toFixed(6));
  return `latency_p${percent}`;
}

/** JMH's time units (TimeUnit's short names) in seconds. */
const TIME: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, μs: 1e-6, ms: 1e-3, s: 1, sec: 1, min: 60, hr: 3600, day: 86400 };

/** 1/f, exact for powers of ten (1 / 1e-6 is 999999.9999999999 in binary). */
function inverse(f: number): number {
  const exponent = Math.round(Math.log10(f));
  return Number(`1e${exponent}`) === f ? Number(`1e${-exponent}`) : 1 / f;
}

/** A JMH unit in base units: the metric's unit and the factor into it. */
export function convertUnit(scoreUnit: string): { unit: string; factor: number } {
  // Swift package-benchmark's `--format jmh` writes its throughput as "# / s".
  if (/^#\s*\/\s*s$/.test(scoreUnit)) return { unit: '1/s', factor: 1 };
  const perTime = /^(?:ops|op)\/(\S+)$/.exec(scoreUnit);
  if (perTime && TIME[perTime[1]!] !== undefined) return { unit: '1/s', factor: inverse(TIME[perTime[1]!]!) };
  const timePer = /^(\S+)\/op$/.exec(scoreUnit);
  if (timePer && TIME[timePer[1]!] !== undefined) return { unit: 's', factor: TIME[timePer[1]!]! };
  if (TIME[scoreUnit] !== undefined) return { unit: 's', factor: TIME[scoreUnit]! };
  switch (scoreUnit) {
    case 'B/op':
    case 'B':
      return { unit: 'B', factor: 1 };
    case 'MB/sec':
    case 'MB/s':
      return { unit: 'B/s', factor: 1024 * 1024 };
    case 'counts':
    case '#':
    case '#/op':
      return { unit: 'count', factor: 1 };
    default:
      return { unit: scoreUnit, factor: 1 };
  }
}

/** JMH numbers: plain numbers, or the strings "NaN", "+INF", "-INF" (NaN for anything unreadable). */
function jmhNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (value === '+INF' || value === 'Infinity') return Number.POSITIVE_INFINITY;
  if (value === '-INF' || value === '-Infinity') return Number.NEGATIVE_INFINITY;
  return Number.NaN;
}

function readMetric(
  raw: Record<string, unknown>,
  name: string,
  at: JsonPath,
  errors: JsonErrors,
  iterations: unknown,
  forks: unknown,
): { name: string; metric: Metric } | undefined {
  if (typeof raw.scoreUnit !== 'string') {
    throw errors.error([...at, 'scoreUnit'], 'expected a "scoreUnit" string');
  }
  if (raw.score === undefined) throw errors.error([...at, 'score'], 'expected a "score"');
  if (typeof raw.score !== 'number' && typeof raw.score !== 'string') {
    throw errors.error([...at, 'score'], `expected a number or "NaN", found ${JSON.stringify(raw.score)}`);
  }
  const { unit, factor } = convertUnit(raw.scoreUnit);
  const samples = rawSamples(raw, at, errors)
    .filter(Number.isFinite)
    .map((v) => scaleValue(v, factor));
  const score = scaleValue(jmhNumber(raw.score), factor);
  const options = metricOptions(name, raw.scoreUnit);
  if (samples.length > 0) return { name, metric: buildMetric(name, unit, { samples }, options) };
  if (!Number.isFinite(score)) return undefined;
  const n = typeof iterations === 'number' && typeof forks === 'number' ? iterations * Math.max(forks, 1) : undefined;
  const metric =
    n !== undefined && n > 0
      ? buildMetric(name, unit, { summary: { n, mean: score, stddev: null } }, options)
      : buildMetric(name, unit, { value: score }, options);
  return { name, metric };
}

/** buildMetric's options for a JMH metric: its unit as JMH wrote it, and the traits of gc.churn.* under gc.alloc.rate's name. */
export function metricOptions(name: string, scoreUnit: string): { sourceUnit: string; traitsName?: string } {
  // gc.churn.<space> is an allocation rate like gc.alloc.rate: worse when higher, although its unit is a rate.
  if (/^gc\.churn\./.test(name)) return { sourceUnit: scoreUnit, traitsName: name.endsWith('.norm') ? 'gc.alloc.rate.norm' : 'gc.alloc.rate' };
  return { sourceUnit: scoreUnit };
}

/** rawData flattened fork by fork, or sample mode's per-iteration histogram means. */
function rawSamples(raw: Record<string, unknown>, at: JsonPath, errors: JsonErrors): number[] {
  const bad = (where: JsonPath, what: string): never => {
    throw errors.error(where, `expected ${what}`);
  };
  if (Array.isArray(raw.rawData)) {
    return raw.rawData.flatMap((fork, f) =>
      Array.isArray(fork) ? fork.map(jmhNumber) : bad([...at, 'rawData', f], '"rawData" to be an array of arrays (one per fork)'),
    );
  }
  if (Array.isArray(raw.rawDataHistogram)) {
    const out: number[] = [];
    const histogram = [...at, 'rawDataHistogram'];
    raw.rawDataHistogram.forEach((fork: unknown, f) => {
      if (!Array.isArray(fork)) bad([...histogram, f], '"rawDataHistogram" to be [fork][iteration][[value, count]…]');
      (fork as unknown[]).forEach((iteration, i) => {
        if (!Array.isArray(iteration)) bad([...histogram, f, i], '"rawDataHistogram" to be [fork][iteration][[value, count]…]');
        let sum = 0;
        let count = 0;
        (iteration as unknown[]).forEach((bucket, b) => {
          if (!Array.isArray(bucket) || typeof bucket[0] !== 'number' || typeof bucket[1] !== 'number') {
            bad([...histogram, f, i, b], 'histogram buckets of the form [value, count]');
          }
          const [value, n] = bucket as [number, number];
          sum += value * n;
          count += n;
        });
        if (count > 0) out.push(sum / count);
      });
    });
    return out;
  }
  return [];
}

/** Builds results, keeping ids unique: mode and thread count join the brackets only when needed. */
export function assemble(entries: JmhEntry[]): BenchmarkResult[] {
  const base = (e: JmhEntry): string => `${e.benchmark}\u0000${e.params.map(([k, v]) => `${k}=${v}`).join(',')}`;
  const modes = new Map<string, Set<string>>();
  const threads = new Map<string, Set<number>>();
  for (const e of entries) {
    modes.set(base(e), (modes.get(base(e)) ?? new Set()).add(e.mode));
    threads.set(base(e), (threads.get(base(e)) ?? new Set()).add(e.threads));
  }
  const seen = new Map<string, number>();
  return entries.map((e) => {
    const parts = e.params.map(([k, v]) => `${k}=${v}`);
    if ((threads.get(base(e))?.size ?? 0) > 1) parts.push(`threads=${e.threads}`);
    if ((modes.get(base(e))?.size ?? 0) > 1) parts.push(`mode=${e.mode}`);
    let id = parts.length ? `${e.benchmark}[${parts.join(',')}]` : e.benchmark;
    const repeat = seen.get(id) ?? 0;
    seen.set(id, repeat + 1);
    if (repeat > 0) id += ` #${repeat + 1}`;
    const params: Record<string, string> = Object.fromEntries(e.params);
    params.mode = e.mode;
    params.threads = String(e.threads);
    const unavailable = e.unavailable && Object.keys(e.unavailable).length > 0 ? { unavailable: e.unavailable } : {};
    if (e.failed !== undefined) return { id, params, status: 'failed' as const, metrics: {}, error: { message: e.failed } };
    return { id, params, status: 'ok' as const, metrics: e.metrics, ...unavailable };
  });
}
