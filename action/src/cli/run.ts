import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileInput, parseInput, readInputs, type Adapter } from '../adapters/index.js';
import { markerLinesFromOptions } from '../adapters/marker-lines.js';
import { EMPTY_BUDGETS, loadBudgets, type Budgets } from '../config/budgets.js';
import { loadPerfGateConfig, type PerfGateConfig } from '../config/perf-gate-config.js';
import { decide, DEFAULT_GATE_OPTIONS, withConfirmations } from '../gate/index.js';
import { applyDerived, compileDerived } from '../gate/derived.js';
import { InputError, newResultSet, type BenchmarkResult, type ResultSet, type Testbed } from '../model/index.js';
import { writeResultSet } from '../store/index.js';
import { rowKey, runAb, type AbMeasurement, type Classifier } from '../runner/ab.js';
import type { OutputParser, RunnerContext } from '../runner/invoke.js';
import { logProgress } from '../runner/progress.js';
import { runSuites } from '../runner/run-suite.js';
import { parseShard, selectShard, type Shard } from '../runner/shard.js';
import { processSpawner, type Spawner } from '../runner/spawn.js';
import { withInterruptCleanup } from '../runner/interrupt.js';
import { readTestbed } from '../runner/testbed.js';
import { systemFiles } from '../runner/preflight/system-files.js';
import { readThrottleCounters, throttleRise, type ThrottleCounters } from '../runner/preflight/checks/throttle.js';
import { addBaseWorktree, headCommit, repositoryRoot } from '../runner/worktree.js';
import { parseFlags } from './args.js';
import { UsageError, type CliContext, type Command } from './command.js';
import { gateAndReport, prepareOutputs } from './gate-pipeline.js';

const USAGE = `Usage: perf-gate run --config perf-gate.yml [--baseline PATH...] [--json FILE] [--markdown FILE]
                     [--out DIR] [--ab REF] [--shard i/n] [--mode pr|main|release]

Runs the suites of perf-gate.yml (build, then run), compares the results with the
baseline and the budgets, prints the regression table, and exits 0 (pass), 1 (fail)
or 2 (unusable input).

  --config FILE       the suites to run (default: perf-gate.yml)
  --baseline PATH...  stored results to compare with (default: the config's
                      baselines: folder when it holds results)
  --json FILE         write the JSON report
  --markdown FILE     write the Markdown report (a PR comment body)
  --out DIR           harness outputs, logs and results.json, for the artifact
                      (default: perf-gate-results)
  --ab REF            interleaved A/B: check REF out in a git worktree, run base
                      and head in alternating rounds, compare them paired
  --shard i/n         run only this runner's share of the suites (round-robin
                      by position in the config)
  --mode MODE         pr (default), release, or main: main also stores the
                      results where the config's baselines: points`;

/** Everything a run needs from outside; the command builds it, tests inject their own. */
export interface RunDeps {
  spawner: Spawner;
  /** The machine's testbed, stored in the ResultSets (injected in tests). */
  testbed(env: NodeJS.ProcessEnv): Testbed | undefined;
  /** Thermal-throttle counters, read before and after the run (absent: not checked). */
  throttle?(): ThrottleCounters | undefined;
}

/** Parses a harness output file through the adapter registry (adapter named, or detected); no adapter options. */
export const parseOutputFile: OutputParser = (path, format, options) => {
  if (options !== null) throw new InputError(path, `format "${format}" takes no options here`);
  return parseInput(fileInput(path, readFileSync(path, 'utf8')), format);
};

/** Adapters that take their configuration from perf-gate.yml's `format:` mapping. */
const CONFIGURED_ADAPTERS: Record<string, (options: Readonly<Record<string, unknown>>, source: string, suite: string) => Adapter> = {
  'marker-lines': (options, source, suite) => markerLinesFromOptions(options, source, suite),
};

/**
 * The output parser of a config: suites whose `format:` is a mapping get their
 * adapter built here, before anything runs, so a bad spec is exit 2 with the
 * suite's line rather than a failed row after a long build.
 */
