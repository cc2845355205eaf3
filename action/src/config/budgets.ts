/**
 * Budget files (YAML, default folder budgets/): defaults for the regression
 * rule and per-benchmark limits keyed by glob. Parsing is pure (text in, typed
 * budgets out, file:line errors); `loadBudgets` is the only reader of files.
 * What the budgets mean (their types, and which rule applies to a benchmark)
 * is model/budgets.ts, so the gate can apply them without reading anything.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import {
  DEFAULT_BUDGET_DEFAULTS,
  compileGlob,
  InputError,
  parseQuantity,
  QUANTITY_HELP,
  type BudgetDefaults,
  type BudgetRule,
  type Budgets,
  type BudgetStat,
  type Dimension,
  type Limit,
  type MetricBudget,
} from '../model/index.js';
import schema from '../../schemas/budgets.schema.json' with { type: 'json' };
import { assertValid, compileSchema, parseYaml, type YamlSource } from './yaml-source.js';

/** Which dimension a known metric's values have, to catch `time: { max: 20MB }` early. */
const METRIC_DIMENSION: Record<string, Dimension> = {
  time: 'time',
  latency_p50: 'time',
  latency_p75: 'time',
  latency_p90: 'time',
  latency_p99: 'time',
  user_time: 'time',
  system_time: 'time',
  cpu_time: 'time',
  throughput: 'rate',
  requests_per_sec: 'rate',
  transfer_per_sec: 'byte-rate',
  bytes_per_second: 'byte-rate',
  'gc.alloc.rate': 'byte-rate',
  memory_peak: 'bytes',
  max_rss: 'bytes',
  alloc_bytes: 'bytes',
  'gc.alloc.rate.norm': 'bytes',
  instructions: 'count',
  cycles: 'count',
  syscalls: 'count',
  allocs: 'count',
  errors: 'count',
  l1_hits: 'count',
  ll_hits: 'count',
  ram_hits: 'count',
  total_read_write: 'count',
  estimated_cycles: 'count',
  l1_misses: 'count',
  ll_misses: 'count',
};

/** The dimension a metric's values have, when perf-gate knows it. */
export function dimensionOfMetric(metric: string): Dimension | undefined {
  return METRIC_DIMENSION[metric] ?? (metric.startsWith('syscalls.') ? 'count' : undefined);
}

let validator: ValidateFunction | undefined;

function percent(source: YamlSource, path: string[], value: unknown): number {
  const where = (detail: string): never => {
    throw new InputError(source.file, detail, source.lineOf(path), path.join('.'));
  };
  // A bare number is ambiguous (is 0.05 five per cent or a twentieth of one?): only "5%" is accepted.
  if (typeof value === 'number') return where(`expected a percentage such as 5%, found the bare number ${value}; write it with % (0.05 would be "5%")`);
  const q = parseQuantity(value as string);
  if (!q || q.dimension !== 'fraction' || q.value < 0) return where(`expected a percentage such as 5%, found ${JSON.stringify(value)}`);
  return q.value;
}

function limit(source: YamlSource, path: string[], value: unknown, metric: string): Limit {
  const q = parseQuantity(value as string | number);
  if (!q) {
    throw new InputError(source.file, `expected ${QUANTITY_HELP}, found ${JSON.stringify(value)}`, source.lineOf(path), path.join('.'));
  }
  const expected = dimensionOfMetric(metric);
  if (expected && q.dimension !== expected && !(expected === 'count' && q.dimension === 'count')) {
    throw new InputError(
      source.file,
      `"${String(value)}" is ${WORD[q.dimension]} but ${metric} is ${WORD[expected]}; expected ${WORD[expected]} such as ${EXAMPLE[expected]}`,
      source.lineOf(path),
      path.join('.'),
    );
  }
  return { value: q.value, dimension: q.dimension, text: String(value) };
}

const WORD: Record<Dimension, string> = {
  time: 'a time',
  bytes: 'a size in bytes',
  rate: 'a rate',
  'byte-rate': 'a byte rate',
  fraction: 'a percentage',
  count: 'a count',
};

const EXAMPLE: Record<Dimension, string> = {
  time: '10ms',
  bytes: '20MB',
  rate: '100/s',
  'byte-rate': '50MB/s',
  fraction: '5%',
  count: '1000',
};

