import { join } from 'node:path';
import type { SuiteConfig } from '../config/perf-gate-config.js';
import { pushAll, type BenchmarkError, type BenchmarkResult, type Metric } from '../model/index.js';
import { countedBenchmark } from './counted-rows.js';
import { cachegrindTool } from './cachegrind-tool.js';
import { countCommands, type CountingTool } from './counter.js';
import { perfTool } from './perf-tool.js';
import { failedRows } from './failure.js';
import { buildSuite, invoke, processEnv, type RunnerContext } from './invoke.js';

/**
 * A `commands:` suite: perf-gate measures each command itself. `build` runs
 * once; then, as `measure:` says, hyperfine times every command (the suite's
 * generated `run:` line, through the ordinary invocation, so logs, time limit
 * and crash rows are the same as any suite's) and cachegrind counts every
 * command `count-repeat` times (`counter: perf` counts with perf stat
 * instead). Time and counts of a command are one
 * benchmark, `<suite>/<name>`, so they sit side by side in the report.
 *
 * Every command gets a row whatever fails: a command that crashes under the
 * timer or under the counter is a failed row naming which, with the other's
 * measurements kept; a missing counter fails the counted rows with the
 * package to install, never a silent pass on time alone.
 */
export async function runCommandSuite(suite: SuiteConfig, ctx: RunnerContext, expected: readonly BenchmarkResult[]): Promise<BenchmarkResult[]> {
  const commands = suite.commands ?? [];
  const dir = join(ctx.outDir, suite.name);
  const ids = commands.map((c) => `${suite.name}/${c.name}`);
  // Every command is expected, whether or not the baseline has it: a crash must name each.
  const expectedHere = [
    ...expected,
    ...ids.filter((id) => !expected.some((b) => b.id === id)).map((id): BenchmarkResult => ({ id, suite: suite.name, status: 'ok', metrics: {} })),
  ];
  const buildError = await buildSuite(suite, suite.workdir, dir, null, ctx);
  if (buildError) return failedRows(suite.name, {}, '', new Set(), expectedHere, buildError);
  const timed: BenchmarkResult[] = [];
  if (suite.measure.time) {
    const outcome = await invoke({ suite, point: {}, cwd: suite.workdir, dir, stem: 'run', side: null, pin: null }, ctx);
    pushAll(timed, outcome.results);
    if (outcome.error)
      pushAll(
        timed,
        failedRows(
          suite.name,
          {},
          '',
          new Set(timed.map((b) => b.id)),
          expectedHere.filter((b) => ids.includes(b.id)),
          outcome.error,
        ),
      );
  }
  const counted = suite.measure.counts ? await countSuite(suite, ids, dir, ctx) : [];
  return ids.map((id) =>
    joinMeasurements(
      id,
      suite.name,
      timed.find((b) => b.id === id),
      counted.find((b) => b.id === id),
    ),
  );
}

/** The counting tool a suite's `counter:` names. */
const COUNTING_TOOLS: Record<SuiteConfig['counter'], CountingTool> = { cachegrind: cachegrindTool, perf: perfTool };

/** Counts every command of the suite under its counter; one row per command. */
async function countSuite(suite: SuiteConfig, ids: readonly string[], dir: string, ctx: RunnerContext): Promise<BenchmarkResult[]> {
  const env = processEnv(ctx, suite, {});
  const started = performance.now();
  const tool = COUNTING_TOOLS[suite.counter];
  const missing = tool.missing(env);
  if (missing !== null) {
    const error: BenchmarkError = {
      message: `counts not measured: "counter: ${tool.name}" runs each command ${tool.under}, and ${missing}`,
      exitCode: null,
      signal: null,
    };
    ctx.progress.line(`counts: ${error.message}`);
    return ids.map((id) => ({ id, suite: suite.name, status: 'failed', error, metrics: {} }));
  }
  const commands = suite.commands ?? [];
  // The counter's files stay in the suite's output folder (the artifact): cg_annotate reads cachegrind's.
  const runs = await countCommands({
    tool,
    commands: commands.map((c) => c.command),
    repeats: suite.countRepeat,
    cwd: suite.workdir,
    env,
    timeoutMs: suite.timeout * 1000,
    workDir: join(dir, 'counts'),
  });
  const rows = commands.map((c, i) => ({ ...countedBenchmark(c.command, runs[i]!, suite.countRepeat, tool, ids[i]!), suite: suite.name }));
  const failed = rows.filter((r) => r.status === 'failed').length;
  ctx.progress.line(
    `counts: ${failed === 0 ? 'ok' : `${failed} of ${rows.length} failed`}, ${rows.length} command(s) × ${suite.countRepeat} ${tool.under} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  return rows;
}

/** One command's row from its timed and counted rows (either may be absent when not measured). */
export function joinMeasurements(id: string, suite: string, timed: BenchmarkResult | undefined, counted: BenchmarkResult | undefined): BenchmarkResult {
  const parts = [timed, counted].filter((b): b is BenchmarkResult => b !== undefined);
  const metrics: Record<string, Metric> = Object.assign({}, ...parts.map((b) => b.metrics));
  if (parts.length === 0)
    return {
      id,
      suite,
      status: 'failed',
      error: { message: 'not measured: neither the timer nor the counter gave a result', exitCode: null, signal: null },
      metrics: {},
    };
  const failures = [
    timed?.status === 'failed' ? { side: 'timed', error: timed.error } : null,
    counted?.status === 'failed' ? { side: 'counted', error: counted.error } : null,
  ].filter((f) => f !== null);
  if (failures.length === 0) return { ...(timed ?? counted)!, id, suite, metrics };
  const error: BenchmarkError = {
    ...failures[0]!.error!,
    message: failures.map((f) => `${f.side}: ${f.error?.message ?? 'failed'}`).join('; '),
  };
  return { id, suite, status: 'failed', error, metrics };
}
