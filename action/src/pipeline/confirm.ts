/**
 * The second stage of a pull request's two-stage verdict: the screen's
 * suspects (gate/screen.ts) are measured again, interleaved against the base
 * commit in a temporary worktree, suite by suite (only the suites that hold
 * a suspect), with the adaptive rounds and confirmation of `run --ab`. The
 * interleaved rows then replace the suspects' (gate/two-stage.ts). When the
 * base cannot be measured — no commit, not in the checkout, refused, it does
 * not build, the time cap — each suspect says so and becomes `suspected`.
 * Only the suspects run: a `commands:` suite re-measures its suspect
 * commands, a harness suite selects its suspect benchmarks in short rounds
 * (runner/select-benchmarks.ts) where its harness can.
 */
import { join } from 'node:path';
import type { PerfGateConfig, SuiteConfig } from '../config/perf-gate-config.js';
import {
  BINARY_START_SECONDS,
  budgetConfirmation,
  HARNESS_START_SECONDS,
  mergeStages,
  screenedSlowdown,
  screenReport,
  type ConfirmBudget,
  type GateReport,
  type SuiteCostFacts,
  type SuiteTiming,
  type TwoStages,
  type Unconfirmed,
  type VerdictRow,
} from '../gate/index.js';
import { rowKey, type Budgets, type ResultSet } from '../model/index.js';
import { CATCH2_TEST_CASE, narrowSuite } from '../runner/select-benchmarks.js';
import { STOPPED_BY_CAP } from '../runner/invoke.js';
import { compiledGoSuite } from '../runner/go-test-binary.js';
import type { GateOptions } from './gate.js';
import { compareInterleaved, MissingCommitError, suiteOf, type ComparisonMeasurement } from './interleaved.js';
import type { RunContext } from './run-deps.js';

/** How a run confirms its screen's suspects (RunPlan.confirm). */
export interface ConfirmPlan {
  /** The commit to measure against; default: the commit the baseline names. */
  ref?: string;
  /** Confirmation refused for every suspect (a fork's pull request); the reason the rows give. */
  refused?: Unconfirmed;
  /** Do `suspected` rows fail the gate? */
  failSuspected: boolean;
  /**
   * The input or flag asked for the second stage by name (`interleaved`):
   * a baseline that names no commit then leaves its suspects `suspected`.
   * Left to `auto`, such a run (or one outside a git checkout) keeps the
   * one-stage verdict, as there is nothing to build (pipeline/run.ts).
   */
  asked?: boolean;
  /** The screen's one-sided level; default gate/screen.ts's. */
  screenAlpha?: number;
}

export interface SecondStageRequest {
  report: GateReport;
  config: PerfGateConfig;
  /** The suites the first stage ran (this shard's share). */
  suites: readonly SuiteConfig[];
  /** The plain run: which suite each benchmark came from. */
  current: ResultSet;
  /** The commit the baseline names, if any. */
  baselineCommit: string | undefined;
  budgets: Budgets;
  options: GateOptions;
  plan: ConfirmPlan;
  /** The screen's runner time (seconds), each suite's build and harness time in it, and the history runs its drift came from. */
  screen: { seconds: number; timings: ReadonlyMap<string, SuiteTiming>; driftRuns: number | null };
  outDir: string;
  labels: { baselineInput: string; current: string };
}