export function configOutputParser(config: PerfGateConfig): OutputParser {
  const built = new Map<object, Adapter>();
  for (const [i, suite] of config.suites.entries()) {
    if (suite.formatOptions === null) continue;
    const make = CONFIGURED_ADAPTERS[suite.format];
    if (!make) {
      throw new InputError(config.file, `format "${suite.format}" takes no options; options are accepted for ${Object.keys(CONFIGURED_ADAPTERS).join(', ')}`, suite.line, `suites.${i}.format`);
    }
    try {
      built.set(suite.formatOptions, make(suite.formatOptions, config.file, suite.name));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      throw new InputError(config.file, error.detail, suite.line, `suites.${i}.${error.key ?? 'format'}`);
    }
  }
  return (path, format, options) => {
    const adapter = options === null ? undefined : built.get(options);
    return adapter ? parseInput(fileInput(path, readFileSync(path, 'utf8')), adapter) : parseOutputFile(path, format, options);
  };
}

export interface RunSuitesOptions {
  config: PerfGateConfig;
  shard: Shard | null;
  /** Harness outputs and logs go here (one folder per suite). */
  outDir: string;
  /** The baseline's benchmarks: a crashed suite shows them as failed rows. */
  expected: readonly BenchmarkResult[];
  env: NodeJS.ProcessEnv;
  write(text: string): void;
  now(): Date;
  deps?: RunDeps;
}

/** The real outside world: processes, the machine's testbed and throttle counters. */
export function defaultDeps(): RunDeps {
  return {
    spawner: processSpawner(),
    testbed: (env) => readTestbed(systemFiles('/'), env.RUNNER_NAME),
    throttle: () => readThrottleCounters(systemFiles('/')),
  };
}

function runnerContext(options: RunSuitesOptions, deps: RunDeps): RunnerContext {
  return {
    spawner: deps.spawner,
    parse: configOutputParser(options.config),
    outDir: options.outDir,
    env: options.env,
    progress: logProgress({ githubActions: options.env.GITHUB_ACTIONS === 'true', write: options.write, clock: () => performance.now() }),
  };
}

function metadata(set: ResultSet, commit: string | undefined, env: NodeJS.ProcessEnv, testbed: Testbed | undefined): ResultSet {
  return {
    ...set,
    ...(commit ? { commit } : {}),
    ...(env.GITHUB_REF ? { ref: env.GITHUB_REF } : {}),
    ...(testbed ? { testbed } : {}),
  };
}

/**
 * Runs the config's suites (this shard's share) one after another and returns
 * the run's ResultSet; `<outDir>/results.json` is rewritten after every suite,
 * so a cancelled job still leaves partial results for the artifact. Used by
 * `perf-gate run` and by the action.
 */
export async function runConfiguredSuites(options: RunSuitesOptions): Promise<ResultSet> {
  const deps = options.deps ?? defaultDeps();
  mkdirSync(options.outDir, { recursive: true });
  const configDir = dirname(resolve(options.config.file));
  const commit = options.env.GITHUB_SHA || headCommit(configDir);
  const testbed = deps.testbed(options.env);
  const suites = selectShard(options.config.suites, options.shard);
  const resultsPath = join(options.outDir, 'results.json');
  const snapshot = (benchmarks: readonly BenchmarkResult[]): ResultSet =>
    metadata(newResultSet(options.now().toISOString(), [...benchmarks]), commit, options.env, testbed);
  const throttledBefore = deps.throttle?.();
  const benchmarks = await runSuites(suites, runnerContext(options, deps), options.expected, (soFar) => {
    writeResultSet(resultsPath, snapshot(soFar));
  });
  // The CPU slowing itself down mid-run looks exactly like a regression: say so next to the results.
  const throttled = deps.throttle ? throttleRise(throttledBefore, deps.throttle(), 'the run') : undefined;
  if (throttled?.status === 'warn') {
    options.write(`${options.env.GITHUB_ACTIONS === 'true' ? '::warning::' : ''}perf-gate: ${throttled.message}${throttled.fix ? ` Fix: ${throttled.fix}` : ''}\n`);
  }
  const derived = applyDerived(benchmarks, compileDerived(options.config.derived));
  for (const warning of derived.warnings) options.write(`perf-gate: warning: ${warning}\n`);
  const current = snapshot(derived.benchmarks);
  writeResultSet(resultsPath, current);
  return current;
}

