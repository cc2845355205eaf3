/**
 * The release report as data (`perf-gate report release`, the action's
 * `mode: release`): the gate's comparison of the candidate with the previous
 * release, the change points the run history shows between the two, and what
 * to do next. Pure: the decided report and the change rows in, the model out;
 * pipeline/history/release-report.ts reads the history, report/release.ts words it.
 * Nothing here changes a verdict: go is the gate's pass.
 */
import type { BudgetCheck, GateReport, VerdictRow } from './types.js';
import type { ChangeRow } from './change-rows.js';

export const RELEASE_SCHEMA = 'perf-gate/release@1';

/**
 * A budget with less than this share of its limit left is "close": the next
 * few percent of drift break it, so it is worth a look before release.
 */
export const NEAR_LIMIT = 0.1;

/** One side of the release comparison. */
export interface ReleaseSide {
  /** How it was named: a tag ("v1.0.0"), a ref, or a commit. */
  name: string;
  /** Its full commit, when known. */
  commit: string | null;
  /** Runs of the history pooled into this side; null when it was measured now or read from files. */
  runs: number | null;
}

/** A change point between the releases, with the size of its commit range. */
export interface ReleaseChange extends ChangeRow {
  /** First-parent commits in previousCommit..commit (1: `commit` alone brought it); null when unknown. */
  commits: number | null;
}

/** A range to bisect for one benchmark: a slower change point, or a regression the history could not place. */
export interface BisectAdvice {
  benchmark: string;
  metric: string;
  /** The last commit at the old level (bisect's good). */
  good: string;
  /** The first commit at the new level (bisect's bad). */
  bad: string;
  /** First-parent commits in good..bad; null when unknown. */
  commits: number | null;
  /** The size of the step (a change point's, or the gate's Δ); null when unknown. */
  change: number | null;
  interval: [number, number] | null;
  /** Where the range comes from: a change point of the history, or the whole release range of a regressed row. */
  from: 'change-point' | 'regression';
}

/** A benchmark whose numbers cannot be trusted as they are: measure it again. */
export interface RemeasureAdvice {
  benchmark: string;
  metric: string;
  why: Array<'inconclusive' | 'noisier'>;
  /** Samples per side that would decide an inconclusive row; null when more samples would not. */
  samplesNeeded: number | null;
  /** Current stddev ÷ baseline stddev of a noisier row; null when unknown. */
  stddevRatio: number | null;
}

/** A budget the candidate keeps, but narrowly. */
export interface NearLimitAdvice {
  benchmark: string;
  metric: string;
  unit: string;
  budget: BudgetCheck;
  /** The share of the limit left: (limit − value) / |limit| for a maximum, the other way for a minimum. */
  headroom: number;
}

export interface ReleaseRecommendations {
  bisect: BisectAdvice[];
  remeasure: RemeasureAdvice[];
  nearLimit: NearLimitAdvice[];
}

/** The counts the executive summary gives. */
export interface ReleaseSummary {
  /** Rows compared (benchmark × metric). */
  compared: number;
  regressions: number;
  budgetFailures: number;
  budgetWarnings: number;
  noisier: number;
  failed: number;
  inconclusive: number;
  /** Change points between the releases; null when no run history was read. */
  changePoints: number | null;
  slowerChangePoints: number | null;
}

export interface ReleaseModel {
  schema: typeof RELEASE_SCHEMA;
  verdict: 'go' | 'no-go';
  previous: ReleaseSide | null;
  candidate: ReleaseSide | null;
  /** The testbed both sides and the change points come from; null when not from a history. */
  testbed: string | null;
  summary: ReleaseSummary;
  report: GateReport;
  /** Change points between the releases, newest first; null when no run history was read. */
  changes: ReleaseChange[] | null;
  /** Runs of the history between the releases (both included) the change points were looked for in; null without a history. */
  historyRuns: number | null;
  recommendations: ReleaseRecommendations;
  /** The repository's web address (https://github.com/owner/name), for compare links; null when unknown. */
  repositoryUrl: string | null;
}

export interface ReleaseInput {
  report: GateReport;
  previous?: ReleaseSide | null;
  candidate?: ReleaseSide | null;
  testbed?: string | null;
  /** The change rows of the runs between the releases; null or absent: no history was read. */
  changes?: readonly ChangeRow[] | null;
  historyRuns?: number | null;
  /** The first-parent commits from the previous release to the candidate, oldest first, to count a range's commits. */
  chain?: readonly string[];
  repositoryUrl?: string | null;
}

/** First-parent commits in good..bad along `chain` (oldest first); null when either is not on it. */
function commitsBetween(chain: readonly string[] | undefined, good: string, bad: string): number | null {
  if (!chain) return null;
  const from = chain.indexOf(good);
  const to = chain.indexOf(bad);
  return from >= 0 && to > from ? to - from : null;
}

function isNoisier(row: VerdictRow): boolean {
  return row.flags.includes('noisier');
}

