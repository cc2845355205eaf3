/**
 * Budget files (YAML, default folder budgets/): defaults for the regression
 * rule and per-benchmark limits keyed by glob. Parsing is pure (text in, typed
 * budgets out, file:line errors); `loadBudgets` is the only reader of files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { InputError, parseQuantity, QUANTITY_HELP, type Dimension, type Direction } from '../model/index.js';
import schema from '../../schemas/budgets.schema.json' with { type: 'json' };
import { assertValid, compileSchema, parseYaml, type YamlSource } from './yaml-source.js';

/** The knobs of the regression rule (fractions; alpha a probability). */
export interface Tolerances {
  regression: number;
  noise: number;
  alpha: number;
  /** Between-run drift of a run's level (fraction); 0 when unknown. */
  drift: number;
}

/** Where something was written: "budgets/scan.yml:7". */
export interface SourceRef {
  file: string;
  line: number | undefined;
}

export function formatSource(source: SourceRef): string {
  return source.line === undefined ? source.file : `${source.file}:${source.line}`;
}

export interface Limit {
  /** In base units (seconds, bytes, 1/s …). */
  value: number;
  dimension: Dimension;
  /** As written, for the report ("10ms"). */
  text: string;
}

export type BudgetStat = 'mean' | 'median' | 'p95' | 'max' | 'min';

export interface MetricBudget {
  max?: Limit;
  min?: Limit;
  stat: BudgetStat;
  tolerances: Partial<Tolerances>;
  severity?: 'fail' | 'warn';
  direction?: Direction;
  exponent?: { param: string; max: number };
  source: SourceRef;
}

export interface BudgetRule {
  /** The glob as written. */
  pattern: string;
  matcher: RegExp;
  /** Literal characters in the glob: more means more specific. */
  specificity: number;
  ignore: boolean;
  metrics: Record<string, MetricBudget>;
  source: SourceRef;
}

export interface BudgetDefaults extends Tolerances {
  severity: 'fail' | 'warn';
  /** "fail": a benchmark of the baseline absent from the current run fails the gate. */
  missing: 'show' | 'fail';
}

export interface Budgets {
  defaults: BudgetDefaults;
  rules: BudgetRule[];
  files: string[];
}

/**
 * perf-gate's defaults when no budget file says otherwise (docs/design.md). The 2 %
 * drift is the low end of the block drift measured on these machines: a stored
 * baseline was measured at another time, so a shift that small is not evidence
 * (docs/detection.md measures what it buys). Interleaved runs ignore it.
 */
export const DEFAULT_BUDGET_DEFAULTS: BudgetDefaults = { regression: 0.05, noise: 0.01, alpha: 0.01, drift: 0.02, severity: 'fail', missing: 'show' };

export const EMPTY_BUDGETS: Budgets = { defaults: DEFAULT_BUDGET_DEFAULTS, rules: [], files: [] };

/** Which dimension a known metric's values have, to catch `time: { max: 20MB }` early. */
const METRIC_DIMENSION: Record<string, Dimension> = {
  time: 'time', latency_p50: 'time', latency_p75: 'time', latency_p90: 'time', latency_p99: 'time', user_time: 'time', system_time: 'time',
  cpu_time: 'time',
  throughput: 'rate', requests_per_sec: 'rate', transfer_per_sec: 'byte-rate', bytes_per_second: 'byte-rate', 'gc.alloc.rate': 'byte-rate',
  memory_peak: 'bytes', max_rss: 'bytes', alloc_bytes: 'bytes', 'gc.alloc.rate.norm': 'bytes',
  instructions: 'count', cycles: 'count', syscalls: 'count', allocs: 'count', errors: 'count',
};

/** The dimension a metric's values have, when perf-gate knows it. */
export function dimensionOfMetric(metric: string): Dimension | undefined {
  return METRIC_DIMENSION[metric] ?? (metric.startsWith('syscalls.') ? 'count' : undefined);
}

let validator: ValidateFunction | undefined;

/** Turns a glob into a regular expression: `*` any text (including `/`), `?` one character, the rest literal. */
export function globToRegExp(glob: string): RegExp {
  const body = [...glob].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, 's');
}

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
  time: 'a time', bytes: 'a size in bytes', rate: 'a rate', 'byte-rate': 'a byte rate', fraction: 'a percentage', count: 'a count',
};

