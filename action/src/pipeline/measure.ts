/**
 * Phase 2 of a run: measure. Runs the config's suites (this shard's share)
 * with the runner, checks the CPU did not throttle meanwhile, adds the derived
 * metrics, and stamps the ResultSet with commit, ref and testbed; or measures
 * two checkouts in interleaved rounds, for the one comparison of
 * pipeline/interleaved.ts. Partial results are written after every suite,
 * so a cancelled job still leaves them.
 */
import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { PerfGateConfig, SuiteConfig } from '../config/perf-gate-config.js';
import { applyDerived, compileDerived } from '../derived/index.js';
import { decide, type SuiteTiming } from '../gate/index.js';
import { rowKey, smallestAlpha, type Budgets } from '../model/index.js';
import { newResultSet, type BenchmarkResult, type Environment, type ResultSet, type Testbed } from '../model/index.js';
import { runAb, type AbCheckouts, type AbMeasurement, type AbOutcome, type Classifier } from '../runner/ab.js';
import type { RunnerContext } from '../runner/invoke.js';
import { joinMeasurements } from '../runner/run-commands.js';
import { throttleRise } from '../runner/preflight/index.js';
import { logProgress } from '../runner/progress.js';
import { runSuites } from '../runner/run-suite.js';
import { selectShard, type Shard } from '../runner/shard.js';
import { headCommit } from '../runner/worktree.js';
import { narrowSuite } from '../runner/select-benchmarks.js';
import { compiledGoSuite } from '../runner/go-test-binary.js';
import type { BaselineQuery } from '../store/index.js';
import { writeResultSet } from '../store/index.js';
import { configOutputParser } from './output-parser.js';
import { defaultDeps, type RunContext, type RunDeps } from './run-deps.js';

export { parseShard, selectShard, type Shard } from '../runner/shard.js';
export type { AbMeasurement } from '../runner/ab.js';

/** The run's context (the throttle warning goes through `warn`), with the real machine as the default deps. */
export interface RunSuitesOptions extends Pick<RunContext, 'env' | 'write' | 'warn' | 'now' | 'groups'> {
  config: PerfGateConfig;
  shard: Shard | null;
  /** Harness outputs and logs go here (one folder per suite). */
  outDir: string;
  /** The baseline's benchmarks: a crashed suite shows them as failed rows. */
  expected: readonly BenchmarkResult[];
  deps?: RunDeps;
}

/** The names of the suites this shard runs (all of them without a shard). */
export function shardSuites(config: PerfGateConfig, shard: Shard | null): string[] {
  return selectShard(config.suites, shard).map((s) => s.name);
}

/** The commit checked out in `dir` (what a run there measures); undefined outside a git checkout. */
export function checkoutCommit(dir: string): string | undefined {
  return headCommit(dir);
}

/** What the run about to be measured is, for choosing its baseline: the commit and this machine's testbed. */
export function measuredRun(config: PerfGateConfig, env: NodeJS.ProcessEnv, deps: RunDeps): BaselineQuery {
  const commit = env.GITHUB_SHA || headCommit(config.dir);
  const testbed = deps.testbed(env);
  const former = typeof testbed?.formerId === 'string' && testbed.formerId !== testbed.id ? testbed.formerId : undefined;
  return { ...(commit ? { commit } : {}), ...(testbed ? { testbed: testbed.id } : {}), ...(former ? { formerTestbed: former } : {}) };
}

function runnerContext(options: RunSuitesOptions, deps: RunDeps, timings?: Map<string, SuiteTiming>): RunnerContext {
  return {
    ...(timings
      ? {
          timed: (suite: string, step: 'build' | 'run', seconds: number) => {
            const t = timings.get(suite) ?? { build: 0, run: 0 };
            timings.set(suite, { ...t, [step]: t[step] + seconds });
          },
        }
      : {}),
    spawner: deps.spawner,
    parse: configOutputParser(options.config),
    outDir: options.outDir,
    env: options.env,
    progress: logProgress({ githubActions: options.groups === true, write: options.write, clock: () => performance.now() }),
  };
}

function metadata(
  set: ResultSet,
  commit: string | undefined,
  env: NodeJS.ProcessEnv,
  testbed: Testbed | undefined,
  environment: Environment | undefined,
): ResultSet {
  return {
    ...set,
    ...(commit ? { commit } : {}),
    ...(env.GITHUB_REF ? { ref: env.GITHUB_REF } : {}),
    ...(testbed ? { testbed } : {}),
    ...(environment ? { environment } : {}),
  };
}