/** The share of a budget's limit the checked value leaves; null where a share means nothing (a zero or infinite limit). */
export function budgetHeadroom(budget: BudgetCheck): number | null {
  if (!Number.isFinite(budget.limit) || budget.limit === 0 || !Number.isFinite(budget.value)) return null;
  const left = budget.kind === 'max' ? budget.limit - budget.value : budget.value - budget.limit;
  return left / Math.abs(budget.limit);
}

function stddevRatio(row: VerdictRow): number | null {
  const before = row.baseline?.stddev;
  const after = row.current?.stddev;
  if (typeof before !== 'number' || typeof after !== 'number' || before <= 0) return null;
  const ratio = after / before;
  return Number.isFinite(ratio) ? ratio : null;
}

/**
 * What to do next. Bisect every slower change point (its range is where the
 * step came in), biggest step first; a regressed row the history shows no
 * step for is bisected over the whole release. Re-measure what the gate could
 * not decide or what got noisier. Look at budgets kept with less than
 * NEAR_LIMIT of their limit left.
 */
export function recommend(
  report: GateReport,
  changes: readonly ReleaseChange[],
  sides: { good: string | null; bad: string | null; chain?: readonly string[]; repositoryUrl: string | null },
): ReleaseRecommendations {
  const slower = changes.filter((c) => c.regression);
  const placed = new Set(slower.map((c) => `${c.benchmark}\u0000${c.metric}`));
  const bisect: BisectAdvice[] = slower
    .map((c): BisectAdvice => ({
      benchmark: c.benchmark,
      metric: c.metric,
      good: c.previousCommit,
      bad: c.commit,
      commits: c.commits,
      change: c.change,
      interval: c.interval,
      from: 'change-point',
    }))
    .sort((p, q) => Math.abs(q.change ?? 0) - Math.abs(p.change ?? 0));
  const { good, bad } = sides;
  if (good !== null && bad !== null && good !== bad) {
    for (const row of report.rows) {
      if (row.status !== 'regressed' || placed.has(`${row.benchmark}\u0000${row.metric}`)) continue;
      bisect.push({
        benchmark: row.benchmark,
        metric: row.metric,
        good,
        bad,
        commits: commitsBetween(sides.chain, good, bad),
        change: row.change,
        interval: row.ci,
        from: 'regression',
      });
    }
  }
  const remeasure: RemeasureAdvice[] = report.rows
    .filter((r) => r.status === 'inconclusive' || isNoisier(r))
    .map((r) => ({
      benchmark: r.benchmark,
      metric: r.metric,
      why: [...(r.status === 'inconclusive' ? ['inconclusive' as const] : []), ...(isNoisier(r) ? ['noisier' as const] : [])],
      samplesNeeded: r.status === 'inconclusive' ? r.samplesNeeded : null,
      stddevRatio: isNoisier(r) ? stddevRatio(r) : null,
    }));
  const nearLimit: NearLimitAdvice[] = report.rows
    .flatMap((r) => {
      if (r.budget === null || r.budget.result !== 'pass') return [];
      const headroom = budgetHeadroom(r.budget);
      return headroom !== null && headroom < NEAR_LIMIT ? [{ benchmark: r.benchmark, metric: r.metric, unit: r.unit, budget: r.budget, headroom }] : [];
    })
    .sort((p, q) => p.headroom - q.headroom);
  return { bisect, remeasure, nearLimit };
}

/** The release model: the gate's report, the change points between the releases, the summary counts and the recommendations. */
export function assembleRelease(input: ReleaseInput): ReleaseModel {
  const { report } = input;
  const repositoryUrl = input.repositoryUrl ?? null;
  const changes: ReleaseChange[] | null = input.changes
    ? input.changes.map((c) => ({
        ...c,
        commits: commitsBetween(input.chain, c.previousCommit, c.commit),
      }))
    : null;
  const previous = input.previous ?? null;
  const candidate = input.candidate ?? null;
  const good = previous?.commit ?? report.baseline?.commit ?? null;
  const bad = candidate?.commit ?? report.current.commit ?? null;
  return {
    schema: RELEASE_SCHEMA,
    verdict: report.verdict === 'pass' ? 'go' : 'no-go',
    previous,
    candidate,
    testbed: input.testbed ?? null,
    summary: {
      compared: report.rows.length,
      regressions: report.counts.regressed,
      budgetFailures: report.counts.budgetFailed,
      budgetWarnings: report.counts.budgetWarned,
      noisier: report.rows.filter(isNoisier).length,
      failed: report.counts.failed,
      inconclusive: report.counts.inconclusive,
      changePoints: changes ? changes.length : null,
      slowerChangePoints: changes ? changes.filter((c) => c.regression).length : null,
    },
    report,
    changes,
    historyRuns: input.historyRuns ?? null,
    recommendations: recommend(report, changes ?? [], { good, bad, ...(input.chain ? { chain: input.chain } : {}), repositoryUrl }),
    repositoryUrl,
  };
}
