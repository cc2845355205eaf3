import {
  compileGlob,
  InputError,
  metricTraits,
  type BenchmarkResult,
  type DerivedMetricConfig,
  type Direction,
  type Glob,
  type Metric,
} from '../model/index.js';
import { describe } from '../stats/index.js';
import { evaluate, ExpressionError, metricsOf, parseExpression, type Expr } from './expression.js';

/**
 * Derived metrics: `derived: { ports_per_sec: 10000 / time }` in perf-gate.yml
 * adds a metric computed from others of the same benchmark, so budgets and
 * comparisons can speak the project's language (ports per second, requests
 * per second of a load test). Pure: benchmarks in, new benchmarks out.
 */
export interface CompiledDerived {
  name: string;
  expr: Expr;
  /** The metrics the expression reads. */
  inputs: string[];
  /** The unit from the config, or null to infer it from the inputs' units. */
  unit: string | null;
  direction: Direction | null;
  matcher: Glob | null;
  /** "perf-gate.yml:12". */
  source: string;
}

/** Splits "perf-gate.yml:12" into file and line. */
function splitSource(source: string): { file: string; line: number | undefined } {
  const m = /^(.*):(\d+)$/.exec(source);
  return m ? { file: m[1]!, line: Number(m[2]) } : { file: source, line: undefined };
}

/**
 * Parses every derived metric of the config. A malformed expression is an
 * InputError naming the file, line and key (`derived.<name>`), the column and
 * what was expected; so is an expression that reads no metric or reads itself.
 */
export function compileDerived(configs: readonly DerivedMetricConfig[]): CompiledDerived[] {
  return configs.map((config) => {
    const { file, line } = splitSource(config.source);
    const key = `derived.${config.name}`;
    let expr: Expr;
    try {
      expr = parseExpression(config.expr);
    } catch (error) {
      if (error instanceof ExpressionError) {
        throw new InputError(file, `${error.detail} (column ${error.column + 1} of "${config.expr}")`, line, key);
      }
      throw error;
    }
    const inputs = metricsOf(expr);
    if (inputs.length === 0)
      throw new InputError(file, `"${config.expr}" reads no metric; expected an expression over metrics such as "10000 / time"`, line, key);
    if (inputs.includes(config.name)) throw new InputError(file, `"${config.expr}" reads the metric it defines (${config.name})`, line, key);
    return {
      name: config.name,
      expr,
      inputs,
      unit: config.unit,
      direction: config.direction,
      matcher: config.benchmarks === null ? null : compileGlob(config.benchmarks),
      source: config.source,
    };
  });
}

/**
 * The unit of an expression from its inputs' units, for the common shapes:
 * a count (or plain number) over seconds is "1/s", bytes over seconds "B/s",
 * a ratio of equal units a plain count, a sum of equal units that unit.
 * Null when the units do not combine that simply (then the config must say).
 */
export function inferUnit(expr: Expr, unitOf: (metric: string) => string): string | null {
  const plain = (u: string): boolean => u === '' || u === 'count';
  const walk = (e: Expr): string | null => {
    if (e.kind === 'number') return '';
    if (e.kind === 'metric') return unitOf(e.name);
    if (e.kind === 'negate') return walk(e.arg);
    const a = walk(e.left);
    const b = walk(e.right);
    if (a === null || b === null) return null;
    if (e.op === '+' || e.op === '-') return a === b || (plain(a) && plain(b)) ? a : null;
    if (e.op === '*') return plain(a) ? b : plain(b) ? a : null;
    if (plain(b)) return a;
    if (a === b) return '';
    if (b === 's' && plain(a)) return '1/s';
    if (b === 's' && a === 'B') return 'B/s';
    return null;
  };
  const unit = walk(expr);
  return unit === '' ? 'count' : unit;
}

/** Derived metrics added to each benchmark, and what could not be derived (one sentence each). */
export interface DerivedResult {
  benchmarks: BenchmarkResult[];
  warnings: string[];
}

