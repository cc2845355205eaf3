/**
 * What a budget says, as data: the tolerances of the regression rule, absolute
 * limits per metric, rules keyed by glob, and how the rules that match one
 * benchmark × metric combine into the budget that applies to it. Pure: the
 * budget files are read and parsed by config/budgets.ts, and the gate applies
 * resolved budgets without knowing where they came from.
 */
import type { Direction } from './result-set.js';
import type { Dimension } from './units.js';
import type { Glob } from './glob.js';

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
  matcher: Glob;
  /** Literal characters in the glob: more means more specific. */
  specificity: number;
  ignore: boolean;
  metrics: Record<string, MetricBudget>;
  source: SourceRef;
}

export interface BudgetDefaults extends Tolerances {
  /** The regression tolerance of exact counts where no budget rule sets one for the metric. */
  countRegression: number;
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
 * perf-gate's defaults when no budget file says otherwise (docs/design.md).
 * Exact counts (instructions, cache misses) do not drift between runs, so
 * their default tolerance is 0.5 %, tighter than time's 5 %: a 1 % change in
 * work is a 1 % change in the count (docs/counting.md). The 2 %
 * drift is the low end of the block drift measured on these machines: a stored
 * baseline was measured at another time, so a shift that small is not evidence
 * (docs/detection.md measures what it buys). Interleaved runs ignore it.
 */
export const DEFAULT_BUDGET_DEFAULTS: BudgetDefaults = {
  regression: 0.05,
  noise: 0.01,
  alpha: 0.01,
  drift: 0.02,
  countRegression: 0.005,
  severity: 'fail',
  missing: 'show',
};

/** The smallest significance level any budget asks for (the defaults' or a rule's). */
export function smallestAlpha(budgets: Budgets): number {
  const set = budgets.rules.flatMap((rule) => Object.values(rule.metrics).flatMap((m) => (m.tolerances.alpha !== undefined ? [m.tolerances.alpha] : [])));
  return Math.min(budgets.defaults.alpha, ...set);
}

export const EMPTY_BUDGETS: Budgets = { defaults: DEFAULT_BUDGET_DEFAULTS, rules: [], files: [] };

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
  const ordered = rulesByIndex(budgets).matching(benchmarkId);
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

/**
 * The rules that match an id, most specific first (ties in file order), found
 * through an index rather than by testing every rule: each rule is filed
 * under its glob's literal prefix (or, when it starts with a wildcard, its
 * literal suffix), so an id is tested only against the rules whose literal
 * ends it has. 10,000 rules × 100,000 ids stays seconds (npm run bench:scale).
 */
class RuleIndex {
  private readonly byPrefix = new Map<string, number[]>();
  private readonly prefixLengths: number[];
  private readonly bySuffix = new Map<string, number[]>();
  private readonly suffixLengths: number[];
  private readonly everywhere: number[] = [];
  private readonly cache = new Map<string, BudgetRule[]>();

  constructor(private readonly rules: readonly BudgetRule[]) {
    const file = (map: Map<string, number[]>, key: string, i: number): void => {
      const list = map.get(key);
      if (list) list.push(i);
      else map.set(key, [i]);
    };
    rules.forEach((rule, i) => {
      const { prefix, suffix } = rule.matcher;
      if (prefix !== '') file(this.byPrefix, prefix, i);
      else if (suffix !== '') file(this.bySuffix, suffix, i);
      else this.everywhere.push(i);
    });
    this.prefixLengths = [...new Set([...this.byPrefix.keys()].map((k) => k.length))];
    this.suffixLengths = [...new Set([...this.bySuffix.keys()].map((k) => k.length))];
  }

  matching(id: string): BudgetRule[] {
    const hit = this.cache.get(id);
    if (hit) return hit;
    const candidates = [...this.everywhere];
    for (const length of this.prefixLengths) {
      if (length <= id.length) candidates.push(...(this.byPrefix.get(id.slice(0, length)) ?? []));
    }
    for (const length of this.suffixLengths) {
      if (length <= id.length) candidates.push(...(this.bySuffix.get(id.slice(id.length - length)) ?? []));
    }
    const ordered = candidates
      .filter((i) => (this.rules[i] as BudgetRule).matcher.test(id))
      .sort((a, b) => (this.rules[b] as BudgetRule).specificity - (this.rules[a] as BudgetRule).specificity || a - b)
      .map((i) => this.rules[i] as BudgetRule);
    this.cache.set(id, ordered);
    return ordered;
  }
}

/** The rules whose glob matches `id`, most specific first (ties in file order). */
export function matchingRules(budgets: Budgets, id: string): readonly BudgetRule[] {
  return rulesByIndex(budgets).matching(id);
}

const indexes = new WeakMap<readonly BudgetRule[], RuleIndex>();

function rulesByIndex(budgets: Budgets): RuleIndex {
  let index = indexes.get(budgets.rules);
  if (!index) {
    index = new RuleIndex(budgets.rules);
    indexes.set(budgets.rules, index);
  }
  return index;
}