const EXAMPLE: Record<Dimension, string> = {
  time: '10ms', bytes: '20MB', rate: '100/s', 'byte-rate': '50MB/s', fraction: '5%', count: '1000',
};

/** Parses one budget file's text. Pure: the file name only labels errors. */
export function parseBudgets(text: string, file: string): { defaults: Partial<BudgetDefaults>; rules: BudgetRule[]; defaultLines: Record<string, number | undefined> } {
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
      matcher: globToRegExp(pattern),
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
        throw new InputError(shown, `defaults.${key} is also set, differently, in ${setBy[key]}; set each default in one file`, parsed.defaultLines[key], `defaults.${key}`);
      }
      defaults[key] = value;
      setBy[key] = here;
    }
    rules.push(...parsed.rules);
  }
  return { defaults, rules, files: files.map((f) => relative(cwd, f) || f) };
}

/** What applies to one benchmark × metric. */
export interface ResolvedBudget {
  ignore: boolean;
  tolerances: Tolerances;
  severity: 'fail' | 'warn';
  direction?: Direction;
  /** The limits, when a rule sets them for this metric. */
  budget?: MetricBudget;
  /** The rule whose metric entry applied (for unused-glob accounting). */
  rule?: BudgetRule;
}

/**
 * Resolves the budget of one benchmark × metric, field by field: the matching
 * rules are taken from the most specific (most literal characters; ties in
 * file order) to the least, and each setting comes from the first rule that
 * sets it — so `"scan/sweep-*": { time: { severity: warn } }` keeps the
 * `max` of a broader `"scan/*"` rule. `max`/`min` and their `stat` travel
 * together. A rule-level `ignore` applies unless a more specific rule sets
 * this metric.
 */
export function resolveBudget(budgets: Budgets, benchmarkId: string, metric: string): ResolvedBudget {
  const ordered = budgets.rules
    .map((rule, index) => ({ rule, index }))
    .filter(({ rule }) => rule.matcher.test(benchmarkId))
    .sort((a, b) => b.rule.specificity - a.rule.specificity || a.index - b.index)
    .map(({ rule }) => rule);
  const entries = ordered.flatMap((rule) => (rule.metrics[metric] ? [{ rule, budget: rule.metrics[metric]! }] : []));
  const first = <T>(pick: (b: MetricBudget) => T | undefined): T | undefined => {
    for (const e of entries) {
      const value = pick(e.budget);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const limits = entries.find((e) => e.budget.max !== undefined || e.budget.min !== undefined)?.budget;
  const severity = first((b) => b.severity);
  const direction = first((b) => b.direction);
  const exponent = first((b) => b.exponent);
  const tolerances: Partial<Tolerances> = {};
  for (const key of ['regression', 'noise', 'alpha', 'drift'] as const) {
    const value = first((b) => b.tolerances[key]);
    if (value !== undefined) tolerances[key] = value;
  }
  const budget: MetricBudget | undefined =
    entries.length === 0
      ? undefined
      : {
          ...(limits?.max ? { max: limits.max } : {}),
          ...(limits?.min ? { min: limits.min } : {}),
          stat: limits?.stat ?? 'mean',
          tolerances,
          ...(severity ? { severity } : {}),
          ...(direction ? { direction } : {}),
          ...(exponent ? { exponent } : {}),
          source: (limits ?? entries[0]!.budget).source,
        };
  const rule = entries[0]?.rule;
  const ignoreRule = ordered.find((r) => r.ignore);
  const d = budgets.defaults;
  return {
    ignore: ignoreRule !== undefined && (rule === undefined || ignoreRule.specificity >= rule.specificity),
    tolerances: {
      regression: tolerances.regression ?? d.regression,
      noise: tolerances.noise ?? d.noise,
      alpha: tolerances.alpha ?? d.alpha,
      drift: tolerances.drift ?? d.drift,
    },
    severity: severity ?? d.severity,
    ...(direction ? { direction } : {}),
    ...(budget ? { budget } : {}),
    ...(rule ? { rule } : {}),
  };
}
