/**
 * Why it got slower, in functions: once a regression in a suite with
 * `profile:` is confirmed (by a pull request's second stage, or by the fresh
 * rounds of `run --ab`), the benchmark's command runs once more on each side
 * (the base worktree, then the head) under perf or callgrind; the stacks are
 * folded, the differential flame graph drawn, and the functions whose share
 * of the work grew most go into the report. The step is bounded by
 * `profile-time-cap`, never changes a verdict, and says what it could not
 * do, with the fix.
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { PerfGateConfig, SuiteConfig } from '../config/perf-gate-config.js';
import type { GateReport, VerdictRow } from '../gate/index.js';
import { fillTemplate, type ProfileSection, type RegressionProfile } from '../model/index.js';
import { suiteEnv } from '../runner/invoke.js';
import { foldedText } from '../runner/profile/callgrind-stacks.js';
import { writeDiffFlameGraph } from '../runner/profile/flamegraph.js';
import { functionGrowth, GROWTH_THRESHOLD, prunedStacks, totalCost } from '../gate/index.js';
import { chooseProfiler, perfCannotSample, recordSide, valgrindRuns, type Profiler } from '../runner/profile/record.js';
import { realpathOrSelf } from '../store/index.js';
import type { RunContext, Spawner } from './run-deps.js';

export interface ProfileRequest {
  /** The two-stage report: its confirmed regressions are profiled. */
  report: GateReport;
  config: PerfGateConfig;
  /** Which suite each benchmark came from. */
  suiteOf(benchmark: string): SuiteConfig | undefined;
  /** The base worktree and the head checkout (the repository root of each). */
  checkouts: { base: string; head: string };
  /** The run's output folder: profiles go to its `profile/` folder. */
  outDir: string;
}

/** A regressed row measured twice: decided by the second stage, or confirmed by the fresh rounds of `run --ab`. */
function confirmed(row: VerdictRow): boolean {
  return row.status === 'regressed' && (row.stage?.by === 'interleaved' || (row.stage === undefined && row.flags.includes('confirmed')));
}

/** The benchmarks to profile: confirmed regressions of suites with `profile:`, each benchmark once. */
function confirmedRegressions(report: GateReport, suiteOf: ProfileRequest['suiteOf']): Array<{ benchmark: string; suite: SuiteConfig }> {
  const seen = new Set<string>();
  const out: Array<{ benchmark: string; suite: SuiteConfig }> = [];
  for (const row of report.rows) {
    if (!confirmed(row) || seen.has(row.benchmark)) continue;
    const suite = suiteOf(row.benchmark);
    if (suite?.profile == null) continue;
    seen.add(row.benchmark);
    out.push({ benchmark: row.benchmark, suite });
  }
  return out;
}

/** The command that runs one benchmark: a commands: suite's own command, else profile-command (or the run line) with its placeholders filled. */
function commandOf(benchmark: string, suite: SuiteConfig, scratch: string): string | { skip: string } {
  const name = benchmark.startsWith(`${suite.name}/`) ? benchmark.slice(suite.name.length + 1) : benchmark;
  if (suite.commands) {
    const command = suite.commands.find((c) => c.name === name)?.command;
    return command ?? { skip: `no command of suite ${suite.name} is named ${JSON.stringify(name)}` };
  }
  if (suite.params && suite.profile?.command == null) return { skip: `suite ${suite.name} sweeps parameters: give it a profile-command that runs one point` };
  return fillTemplate(suite.profile?.command ?? suite.run, { benchmark: name, output: scratch });
}

/** A folder name for a benchmark id: safe characters only, unique within the run. */
function folderName(benchmark: string, taken: Set<string>): string {
  const base =
    benchmark
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._-]+/, '')
      .slice(0, 80) || 'benchmark';
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
  taken.add(name);
  return name;
}