/** The benchmarks of the given suites (ids are `<suite>/…`). */
function onlySuites(set: ResultSet, suites: readonly string[]): ResultSet {
  const names = new Set(suites);
  const suiteOf = (b: BenchmarkResult): string => b.suite ?? (b.id.includes('/') ? b.id.slice(0, b.id.indexOf('/')) : b.id);
  return { ...set, benchmarks: set.benchmarks.filter((b) => names.has(suiteOf(b))) };
}

/**
 * Where `mode: main` stores the run: `<baselines>/results.json`, or
 * `results.shard-i-of-n.json` for a shard so parallel runners never overwrite
 * each other (a folder of them is read back as one baseline).
 */
export function baselineFile(config: PerfGateConfig, shard: Shard | null): string {
  return join(config.baselines, shard ? `results.shard-${shard.index}-of-${shard.count}.json` : 'results.json');
}

/** Stores main's ResultSet atomically where the config's `baselines:` points; returns the file written. */
export function storeBaseline(config: PerfGateConfig, results: ResultSet, shard: Shard | null = null): string {
  const path = baselineFile(config, shard);
  writeResultSet(path, results);
  return path;
}

/** The budgets of the config's `budgets:` folder or file, or none when it does not exist. */
export function configBudgets(config: PerfGateConfig, cwd: string): Budgets {
  return existsSync(config.budgets) ? loadBudgets([config.budgets], cwd) : EMPTY_BUDGETS;
}

/** The gate's own decision as the A/B classifier, so adaptivity uses the budgets' tolerances. */
export function gateClassifier(budgets: Budgets): Classifier {
  return (base, head) => new Map(decide(base, head, budgets).rows.map((r) => [rowKey(r.benchmark, r.metric), r.status]));
}


function hasFiles(dir: string): boolean {
  try {
    return readdirSync(dir).some((n) => !n.startsWith('.'));
  } catch {
    return false;
  }
}

function realpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The `perf-gate run` command, with its outside world injectable for tests. */
export function makeRunCommand(makeDeps: () => RunDeps = defaultDeps): Command {
  return {
    name: 'run',
    summary: 'run the suites of perf-gate.yml, then compare like `compare` (or A/B against a ref)',
    usage: USAGE,
    async run(argv, ctx) {
      const flags = parseFlags(argv, {
        config: 'string', baseline: 'list', json: 'string', markdown: 'string', out: 'string', ab: 'string', shard: 'string', mode: 'string',
      });
      const mode = flags.mode ?? 'pr';
      if (mode !== 'pr' && mode !== 'main' && mode !== 'release') throw new UsageError(`--mode takes pr, main or release, found "${mode}"`);
      if (flags.ab !== undefined && flags.baseline) throw new UsageError('--ab measures its own baseline; it cannot be combined with --baseline');
      if (flags.ab !== undefined && mode === 'main') throw new UsageError('--mode main stores a baseline from a plain run; it cannot be combined with --ab');
      const shard = flags.shard !== undefined ? parseShard(flags.shard) : null;
      const config = loadPerfGateConfig(flags.config ?? 'perf-gate.yml', ctx.cwd);
      const outputs = { json: flags.json, markdown: flags.markdown };
      prepareOutputs(outputs, ctx.cwd);
      const outDir = resolve(ctx.cwd, flags.out ?? 'perf-gate-results');
      try {
        mkdirSync(outDir, { recursive: true });
      } catch (error) {
        throw new InputError('--out', `cannot create ${outDir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      }
      if (mode === 'main') {
        try {
          mkdirSync(config.baselines, { recursive: true });
        } catch (error) {
          throw new InputError(config.file, `cannot create the baselines folder ${config.baselines}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, undefined, 'baselines');
        }
      }
      const budgets = configBudgets(config, ctx.cwd);
      const deps = makeDeps();
      const created = ctx.now().toISOString();
      const write = (t: string): void => ctx.stdout(t);

      if (flags.ab !== undefined) {
        const ref = flags.ab;
        return withInterruptCleanup(deps.spawner, (cleanups) => runAbCommand(ref, config, shard, outDir, budgets, outputs, ctx, deps, cleanups));
      }

      const baselinePaths = flags.baseline ?? (hasFiles(config.baselines) ? [config.baselines] : []);
      const stored = baselinePaths.length > 0 ? readInputs(baselinePaths, { cwd: ctx.cwd, created }).resultSet : undefined;
      // A shard compares only its own suites: the other shards' benchmarks are not missing, they run elsewhere.
      const baseline = stored && shard ? onlySuites(stored, selectShard(config.suites, shard).map((s) => s.name)) : stored;
      const current = await withInterruptCleanup(deps.spawner, () =>
        runConfiguredSuites({ config, shard, outDir, expected: baseline?.benchmarks ?? [], env: ctx.env, write, now: () => ctx.now(), deps }),
      );
      const { exitCode } = gateAndReport(baseline, current, budgets, outputs, ctx);
      if (mode === 'main') ctx.stdout(`perf-gate: baseline written to ${storeBaseline(config, current, shard)}\n`);
      return exitCode;
    },
  };
}