/** Screens the run, measures the suspects' suites again interleaved, and joins both stages into one report. */
export async function confirmSuspects(request: SecondStageRequest, ctx: RunContext): Promise<GateReport> {
  const { plan } = request;
  // A suite with `confirm: off` is decided by the screen alone, as a one-stage run.
  const confirmable = (row: VerdictRow): boolean => suiteOf(row.benchmark, request.current, request.suites)?.confirm !== false;
  const screened = screenReport(request.report, plan.screenAlpha, confirmable);
  const bySuite = new Map<SuiteConfig, VerdictRow[]>();
  for (const row of screened.suspects) {
    const suite = suiteOf(row.benchmark, request.current, request.suites);
    if (suite) bySuite.set(suite, [...(bySuite.get(suite) ?? []), row]);
  }
  const base = plan.ref ?? request.baselineCommit;
  const stages = (
    seconds: number,
    suites: TwoStages['confirm']['suites'],
    skipped: Unconfirmed | null,
    estimate?: TwoStages['confirm']['estimate'],
  ): TwoStages => ({
    screen: { seconds: request.screen.seconds, rows: request.report.rows.length, suspects: screened.suspects.length, driftRuns: request.screen.driftRuns },
    confirm: { seconds, base: base ?? null, suites, skipped, ...(estimate ? { estimate } : {}) },
  });
  const all = (skipped: Unconfirmed): GateReport =>
    mergeStages({ screened, confirmed: null, unconfirmed: () => skipped, failSuspected: plan.failSuspected, stages: stages(0, [], skipped) });
  if (screened.suspects.length === 0 || bySuite.size === 0) {
    return mergeStages({ screened, confirmed: null, unconfirmed: () => null, failSuspected: plan.failSuspected, stages: stages(0, [], null) });
  }
  if (plan.refused) return all(plan.refused);
  if (!base) return all({ code: 'no-base-commit' });

  // Before anything is built: what the suspects will cost, and which fit the cap (the rest stay suspected).
  const budget = confirmBudget(bySuite, request);
  const left = new Set(budget.left.map((l) => l.benchmark));
  const estimate = { seconds: budget.seconds, cap: request.config.confirm.timeCap, left: budget.left.map((l) => l.benchmark) };
  ctx.write(
    `perf-gate: second stage: ${budget.measured.length} suspect benchmark(s), about ${Math.round(budget.seconds)} s${budget.partial ? ' (some suites untimed)' : ''}; confirm-time-cap ${Math.round(estimate.cap)} s${
      left.size > 0 ? `; left out to stay within it: ${estimate.left.join(', ')}` : ''
    }\n`,
  );
  for (const [suite, rows] of bySuite) {
    const kept = rows.filter((r) => !left.has(r.benchmark));
    if (kept.length > 0) bySuite.set(suite, kept);
    else bySuite.delete(suite);
  }
  const leftOut: Unconfirmed = { code: 'time-cap', message: `left out: the suspects before it were estimated to fill the ${Math.round(estimate.cap)} s cap` };

  const started = performance.now();
  ctx.write(`perf-gate: confirming ${budget.measured.length} suspect benchmark(s) in ${bySuite.size} suite(s), interleaved against ${base.slice(0, 12)}\n`);
  // Measured suspects the rounds left unconfirmed say why; those the estimate left out say that.
  const suspects = new Map(
    [...bySuite.entries()].flatMap(([suite, rows]) => rows.map((r) => [rowKey(r.benchmark, r.metric), { benchmark: r.benchmark, suite: suite.name }] as const)),
  );
  const byKey = new Map(screened.suspects.map((r) => [rowKey(r.benchmark, r.metric), r.benchmark]));
  const joinStages = (confirmed: GateReport | null, ab: ComparisonMeasurement, commit: string): GateReport => {
    const measuredWhyNot = whyNot(suspects, confirmed, ab, commit, request.config.confirm.timeCap);
    const unconfirmed = (key: string): Unconfirmed | null => (left.has(byKey.get(key) ?? '') ? leftOut : measuredWhyNot(key));
    const measured = [...bySuite.entries()].map(([suite, rows]) => {
      const whole = ab.whole.get(suite.name);
      return {
        suite: suite.name,
        rows: rows.map((r) => `${r.benchmark} ${r.metric}`),
        rounds: roundsOf(suite.name, ab.outcome.rounds),
        confirmRounds: roundsOf(suite.name, ab.outcome.confirmRounds),
        ...(whole !== undefined ? { whole } : {}),
      };
    });
    // The stage's own line names the first reason a suspect was left unconfirmed (each row names its own).
    const skipped = screened.suspects.map((r) => unconfirmed(rowKey(r.benchmark, r.metric))).find((u) => u !== null) ?? null;
    const seconds = (performance.now() - started) / 1000;
    return mergeStages({ screened, confirmed, unconfirmed, failSuspected: plan.failSuspected, stages: stages(seconds, measured, skipped, estimate) });
  };
  try {
    const compared = await compareInterleaved({
      ...ctx,
      config: request.config,
      suites: [...bySuite.keys()],
      base: { commit: base },
      head: { working: true },
      // Only the suspects run: a commands: suite's suspect commands, a harness suite's suspect benchmarks in short rounds where it can select them.
      benchmarks: budget.measured,
      testCases: testCasesOf(request.current),
      outDir: join(request.outDir, 'confirm'),
      budgets: request.budgets,
      decision: { options: request.options, baselineInput: request.labels.baselineInput, currentSource: request.labels.current },
      deadline: started + request.config.confirm.timeCap * 1000,
      finish: (confirmed, ab) => joinStages(confirmed, ab, ab.base.commit ?? base),
      profile: { suites: request.suites, outDir: request.outDir },
    });
    return compared.report;
  } catch (error) {
    if (error instanceof MissingCommitError) return all({ code: 'base-not-in-checkout', commit: base, message: error.message });
    throw error;
  }
}