/** Parses one budget file's text. Pure: the file name only labels errors. */
export function parseBudgets(
  text: string,
  file: string,
): { defaults: Partial<BudgetDefaults>; rules: BudgetRule[]; defaultLines: Record<string, number | undefined> } {
  const source = parseYaml(text, file);
  validator ??= compileSchema(schema);
  assertValid(source, validator);
  const data = source.data as {
    defaults?: Record<string, unknown>;
    benchmarks?: Record<string, Record<string, unknown>>;
  };
  const defaults: Partial<BudgetDefaults> = {};
  const defaultLines: Record<string, number | undefined> = {};
  const d = data.defaults ?? {};
  for (const key of ['regression', 'noise', 'drift'] as const) {
    if (d[key] !== undefined) {
      defaults[key] = percent(source, ['defaults', key], d[key]);
      defaultLines[key] = source.lineOf(['defaults', key]);
    }
  }
  if (d['count-regression'] !== undefined) {
    defaults.countRegression = percent(source, ['defaults', 'count-regression'], d['count-regression']);
    defaultLines.countRegression = source.lineOf(['defaults', 'count-regression']);
  }
  if (typeof d.alpha === 'number') defaults.alpha = d.alpha;
  if (d.severity === 'fail' || d.severity === 'warn') defaults.severity = d.severity;
  if (d.missing === 'show' || d.missing === 'fail') defaults.missing = d.missing;
  for (const key of ['alpha', 'severity', 'missing'] as const) if (d[key] !== undefined) defaultLines[key] = source.lineOf(['defaults', key]);

  const rules: BudgetRule[] = Object.entries(data.benchmarks ?? {}).map(([pattern, body]) => {
    const rulePath = ['benchmarks', pattern];
    if (pattern.trim() === '') throw new InputError(file, 'expected a glob on benchmark ids, found an empty key', source.lineOf(rulePath));
    const metrics: Record<string, MetricBudget> = {};
    for (const [metric, raw] of Object.entries(body ?? {})) {
      if (metric === 'ignore') continue;
      const m = raw as Record<string, unknown>;
      const path = [...rulePath, metric];
      const budget: MetricBudget = {
        stat: (m.stat as BudgetStat | undefined) ?? 'mean',
        tolerances: {},
        source: { file, line: source.lineOf(path) },
      };
      if (m.max !== undefined) budget.max = limit(source, [...path, 'max'], m.max, metric);
      if (m.min !== undefined) budget.min = limit(source, [...path, 'min'], m.min, metric);
      if (budget.max && budget.min && budget.min.value > budget.max.value) {
        throw new InputError(file, `min (${budget.min.text}) is above max (${budget.max.text})`, source.lineOf(path), path.join('.'));
      }
      if (m.regression !== undefined) budget.tolerances.regression = percent(source, [...path, 'regression'], m.regression);
      if (m.noise !== undefined) budget.tolerances.noise = percent(source, [...path, 'noise'], m.noise);
      if (m.drift !== undefined) budget.tolerances.drift = percent(source, [...path, 'drift'], m.drift);
      if (typeof m.alpha === 'number') budget.tolerances.alpha = m.alpha;
      if (m.severity === 'fail' || m.severity === 'warn') budget.severity = m.severity;
      if (m.direction === 'lower' || m.direction === 'higher') budget.direction = m.direction;
      if (m.exponent) budget.exponent = m.exponent as { param: string; max: number };
      metrics[metric] = budget;
    }
    return {
      pattern,
      matcher: compileGlob(pattern),
      specificity: [...pattern].filter((c) => c !== '*' && c !== '?').length,
      ignore: body?.ignore === true,
      metrics,
      source: { file, line: source.lineOf(rulePath) },
    };
  });
  return { defaults, rules, defaultLines };
}

/**
 * Reads every .yml/.yaml file of the given files or folders and merges them.
 * Two files setting the same default differently is an error naming both.
 */
export function loadBudgets(paths: readonly string[], cwd: string): Budgets {
  const files = paths.flatMap((p) => {
    const abs = resolve(cwd, p);
    let isDir: boolean;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      throw new InputError(p, 'no such budget file or folder');
    }
    if (!isDir) return [abs];
    return readdirSync(abs)
      .filter((n) => /\.ya?ml$/.test(n))
      .sort()
      .map((n) => join(abs, n));
  });
  const defaults: BudgetDefaults = { ...DEFAULT_BUDGET_DEFAULTS };
  const setBy: Record<string, string> = {};
  const rules: BudgetRule[] = [];
  for (const abs of files) {
    const shown = relative(cwd, abs) || abs;
    let text: string;
    try {
      text = readFileSync(abs, 'utf8');
    } catch (error) {
      throw new InputError(shown, `cannot read the budget file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    const parsed = parseBudgets(text, shown);
    for (const [key, value] of Object.entries(parsed.defaults) as [keyof BudgetDefaults, never][]) {
      const here = `${shown}:${parsed.defaultLines[key] ?? '?'}`;
      if (setBy[key] !== undefined && defaults[key] !== value) {
        const name = key === 'countRegression' ? 'count-regression' : key;
        throw new InputError(
          shown,
          `defaults.${name} is also set, differently, in ${setBy[key]}; set each default in one file`,
          parsed.defaultLines[key],
          `defaults.${name}`,
        );
      }
      defaults[key] = value;
      setBy[key] = here;
    }
    rules.push(...parsed.rules);
  }
  return { defaults, rules, files: files.map((f) => relative(cwd, f) || f) };
}
