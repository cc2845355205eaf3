import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { linesOfKey } from './key-lines.js';
import { isRecord, parseJsonText } from './json-text.js';

/**
 * JMH `-rf json` (`-rff results.json`): an array with one entry per benchmark
 * method, mode and parameter combination.
 *
 * The id is the method's full name with its `@Param` values in brackets, in
 * the order JMH wrote them: `pkg.Class.method[size=10,kind=a]`. The primary
 * metric follows the mode: `thrpt` gives `throughput` (1/s, higher is better:
 * a throughput that rose is an improvement), `avgt`, `sample` and `ss` give
 * `time` (s per operation). `scoreUnit` (`ops/ms`, `us/op` …) is converted to
 * base units. Samples are `rawData`, flattened fork by fork in iteration order;
 * sample mode has a histogram per iteration instead, whose weighted mean per
 * iteration is the sample (the same per-iteration granularity as the other
 * modes). Secondary metrics (`-prof gc` and others) are metrics of their own,
 * with JMH ≤ 1.36's `·` prefix removed: `gc.alloc.rate.norm` (B per op),
 * `gc.alloc.rate` (B/s; JMH's MB is 2^20 bytes), `gc.count`, `gc.time` (s);
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
      throw new InputError(path, 'the JMH result array is empty; expected at least one benchmark (JMH leaves out benchmarks that threw: see its console log)', 1);
    }
    const lines = linesOfKey(text, 'benchmark');
    const entries = data.map((entry, index) => readEntry(entry, index, lines[index], path));
    return assemble(entries);
  },
};

interface Entry {
  benchmark: string;
  mode: string;
  threads: number;
  params: [string, string][];
  metrics: Record<string, Metric>;
}

const MODES: Record<string, { metric: string }> = {
  thrpt: { metric: 'throughput' },
  avgt: { metric: 'time' },
  sample: { metric: 'time' },
  ss: { metric: 'time' },
};

function readEntry(entry: unknown, index: number, line: number | undefined, path: string): Entry {
  const where = `[${index}]`;
  if (!isRecord(entry) || typeof entry.benchmark !== 'string') {
    throw new InputError(path, 'expected a JMH result object with a "benchmark" string', line, where);
  }
  const mode = entry.mode;
  if (typeof mode !== 'string' || !MODES[mode]) {
    throw new InputError(path, `expected "mode" to be one of thrpt, avgt, sample, ss; found ${JSON.stringify(mode)}`, line, `${where}.mode`);
  }
  if (!isRecord(entry.primaryMetric)) {
    throw new InputError(path, `expected a "primaryMetric" object for ${entry.benchmark}`, line, `${where}.primaryMetric`);
  }
  const params: [string, string][] = isRecord(entry.params) ? Object.entries(entry.params).map(([k, v]) => [k, String(v)]) : [];
  const metrics: Record<string, Metric> = {};
  const ctx = { path, line };
  const primary = readMetric(entry.primaryMetric, MODES[mode]!.metric, `${where}.primaryMetric`, ctx, entry.measurementIterations, entry.forks);
  if (!primary) {
    throw new InputError(path, `no usable score for ${entry.benchmark}: "score" and every "rawData" value are NaN or missing`, line, `${where}.primaryMetric.score`);
  }
  metrics[primary.name] = primary.metric;
  if (entry.secondaryMetrics !== undefined && !isRecord(entry.secondaryMetrics)) {
    throw new InputError(path, 'expected "secondaryMetrics" to be an object', line, `${where}.secondaryMetrics`);
  }
  for (const [label, value] of Object.entries(entry.secondaryMetrics ?? {})) {
    if (!isRecord(value)) throw new InputError(path, 'expected a metric object', line, `${where}.secondaryMetrics.${label}`);
    const name = secondaryName(label.replace(/^\u00b7/, ''));
    const read = readMetric(value, name, `${where}.secondaryMetrics.${label}`, ctx, entry.measurementIterations, entry.forks);
    if (read && !(read.name in metrics)) metrics[read.name] = read.metric;
  }
  return { benchmark: entry.benchmark, mode, threads: typeof entry.threads === 'number' ? entry.threads : 1, params, metrics };
}

/** Sample mode's derived percentiles `p0.50` become `latency_p50`; other labels stay as JMH names them. */
function secondaryName(label: string): string {
  const m = /^p(\d(?:\.\d+)?)$/.exec(label);
  if (!m) return label;
  const percent = Number((Number(m[1]) * 100).toFixed(6));
  return `latency_p${percent}`;
}

