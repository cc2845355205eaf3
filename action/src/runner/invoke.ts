import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  fillTemplate,
  InputError,
  MAX_BENCHMARK_ID_LENGTH,
  paramEnvName,
  writesOutputFile,
  type BenchmarkError,
  type BenchmarkResult,
} from '../model/index.js';
import type { SuiteConfig } from '../config/perf-gate-config.js';
import { benchmarkError, describeExit } from './failure.js';
import type { Progress } from './progress.js';
import type { SpawnResult, Spawner } from './spawn.js';
import { startLog } from './run-log.js';
import { pointSuffix, type SweepPoint } from './sweep.js';

/**
 * Parses one harness output file with the adapter registry (injected, so the
 * runner does not choose adapters itself). Throws InputError when unusable.
 */
/** Reads a harness output file into benchmarks; `name` (the suite's) names a benchmark whose output never does (perf stat, strace). */
export type OutputParser = (path: string, format: string, options: Readonly<Record<string, unknown>> | null, name: string) => BenchmarkResult[];

/** What every runner function needs; built once by the CLI, passed down. */
export interface RunnerContext {
  spawner: Spawner;
  parse: OutputParser;
  /** Folder for harness outputs and logs, one subfolder per suite (uploaded as an artifact). */
  outDir: string;
  /** Environment every process starts from (suite `env:` and PERF_GATE_* are added). */
  env: Readonly<Record<string, string | undefined>>;
  progress: Progress;
  /**
   * `performance.now()` after which nothing may run (the second stage's time
   * cap, `confirm-time-cap`): every build and harness call is bounded by what
   * is left of it, and one that the cap stops says so. Absent: no cap.
   */
  deadline?: number;
  /** Told each build's and harness call's wall time, per suite: the second stage estimates its cost from the first stage's. */
  timed?: (suite: string, step: 'build' | 'run', seconds: number) => void;
}

/** The words a step stopped by the deadline is failed with (the second stage reads them as the cap, not as a broken base). */
export const STOPPED_BY_CAP = 'stopped by the time cap (confirm-time-cap)';

/** A step's timeout within the deadline: the suite's own, or what is left of the cap when that is less. */
function boundedTimeout(suite: SuiteConfig, ctx: RunnerContext): { seconds: number; byCap: boolean } {
  if (ctx.deadline === undefined) return { seconds: suite.timeout, byCap: false };
  const left = (ctx.deadline - performance.now()) / 1000;
  return left < suite.timeout ? { seconds: Math.max(0, left), byCap: true } : { seconds: suite.timeout, byCap: false };
}

/** Why a step failed, naming the cap when the cap's timeout stopped it. */
function exitProblemOf(step: string, result: SpawnResult, timeout: { seconds: number; byCap: boolean }): string | null {
  if (result.timedOut && timeout.byCap) return `${step} ${STOPPED_BY_CAP} after ${result.seconds.toFixed(1)} s; its process group was killed`;
  return describeExit(step, result, timeout.seconds);
}

/** Which checkout a command runs in during A/B runs; null for ordinary runs. */
export type Side = 'base' | 'head';

/** One harness invocation: a suite at one sweep point, in one checkout. */
export interface Invocation {
  suite: SuiteConfig;
  point: SweepPoint;
  cwd: string;
  /** Folder for this invocation's log and output. */
  dir: string;
  /** File-name stem: "run", "run.p1-n=100", "round-03-base". */
  stem: string;
  side: Side | null;
  pin: string | null;
}

export interface InvocationOutcome {
  /** Benchmarks the harness delivered, ids `<suite>/<name><[point]>`, params merged. */
  results: BenchmarkResult[];
  /** Set when the invocation failed (crash, non-zero exit, timeout, unusable output). */
  error: BenchmarkError | null;
  logPath: string;
}

/**
 * Credentials benchmarks never need: the action's inputs (the github-token
 * among them), the runner's tokens and its file commands (GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY...: a suite must not forge step outputs or the job
 * summary). Benchmark code is the pull request's
 * code; a suite that really needs a value passes it through its `env:`.
 */
const WITHHELD =
  /^(INPUT_.*|GITHUB_TOKEN|GH_TOKEN|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_TOKEN|ACTIONS_ID_TOKEN_REQUEST_URL|PERF_GATE_TOKEN_FD|GITHUB_OUTPUT|GITHUB_ENV|GITHUB_PATH|GITHUB_STATE|GITHUB_STEP_SUMMARY)$/i;

/** The environment of a suite's processes: the runner's, minus credentials, plus the suite's `env:` and PERF_GATE_SUITE. */
export function processEnv(ctx: RunnerContext, suite: SuiteConfig, extra: Record<string, string>): Record<string, string> {
  return suiteEnv(ctx.env, suite, extra);
}

/**
 * Build output shared by every checkout, which the base side must not share:
 * cargo keys a build by package, not by folder, so with one CARGO_TARGET_DIR
 * the base worktree's build and the head's overwrite each other and both
 * sides run whichever binary was built last (seen in the criterion test of
 * two-stage-criterion.timing.test.ts: a 2x slowdown measured -0.5 %). The base
 * side builds into a folder of its own inside it.
 */
const BASE_SIDE_FOLDER = 'perf-gate-base';