export interface AbRequest {
  ref: string;
  config: PerfGateConfig;
  shard: Shard | null;
  outDir: string;
  budgets: Budgets;
  cwd: string;
  env: NodeJS.ProcessEnv;
  write(text: string): void;
  now(): Date;
  deps?: RunDeps;
  /** Cleanups to run if the process is interrupted (the worktree). */
  cleanups: Array<() => void>;
}

/**
 * Interleaved A/B: checks `ref` out in a temporary worktree, runs base and
 * head in rounds (adaptive, with confirmation rounds), and returns both
 * ResultSets (also written to outDir as base.json and results.json). Used by
 * `perf-gate run --ab` and by the action's `ab` input.
 */
export async function measureAb(request: AbRequest): Promise<AbMeasurement> {
  const deps = request.deps ?? defaultDeps();
  const { config, shard, outDir } = request;
  const configDir = dirname(resolve(request.cwd, config.file));
  const repo = realpath(repositoryRoot(configDir));
  const headSha = headCommit(repo);
  const suites = selectShard(config.suites, shard).map((s) => ({ ...s, workdir: realpath(s.workdir) }));
  const testbed = deps.testbed(request.env);
  const created = request.now().toISOString();
  const checkout = addBaseWorktree(repo, request.ref);
  request.cleanups.push(() => checkout.remove());
  let outcome;
  try {
    request.write(`perf-gate: A/B of ${headSha ?? 'HEAD'} (head) against ${request.ref} = ${checkout.commit} (base, in ${checkout.dir})\n`);
    outcome = await runAb(suites, { base: checkout.dir, head: repo }, {
      ...runnerContext({ config, shard, outDir, expected: [], env: request.env, write: request.write, now: request.now }, deps),
      classify: gateClassifier(request.budgets),
      created,
    });
  } finally {
    checkout.remove();
  }
  const base = metadata(outcome.base, checkout.commit, {}, testbed);
  const head = metadata(outcome.head, headSha, request.env, testbed);
  writeResultSet(join(outDir, 'base.json'), base);
  writeResultSet(join(outDir, 'results.json'), head);
  request.write(`perf-gate: rounds per suite: ${Object.entries(outcome.rounds).map(([k, n]) => `${k} ${n}`).join(', ')}\n`);
  return { base, head, confirmations: outcome.confirmations };
}

async function runAbCommand(
  ref: string,
  config: PerfGateConfig,
  shard: Shard | null,
  outDir: string,
  budgets: Budgets,
  outputs: { json?: string; markdown?: string },
  ctx: CliContext,
  deps: RunDeps,
  cleanups: Array<() => void>,
): Promise<number> {
  const measurement = await measureAb({ ref, config, shard, outDir, budgets, cwd: ctx.cwd, env: ctx.env, write: (t) => ctx.stdout(t), now: () => ctx.now(), deps, cleanups });
  return gateAndReport(measurement.base, measurement.head, budgets, outputs, ctx, DEFAULT_GATE_OPTIONS, (report) => withConfirmations(report, measurement.confirmations)).exitCode;
}

export const runCommand: Command = makeRunCommand();