/** A JMH unit in base units: the metric's unit and the factor into it. */
function convertUnit(scoreUnit: string): { unit: string; factor: number } {
  const time: Record<string, number> = { ns: 1e-9, us: 1e-6, 'µs': 1e-6, ms: 1e-3, s: 1, sec: 1, min: 60, hr: 3600, day: 86400 };
  const perTime = /^(?:ops|op)\/(\w+)$/.exec(scoreUnit);
  if (perTime && time[perTime[1]!] !== undefined) return { unit: '1/s', factor: 1 / time[perTime[1]!]! };
  const timePer = /^(\w+)\/op$/.exec(scoreUnit);
  if (timePer && time[timePer[1]!] !== undefined) return { unit: 's', factor: time[timePer[1]!]! };
  if (time[scoreUnit] !== undefined) return { unit: 's', factor: time[scoreUnit]! };
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
  key: string,
  ctx: { path: string; line: number | undefined },
  iterations: unknown,
  forks: unknown,
): { name: string; metric: Metric } | undefined {
  if (typeof raw.scoreUnit !== 'string') {
    throw new InputError(ctx.path, 'expected a "scoreUnit" string', ctx.line, `${key}.scoreUnit`);
  }
  if (raw.score === undefined) throw new InputError(ctx.path, 'expected a "score"', ctx.line, `${key}.score`);
  if (typeof raw.score !== 'number' && typeof raw.score !== 'string') {
    throw new InputError(ctx.path, `expected a number or "NaN", found ${JSON.stringify(raw.score)}`, ctx.line, `${key}.score`);
  }
  const { unit, factor } = convertUnit(raw.scoreUnit);
  const samples = rawSamples(raw, key, ctx).filter(Number.isFinite).map((v) => v * factor);
  const score = jmhNumber(raw.score) * factor;
  // gc.churn.<space> is an allocation rate like gc.alloc.rate: worse when higher, although its unit is a rate.
  const options = { sourceUnit: raw.scoreUnit, ...(/^gc\.churn\./.test(name) ? { traitsName: name.endsWith('.norm') ? 'gc.alloc.rate.norm' : 'gc.alloc.rate' } : {}) };
  if (samples.length > 0) return { name, metric: buildMetric(name, unit, { samples }, options) };
  if (!Number.isFinite(score)) return undefined;
  const n = typeof iterations === 'number' && typeof forks === 'number' ? iterations * Math.max(forks, 1) : undefined;
  const metric = n !== undefined && n > 0
    ? buildMetric(name, unit, { summary: { n, mean: score, stddev: null } }, options)
    : buildMetric(name, unit, { value: score }, options);
  return { name, metric };
}

/** rawData flattened fork by fork, or sample mode's per-iteration histogram means. */
function rawSamples(raw: Record<string, unknown>, key: string, ctx: { path: string; line: number | undefined }): number[] {
  const bad = (what: string): never => {
    throw new InputError(ctx.path, `expected ${what}`, ctx.line, key);
  };
  if (Array.isArray(raw.rawData)) {
    return raw.rawData.flatMap((fork) => (Array.isArray(fork) ? fork.map(jmhNumber) : bad('"rawData" to be an array of arrays (one per fork)')));
  }
  if (Array.isArray(raw.rawDataHistogram)) {
    const out: number[] = [];
    for (const fork of raw.rawDataHistogram) {
      if (!Array.isArray(fork)) bad('"rawDataHistogram" to be [fork][iteration][[value, count]…]');
      for (const iteration of fork as unknown[]) {
        if (!Array.isArray(iteration)) bad('"rawDataHistogram" to be [fork][iteration][[value, count]…]');
        let sum = 0;
        let count = 0;
        for (const bucket of iteration as unknown[]) {
          if (!Array.isArray(bucket) || typeof bucket[0] !== 'number' || typeof bucket[1] !== 'number') {
            bad('histogram buckets of the form [value, count]');
          }
          const [value, n] = bucket as [number, number];
          sum += value * n;
          count += n;
        }
        if (count > 0) out.push(sum / count);
      }
    }
    return out;
  }
  return [];
}

/** Builds results, keeping ids unique: mode and thread count join the brackets only when needed. */
function assemble(entries: Entry[]): BenchmarkResult[] {
  const base = (e: Entry): string => `${e.benchmark}\u0000${e.params.map(([k, v]) => `${k}=${v}`).join(',')}`;
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
    return { id, params, status: 'ok' as const, metrics: e.metrics };
  });
}