/** The environment of the checkout whose perf-gate.yml folder is `dir` (the config's own folder, or the base worktree's copy of it). */
function environmentOf(
  deps: RunDeps,
  config: PerfGateConfig,
  suites: readonly SuiteConfig[],
  env: NodeJS.ProcessEnv,
  dir = config.dir,
): Environment | undefined {
  return deps.environment?.({ dir, configDir: config.dir, suites, toolchain: config.toolchain, env });
}

/** A plain run: its ResultSet, and what each suite's build and harness calls took (the second stage's estimate starts from these). */
export interface MeasuredRun {
  results: ResultSet;
  timings: ReadonlyMap<string, SuiteTiming>;
}

/**
 * Runs the config's suites (this shard's share) one after another and returns
 * the run's ResultSet; `<outDir>/results.json` is rewritten after every suite,
 * so a cancelled job still leaves partial results for the artifact.
 */
export async function runConfiguredSuites(options: RunSuitesOptions): Promise<MeasuredRun> {
  const deps = options.deps ?? defaultDeps();
  mkdirSync(options.outDir, { recursive: true });
  const commit = options.env.GITHUB_SHA || headCommit(options.config.dir);
  const testbed = deps.testbed(options.env);
  const suites = selectShard(options.config.suites, options.shard);
  // Before anything builds: a build may rewrite a lockfile.
  const environment = environmentOf(deps, options.config, suites, options.env);
  const resultsPath = join(options.outDir, 'results.json');
  const snapshot = (benchmarks: readonly BenchmarkResult[]): ResultSet =>
    metadata(newResultSet(options.now().toISOString(), [...benchmarks]), commit, options.env, testbed, environment);
  const throttledBefore = deps.throttle?.();
  const timings = new Map<string, SuiteTiming>();
  const benchmarks = await runSuites(suites, runnerContext(options, deps, timings), options.expected, (soFar) => {
    writeResultSet(resultsPath, snapshot(soFar));
  });
  // The CPU slowing itself down mid-run looks exactly like a regression: say so next to the results.
  const throttled = deps.throttle ? throttleRise(throttledBefore, deps.throttle(), 'the run') : undefined;
  if (throttled?.status === 'warn') {
    const text = `perf-gate: ${throttled.message}${throttled.fix ? ` Fix: ${throttled.fix}` : ''}`;
    if (options.warn) options.warn(text);
    else options.write(`${text}\n`);
  }
  const derived = applyDerived(benchmarks, compileDerived(options.config.derived));
  for (const warning of derived.warnings) options.write(`perf-gate: warning: ${warning}\n`);
  const current = snapshot(derived.benchmarks);
  writeResultSet(resultsPath, current);
  return { results: current, timings };
}

/** The gate's own decision as the A/B classifier, so adaptivity uses the budgets' tolerances. */
export function gateClassifier(budgets: Budgets): Classifier {
  // A side with no rounds yet (a build failed) has nothing open to classify.
  return (base, head) =>
    head.benchmarks.length === 0 ? new Map() : new Map(decide(base, head, budgets).rows.map((r) => [rowKey(r.benchmark, r.metric), r.status]));
}

/** The interleaved rows with each side's counted metrics joined in (a benchmark only counted becomes a row of its own). */
function withCounts(set: ResultSet, counted: readonly BenchmarkResult[]): ResultSet {
  if (counted.length === 0) return set;
  const byId = new Map(counted.map((b) => [b.id, b]));
  const benchmarks = set.benchmarks.map((b) => {
    const c = byId.get(b.id);
    if (!c) return b;
    byId.delete(b.id);
    return joinMeasurements(b.id, b.suite ?? c.suite ?? '', b, c);
  });
  return { ...set, benchmarks: [...benchmarks, ...byId.values()] };
}

export interface AbBetweenRequest extends Pick<RunContext, 'env' | 'write' | 'now' | 'groups'> {
  config: PerfGateConfig;
  /** The suites to measure, their workdirs inside `checkouts.head`: timed in rounds, counted once per side. */
  suites: readonly SuiteConfig[];
  checkouts: AbCheckouts;
  /** The commits the two checkouts hold, stamped on their ResultSets. */
  commits: { base: string | undefined; head: string | undefined };
  outDir: string;
  budgets: Budgets;
  /** Which rows are still open, for the adaptive rounds; default: the gate's own decision (gateClassifier). */
  classify?: Classifier;
  /** See AbContext.afterFirstRound. */
  afterFirstRound?: (base: ResultSet, head: ResultSet) => void;
  /** See RunnerContext.deadline. */
  deadline?: number;
  /**
   * The benchmark ids to measure: each suite is narrowed to its own among
   * them (runner/select-benchmarks.ts), so a round costs what they cost.
   * Absent: the suites run whole.
   */
  benchmarks?: readonly string[];
  /** Catch2's test case of each benchmark id, from the results that named them (Catch2 selects test cases, not benchmarks). */
  testCases?: ReadonlyMap<string, string>;
  deps?: RunDeps;
}