/**
 * Adds each derived metric to every benchmark that has all its inputs, in
 * declaration order (a later one may read an earlier one). Per sample when
 * every input has samples of the same length (interleaved or repeated runs
 * of one harness line up index by index), so the derived metric keeps its
 * spread and the gate can test it; otherwise from each input's central value
 * (the mean of its samples or summary, or its single value), giving a single
 * value. Failed benchmarks are left alone; a harness metric of the same name
 * is kept and the derivation skipped, with a warning; a non-finite result
 * (division by zero) is skipped with a warning.
 */
export function applyDerived(benchmarks: readonly BenchmarkResult[], derived: readonly CompiledDerived[]): DerivedResult {
  const warnings: string[] = [];
  const applied = new Map<string, number>();
  const result = benchmarks.map((benchmark) => {
    if (benchmark.status !== 'ok') return benchmark;
    let metrics = benchmark.metrics;
    for (const d of derived) {
      if (d.matcher && !d.matcher.test(benchmark.id)) continue;
      if (!d.inputs.every((m) => metrics[m] !== undefined)) continue;
      if (metrics[d.name] !== undefined) {
        warnings.push(`${benchmark.id}: the harness already reports "${d.name}"; the derived metric of ${d.source} is not applied`);
        continue;
      }
      const metric = derive(d, metrics);
      if (typeof metric === 'string') {
        warnings.push(`${benchmark.id}: ${d.name} (${d.source}) ${metric}`);
        continue;
      }
      metrics = { ...metrics, [d.name]: metric };
      applied.set(d.name, (applied.get(d.name) ?? 0) + 1);
    }
    return metrics === benchmark.metrics ? benchmark : { ...benchmark, metrics };
  });
  for (const d of derived) {
    if (!applied.has(d.name) && benchmarks.length > 0) {
      warnings.push(
        `derived metric "${d.name}" (${d.source}) applied to no benchmark: none had ${d.inputs.map((m) => `"${m}"`).join(' and ')}${d.matcher ? ' among the matching ids' : ''}`,
      );
    }
  }
  return { benchmarks: result, warnings };
}

/** One derived metric over one benchmark's metrics, or the reason it cannot be computed. */
function derive(d: CompiledDerived, metrics: Record<string, Metric>): Metric | string {
  const inputs = d.inputs.map((m) => metrics[m]!);
  const unit = d.unit ?? inferUnit(d.expr, (m) => metrics[m]!.unit) ?? 'count';
  const direction = metricTraits(d.name, unit, d.direction ?? undefined).direction;
  const exact = inputs.every((m) => m.exact === true);
  const base: Metric = { unit, direction, sourceUnit: unit, ...(exact ? { exact } : {}) };
  const lengths = new Set(inputs.map((m) => m.samples?.length ?? 0));
  const [length] = [...lengths];
  if (lengths.size === 1 && length !== undefined && length > 0) {
    const samples = Array.from({ length }, (_, i) => evaluate(d.expr, (m) => metrics[m]!.samples![i]!));
    const bad = samples.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) return `is not finite at sample ${bad + 1} (${samples[bad]}); not derived`;
    const s = describe(samples);
    return {
      ...base,
      samples,
      summary: { n: s.n, mean: s.mean, stddev: Number.isFinite(s.stddev) ? s.stddev : null, median: s.median, min: s.min, max: s.max },
    };
  }
  const value = evaluate(d.expr, (m) => central(metrics[m]!));
  if (!Number.isFinite(value)) return `is not finite (${value}); not derived`;
  return { ...base, value };
}

/** A metric's central value: the mean of its samples, its summary's mean, or its single value. */
function central(metric: Metric): number {
  if (metric.samples && metric.samples.length > 0) return metric.samples.reduce((a, b) => a + b, 0) / metric.samples.length;
  if (metric.summary) return metric.summary.mean;
  return metric.value ?? NaN;
}