/**
 * The second stage's estimate: the suspects, likeliest regression first (a
 * failed benchmark, then the largest slowdown the screen estimated), priced
 * from the first stage's timings of their suites (gate/confirm-budget.ts).
 */
function confirmBudget(bySuite: ReadonlyMap<SuiteConfig, readonly VerdictRow[]>, request: SecondStageRequest): ConfirmBudget {
  const likeliest = (r: VerdictRow): number => (r.status === 'failed' ? Infinity : screenedSlowdown(r));
  const suspects = [...bySuite.entries()]
    .flatMap(([suite, rows]) => rows.map((r) => ({ row: r, suite: suite.name })))
    .sort((a, b) => likeliest(b.row) - likeliest(a.row))
    .map(({ row, suite }) => ({ benchmark: row.benchmark, suite }));
  const facts = new Map<string, SuiteCostFacts>(
    [...bySuite.entries()].map(([suite, rows]) => {
      const narrowed = narrowSuite(
        suite,
        rows.map((r) => r.benchmark),
        testCasesOf(request.current),
      );
      // Go's rounds by the test binary compiled once a side (measureAbBetween): a build step more, rounds that start at once.
      const compiled = narrowed.whole === null && compiledGoSuite(narrowed.suite) !== narrowed.suite;
      return [
        suite.name,
        {
          timing: request.screen.timings.get(suite.name) ?? null,
          benchmarks: request.current.benchmarks.filter((b) => b.suite === suite.name).length,
          repeat: suite.repeat,
          narrowed: narrowed.whole === null,
          share: narrowed.share,
          rounds: suite.ab.rounds + (suite.ab.confirm ? suite.ab.confirmRounds : 0),
          ...(compiled ? { start: BINARY_START_SECONDS, compile: HARNESS_START_SECONDS } : { start: HARNESS_START_SECONDS, compile: 0 }),
        },
      ];
    }),
  );
  return budgetConfirmation(suspects, facts, request.config.confirm.timeCap);
}

/** The rounds a suite ran (its most at any sweep point, `suite[param=value]`). */
function roundsOf(suite: string, rounds: Readonly<Record<string, number>>): number {
  return Math.max(
    0,
    ...Object.entries(rounds)
      .filter(([unit]) => unit === suite || unit.startsWith(`${suite}[`))
      .map(([, n]) => n),
  );
}

/**
 * Why a measured suspect is still no confirmation: its benchmark failed on
 * the base side (the base did not build or run), or the time cap cut its
 * rounds before they decided it.
 */
function whyNot(
  suspects: ReadonlyMap<string, { benchmark: string; suite: string }>,
  confirmed: GateReport | null,
  ab: { base: ResultSet; head: ResultSet; outcome: { capped: boolean } },
  commit: string,
  timeCap: number,
): (key: string) => Unconfirmed | null {
  // A failed build fails the suite as one row named after it; a crash at one benchmark fails that benchmark alone.
  const failed = (set: ResultSet) => set.benchmarks.filter((b) => b.status === 'failed');
  const byCap = (b: ResultSet['benchmarks'][number]): boolean => (b.error?.message ?? '').includes(STOPPED_BY_CAP);
  // A step the cap stopped, on either side, is the cap's doing, not a broken base.
  const capped = ab.outcome.capped || [...failed(ab.base), ...failed(ab.head)].some(byCap);
  const rows = new Map((confirmed?.rows ?? []).map((r) => [rowKey(r.benchmark, r.metric), r]));
  const cap: Unconfirmed = { code: 'time-cap', message: `${Math.round(timeCap)} s` };
  return (key) => {
    const row = rows.get(key);
    const suspect = suspects.get(key);
    const named = (b: ResultSet['benchmarks'][number]) => suspect !== undefined && (b.id === suspect.benchmark || b.id === suspect.suite);
    const failure = failed(ab.base).find(named);
    if (failure && byCap(failure)) return cap;
    if (failure) return { code: 'base-failed', commit, message: (failure.error?.message ?? 'failed').split('\n')[0]!.slice(0, 200) };
    if (capped && (!row || row.status === 'inconclusive' || row.status === 'failed')) return cap;
    return null;
  };
}

/** Catch2's test case of each benchmark of the plain run (the adapter's `test case` parameter): Catch2 runs test cases, not single benchmarks. */
function testCasesOf(current: ResultSet): ReadonlyMap<string, string> {
  return new Map(current.benchmarks.flatMap((b) => (b.params?.[CATCH2_TEST_CASE] !== undefined ? [[b.id, b.params[CATCH2_TEST_CASE]] as const] : [])));
}