/** The report with a `profiles` section when a confirmed regression's suite asked for one; else the report as it was. */
export async function profileConfirmedRegressions(request: ProfileRequest, ctx: RunContext): Promise<GateReport> {
  const targets = confirmedRegressions(request.report, request.suiteOf);
  if (targets.length === 0) return request.report;
  const started = performance.now();
  const deadline = started + request.config.profileTimeCap * 1000;
  const probes = { perf: () => perfCannotSample(ctx.env), callgrind: () => valgrindRuns(ctx.env) };
  const chosen = new Map<string, ReturnType<typeof chooseProfiler>>();
  const profiles: RegressionProfile[] = [];
  const warnings: string[] = [];
  const taken = new Set<string>();
  for (const { benchmark, suite } of targets) {
    const choice = suite.profile!.tool;
    if (!chosen.has(choice)) chosen.set(choice, chooseProfiler(choice, probes));
    const { tool, warning } = chosen.get(choice)!;
    if (warning && !warnings.includes(warning)) warnings.push(warning);
    if (tool === null) continue;
    const dir = join(request.outDir, 'profile', folderName(benchmark, taken));
    const command = commandOf(benchmark, suite, join(dir, 'harness-output'));
    if (typeof command !== 'string') {
      warnings.push(`${benchmark}: not profiled: ${command.skip}`);
      continue;
    }
    const left = (deadline - performance.now()) / 1000;
    if (left < 1) {
      warnings.push(`${benchmark}: not profiled: the profile time cap (${request.config.profileTimeCap} s) was spent; raise profile-time-cap`);
      continue;
    }
    ctx.write(`perf-gate: profiling ${benchmark} under ${tool}, base then head\n`);
    const profile = await profileBoth({
      benchmark,
      suite,
      tool,
      command,
      dir,
      left,
      request,
      env: ctx.env,
      spawner: ctx.deps.spawner,
      filesRoot: ctx.published?.dir ?? request.outDir,
    });
    if ('error' in profile) warnings.push(`${benchmark}: not profiled: ${profile.error}`);
    else {
      profiles.push(profile.profile);
      if (profile.warning) warnings.push(`${benchmark}: ${profile.warning}`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  ctx.write(`perf-gate: profiles took ${seconds.toFixed(1)} s (cap ${request.config.profileTimeCap} s)\n`);
  const url = ctx.published?.artifactsUrl;
  const section: ProfileSection = { profiles, warnings, seconds, cap: request.config.profileTimeCap, ...(url ? { artifactUrl: url } : {}) };
  return { ...request.report, profiles: section };
}

interface BothSides {
  benchmark: string;
  suite: SuiteConfig;
  tool: Profiler;
  command: string;
  dir: string;
  /** Seconds left under the cap. */
  left: number;
  request: ProfileRequest;
  env: NodeJS.ProcessEnv;
  spawner: Spawner;
  /** Where the report's file names start (ProfileSection.files). */
  filesRoot: string;
}

/** Records the base side then the head side, each in its own checkout, and compares them. */
async function profileBoth(job: BothSides): Promise<{ profile: RegressionProfile; warning: string | null } | { error: string }> {
  const { request, suite } = job;
  const workdir = realpathOrSelf(suite.workdir);
  const cwd = { base: join(request.checkouts.base, relative(request.checkouts.head, workdir)), head: workdir };
  const record = (side: 'base' | 'head', timeoutSeconds: number) =>
    recordSide({
      tool: job.tool,
      command: job.command,
      cwd: cwd[side],
      env: suiteEnv(job.env, suite, { PERF_GATE_SIDE: side }),
      dir: join(job.dir, side),
      timeoutSeconds,
      spawner: job.spawner,
    });
  // The base side may take half of what is left, so the head side always gets its turn.
  const base = await record('base', Math.max(1, job.left / 2));
  if ('error' in base) return { error: `the base side ${base.error}` };
  const head = await record('head', Math.max(1, job.left - base.seconds));
  if ('error' in head) return { error: `the head side ${head.error}` };
  const files = { base: join(job.dir, 'base.folded'), head: join(job.dir, 'head.folded'), flameGraph: join(job.dir, 'diff.svg') };
  writeFileSync(files.base, foldedText(prunedStacks(base.stacks)));
  writeFileSync(files.head, foldedText(prunedStacks(head.stacks)));
  const countName = job.tool === 'callgrind' ? 'instructions' : 'samples';
  const drawn = writeDiffFlameGraph({
    basePath: files.base,
    headPath: files.head,
    svgPath: files.flameGraph,
    title: `${job.benchmark}: head against base (${job.tool})`,
    countName,
    normalize: job.tool === 'perf',
    env: job.env,
  });
  const rel = (path: string) => relative(job.filesRoot, path).split('\\').join('/');
  return {
    profile: {
      benchmark: job.benchmark,
      profiler: job.tool,
      countName,
      seconds: base.seconds + head.seconds,
      totals: { before: totalCost(base.stacks), after: totalCost(head.stacks) },
      files: { flameGraph: drawn === null ? rel(files.flameGraph) : null, base: rel(files.base), head: rel(files.head) },
      top: functionGrowth(base.stacks, head.stacks, { threshold: GROWTH_THRESHOLD[job.tool] }),
    },
    warning: drawn === null ? null : `no flame graph: ${drawn}`,
  };
}
