import { maxOf, minOf, type BenchmarkResult, type Metric, type ResultSet, type Summary } from '../../model/index.js';

/**
 * Several runs of one commit (re-runs) as one baseline. Pure.
 *
 * - Samples are concatenated per benchmark and metric, in run order (a
 *   re-run is more of the same measurement, not a second opinion to vote on).
 * - A benchmark is failed only if it failed in every run that has it; else
 *   only its ok runs are pooled.
 * - Metrics given as summaries are pooled as one summary (n, mean, pooled
 *   standard deviation, min, max); single values become their median.
 * - A metric whose unit differs from the first run's is left out of the pool,
 *   with a warning: mixing units would be silently wrong.
 * - `created` is the latest run's; `design` is dropped when runs were
 *   interleaved, since rounds of different runs do not pair.
 */
export interface PooledRuns {
  set: ResultSet;
  /** How many runs were pooled. */
  runs: number;
  /** What the pool had to leave out or change, one sentence each. */
  warnings: string[];
}

export function poolRuns(sets: readonly ResultSet[]): PooledRuns {
  if (sets.length === 0) throw new Error('poolRuns needs at least one run');
  if (sets.length === 1) return { set: sets[0]!, runs: 1, warnings: [] };
  const warnings: string[] = [];
  const ids: string[] = [];
  const members = new Map<string, BenchmarkResult[]>();
  for (const set of sets) {
    for (const b of set.benchmarks) {
      if (!members.has(b.id)) {
        ids.push(b.id);
        members.set(b.id, []);
      }
      members.get(b.id)!.push(b);
    }
  }
  const benchmarks = ids.map((id) => poolBenchmark(members.get(id)!, warnings));
  const first = sets[0]!;
  const created = sets.map((s) => s.created).reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
  const designs = new Set(sets.map((s) => s.design ?? 'sequential'));
  const set: ResultSet = { schema: first.schema, created, benchmarks };
  if (first.commit !== undefined) set.commit = first.commit;
  if (first.ref !== undefined) set.ref = first.ref;
  if (first.testbed !== undefined) set.testbed = first.testbed;
  if (designs.has('interleaved')) warnings.push(`${sets.length} runs pooled: interleaved rounds of different runs do not pair, so the pool is sequential`);
  return { set, runs: sets.length, warnings };
}

function poolBenchmark(runs: readonly BenchmarkResult[], warnings: string[]): BenchmarkResult {
  const ok = runs.filter((r) => r.status === 'ok');
  if (ok.length === 0) return runs.at(-1)!;
  const first = ok[0]!;
  const names: string[] = [];
  for (const r of ok) for (const name of Object.keys(r.metrics)) if (!names.includes(name)) names.push(name);
  const metrics: Record<string, Metric> = {};
  for (const name of names) {
    const all = ok.flatMap((r) => (r.metrics[name] !== undefined ? [r.metrics[name]] : []));
    const unit = all[0]!.unit;
    const same = all.filter((m) => m.unit === unit);
    if (same.length < all.length)
      warnings.push(`${first.id} ${name}: ${all.length - same.length} run(s) measured in another unit than ${unit}, left out of the pool`);
    metrics[name] = poolMetric(same);
  }
  const pooled: BenchmarkResult = { ...first, status: 'ok', metrics };
  delete pooled.error;
  const unavailable = Object.fromEntries(ok.flatMap((r) => Object.entries(r.unavailable ?? {})).filter(([name]) => metrics[name] === undefined));
  if (Object.keys(unavailable).length > 0) pooled.unavailable = unavailable;
  else delete pooled.unavailable;
  return pooled;
}

function poolMetric(all: readonly Metric[]): Metric {
  const first = all[0]!;
  const base: Metric = { unit: first.unit, direction: first.direction };
  if (first.sourceUnit !== undefined) base.sourceUnit = first.sourceUnit;
  if (all.every((m) => m.exact === true)) base.exact = true;
  if (all.some((m) => m.directionUnknown === true)) base.directionUnknown = true;
  if (all.length === 1) return first;
  if (all.every((m) => m.samples !== undefined && m.samples.length > 0)) return { ...base, samples: all.flatMap((m) => m.samples!) };
  const summaries = all.map(summaryOf);
  if (summaries.every((s) => s !== undefined)) return { ...base, summary: poolSummaries(summaries as Summary[]) };
  const values = all.map((m) => m.value).filter((v): v is number => v !== undefined);
  return values.length > 0 ? { ...base, value: median(values) } : all.at(-1)!;
}

function summaryOf(m: Metric): Summary | undefined {
  if (m.samples !== undefined && m.samples.length > 0) {
    const n = m.samples.length;
    const mean = m.samples.reduce((a, b) => a + b, 0) / n;
    const stddev = n > 1 ? Math.sqrt(m.samples.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) : null;
    return { n, mean, stddev, min: minOf(m.samples), max: maxOf(m.samples) };
  }
  return m.summary;
}

/** The summary of all samples together: within-run plus between-run variance. */
function poolSummaries(all: readonly Summary[]): Summary {
  const n = all.reduce((a, s) => a + s.n, 0);
  const mean = all.reduce((a, s) => a + s.n * s.mean, 0) / n;
  const known = all.every((s) => typeof s.stddev === 'number' || s.n === 1);
  const ss = all.reduce((a, s) => a + (s.n - 1) * (s.stddev ?? 0) ** 2 + s.n * (s.mean - mean) ** 2, 0);
  const out: Summary = { n, mean, stddev: known && n > 1 ? Math.sqrt(ss / (n - 1)) : null };
  if (all.every((s) => s.min !== undefined)) out.min = minOf(all.map((s) => s.min!));
  if (all.every((s) => s.max !== undefined)) out.max = maxOf(all.map((s) => s.max!));
  return out;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