/** processEnv from the runner's environment alone (the profile step has no RunnerContext). */
export function suiteEnv(runner: NodeJS.ProcessEnv, suite: SuiteConfig, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(runner)) if (v !== undefined && !WITHHELD.test(k)) env[k] = v;
  const merged: Record<string, string> = { ...env, ...suite.env, PERF_GATE_SUITE: suite.name, ...extra };
  const target = merged['CARGO_TARGET_DIR'];
  if (extra['PERF_GATE_SIDE'] === 'base' && target) merged['CARGO_TARGET_DIR'] = join(target, BASE_SIDE_FOLDER);
  return merged;
}

/**
 * What a side's builds and rounds are told: which side they are, and a folder
 * of the side's own for what its build makes (runner/go-test-binary.ts puts
 * Go's compiled test binary there), the same for the build and every round.
 */
function sideEnv(ctx: RunnerContext, suite: SuiteConfig, side: Side): Record<string, string> {
  return { PERF_GATE_SIDE: side, PERF_GATE_BUILD_DIR: join(ctx.outDir, suite.name, `build-${side}`) };
}

/** Runs a suite's `build` in `cwd`; returns the error of a failed build, or null. */
export async function buildSuite(suite: SuiteConfig, cwd: string, dir: string, side: Side | null, ctx: RunnerContext): Promise<BenchmarkError | null> {
  if (suite.build === null) return null;
  mkdirSync(dir, { recursive: true });
  const logPath = join(dir, side ? `build-${side}.log` : 'build.log');
  startLog(logPath);
  const step = side ? `build (${side})` : 'build';
  const timeout = boundedTimeout(suite, ctx);
  if (timeout.byCap && timeout.seconds <= 0) return benchmarkError(`${step} ${STOPPED_BY_CAP} before it started`, null, logPath);
  const result = await ctx.spawner.run({
    command: suite.build,
    cwd,
    env: processEnv(ctx, suite, side ? sideEnv(ctx, suite, side) : {}),
    timeoutSeconds: timeout.seconds,
    logPath,
    stdoutPath: null,
    outputPath: null,
    pin: null,
  });
  const failure = exitProblemOf(step, result, timeout);
  ctx.timed?.(suite.name, 'build', result.seconds);
  ctx.progress.line(`${side ? `[${side}] ` : ''}build: ${failure ?? 'ok'} (${result.seconds.toFixed(1)} s)`);
  return failure ? benchmarkError(failure, result, logPath) : null;
}

function nonEmptyFile(path: string): boolean {
  return existsSync(path) && statSync(path).size > 0;
}

/** Runs the harness once and parses what it wrote. */
export async function invoke(inv: Invocation, ctx: RunnerContext): Promise<InvocationOutcome> {
  const { suite, point } = inv;
  mkdirSync(inv.dir, { recursive: true });
  const logPath = join(inv.dir, `${inv.stem}.log`);
  startLog(logPath);
  const outputPath = join(inv.dir, `${inv.stem}.output`);
  rmSync(outputPath, { force: true });
  const paramEnv = Object.fromEntries(Object.entries(point).map(([k, v]) => [paramEnvName(k), v]));
  const timeout = boundedTimeout(suite, ctx);
  const result = await ctx.spawner.run({
    command: fillTemplate(suite.run, { ...point, output: outputPath }),
    cwd: inv.cwd,
    env: processEnv(ctx, suite, { ...paramEnv, PERF_GATE_OUTPUT: outputPath, ...(inv.side ? sideEnv(ctx, suite, inv.side) : {}) }),
    timeoutSeconds: timeout.seconds,
    logPath,
    stdoutPath: writesOutputFile(suite.run) ? null : outputPath,
    outputPath,
    pin: inv.pin,
  });
  const exitProblem = exitProblemOf('run', result, timeout);
  ctx.timed?.(suite.name, 'run', result.seconds);
  let parsed: BenchmarkResult[] = [];
  let parseProblem: string | null = null;
  if (!nonEmptyFile(outputPath)) {
    parseProblem = `the harness wrote no output to ${outputPath}`;
  } else {
    try {
      parsed = ctx.parse(outputPath, suite.format, suite.formatOptions, suite.name);
      if (parsed.length === 0) parseProblem = `no benchmark found in ${outputPath}`;
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      parseProblem = `unusable output: ${error.message}`;
    }
  }
  const suffix = pointSuffix(point);
  const hasPoint = Object.keys(point).length > 0;
  const named = parsed.map((b): BenchmarkResult => ({
    ...b,
    id: `${suite.name}/${b.id}${suffix}`,
    suite: suite.name,
    ...(b.params || hasPoint ? { params: { ...b.params, ...point } } : {}),
  }));
  // The adapter bounds the harness's names; the suite's prefix and a sweep's suffix must fit the stored run's bound too.
  const tooLong = named.find((b) => b.id.length > MAX_BENCHMARK_ID_LENGTH);
  if (tooLong && parseProblem === null)
    parseProblem = `unusable output: benchmark "${tooLong.id.slice(0, 60)}…" is ${tooLong.id.length.toLocaleString('en')} characters long with the suite's name before it; expected at most ${MAX_BENCHMARK_ID_LENGTH.toLocaleString('en')}`;
  const results = tooLong ? [] : named;
  const problem = exitProblem ?? parseProblem;
  const label = `${inv.side ? `[${inv.side}] ` : ''}run${suffix}`;
  ctx.progress.line(`${label}: ${problem ?? `ok, ${results.length} benchmark(s)`} (${result.seconds.toFixed(1)} s)`);
  return { results, error: problem ? benchmarkError(problem, result, logPath) : null, logPath };
}