/**
 * The rounds of the one interleaved comparison (pipeline/interleaved.ts,
 * for `run --ab`, the second stage, main's alert confirmation and `bisect`): runs the suites (narrowed to the
 * named benchmarks, where given) on two checkouts in rounds (runAb, with the
 * gate as classifier, bounded by the deadline), stamps each side with its
 * commit and this testbed, and writes both ResultSets to outDir (base.json,
 * results.json). The caller owns the checkouts. `whole`: the suites that
 * could not be narrowed, and why.
 */
export async function measureAbBetween(request: AbBetweenRequest): Promise<AbMeasurement & { outcome: AbOutcome; whole: ReadonlyMap<string, string> }> {
  const deps = request.deps ?? defaultDeps();
  const { config, outDir } = request;
  // Only the named benchmarks run, where the harness can select them; a suite that cannot be narrowed says why.
  const narrowed = request.suites.map((s) => (request.benchmarks ? narrowSuite(s, request.benchmarks, request.testCases) : { suite: s, whole: null }));
  const whole = new Map(narrowed.flatMap((n) => (n.whole !== null ? [[n.suite.name, n.whole] as const] : [])));
  for (const [name, why] of whole) request.write(`perf-gate: suite ${name} runs whole in every round: ${why}\n`);
  const suites = narrowed.map((n) => n.suite);
  // Go's rounds run the test binary each side compiles once, not `go test` (runner/go-test-binary.ts).
  const rounds = suites.map(compiledGoSuite);
  const testbed = deps.testbed(request.env);
  const environments = {
    base: environmentOf(deps, config, suites, request.env, join(request.checkouts.base, relative(request.checkouts.head, config.dir))),
    head: environmentOf(deps, config, suites, request.env),
  };
  const context = (dir: string): RunnerContext =>
    runnerContext(
      { config, shard: null, outDir: dir, expected: [], env: request.env, write: request.write, now: request.now, ...(request.groups ? { groups: true } : {}) },
      deps,
    );
  const outcome = await runAb(
    rounds.filter((s) => s.measure.time),
    request.checkouts,
    {
      ...context(outDir),
      classify: request.classify ?? gateClassifier(request.budgets),
      alpha: smallestAlpha(request.budgets),
      // Later rounds run only the rows still open, narrowed from the suite as configured (a narrowed run line takes no second filter).
      narrow: (suite, ids) => {
        const original = request.suites.find((s) => s.name === suite.name);
        const n = original ? narrowSuite(original, ids, request.testCases) : null;
        return n && n.whole === null ? compiledGoSuite(n.suite) : null;
      },
      ...(request.afterFirstRound ? { afterFirstRound: request.afterFirstRound } : {}),
      ...(request.deadline !== undefined ? { deadline: request.deadline } : {}),
      created: request.now().toISOString(),
    },
  );
  // Counts do not drift, so rounds buy them nothing: each side is counted once, as a plain run counts it, and never dropped.
  const counting = suites.filter((s) => s.measure.counts).map((s) => ({ ...s, measure: { time: false, counts: true } }));
  const counted = {
    base: await runSuites(
      counting.map((s) => ({ ...s, workdir: join(request.checkouts.base, relative(request.checkouts.head, s.workdir)) })),
      context(join(outDir, 'base-counts')),
      [],
    ),
    head: await runSuites(counting, context(join(outDir, 'head-counts')), []),
  };
  const base = metadata(withCounts(outcome.base, counted.base), request.commits.base, {}, testbed, environments.base);
  const head = metadata(withCounts(outcome.head, counted.head), request.commits.head, request.env, testbed, environments.head);
  writeResultSet(join(outDir, 'base.json'), base);
  writeResultSet(join(outDir, 'results.json'), head);
  request.write(
    `perf-gate: rounds per suite: ${Object.entries(outcome.rounds)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}\n`,
  );
  return { base, head, confirmations: outcome.confirmations, outcome, whole };
}
