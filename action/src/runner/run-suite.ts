import { join } from 'node:path';
import { pushAll, type BenchmarkError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { SuiteConfig } from '../config/perf-gate-config.js';
import { failedRows } from './failure.js';
import { buildSuite, invoke, type RunnerContext } from './invoke.js';
import { mergeMetrics } from './merge-samples.js';
import { runCommandSuite } from './run-commands.js';
import { pointLabel, pointSuffix, sweepPoints } from './sweep.js';

/** Merges the results of repeated invocations by id (samples concatenated in order). */
function mergeRepeats(runs: readonly BenchmarkResult[][]): BenchmarkResult[] {
  const byId = new Map<string, BenchmarkResult[]>();
  for (const run of runs) for (const b of run) byId.set(b.id, [...(byId.get(b.id) ?? []), b]);
  return [...byId.values()].map((parts) => {
    const names = [...new Set(parts.flatMap((p) => Object.keys(p.metrics)))];
    const metrics: Record<string, Metric> = {};
    for (const name of names) metrics[name] = mergeMetrics(parts.flatMap((p) => (p.metrics[name] ? [p.metrics[name]] : [])));
    return { ...parts[0]!, metrics };
  });
}

/**
 * Runs one suite: `build` once, then `run` for every sweep point (`repeat`
 * times each); a `commands:` suite is measured by runner/run-commands.ts. A
 * failure at one point gives failed rows for that point only; a failed build
 * fails the whole suite. `expected` are the baseline's benchmarks, so a crash
 * shows as failed rows for what should have been there.
 */
export async function runSuite(suite: SuiteConfig, ctx: RunnerContext, expected: readonly BenchmarkResult[]): Promise<BenchmarkResult[]> {
  if (suite.commands !== null) return runCommandSuite(suite, ctx, expected);
  const dir = join(ctx.outDir, suite.name);
  const buildError = await buildSuite(suite, suite.workdir, dir, null, ctx);
  if (buildError) return failedRows(suite.name, {}, '', new Set(), expected, buildError);
  const rows: BenchmarkResult[] = [];
  for (const [i, point] of sweepPoints(suite.params).entries()) {
    const runs: BenchmarkResult[][] = [];
    let error: BenchmarkError | null = null;
    for (let k = 1; k <= suite.repeat && !error; k++) {
      const stem = ['run', pointLabel(point, i), suite.repeat > 1 ? `r${k}` : ''].filter(Boolean).join('.');
      const outcome = await invoke({ suite, point, cwd: suite.workdir, dir, stem, side: null, pin: null }, ctx);
      runs.push(outcome.results);
      error = outcome.error;
    }
    const delivered = mergeRepeats(runs);
    pushAll(rows, delivered);
    if (error) pushAll(rows, failedRows(suite.name, point, pointSuffix(point), new Set(delivered.map((b) => b.id)), expected, error));
  }
  return rows;
}

/**
 * Runs suites one after another, each in its own progress group, and hands
 * the results so far to `onSuiteDone` (the CLI writes partial results there,
 * so a cancelled job still leaves something to upload).
 */
export async function runSuites(
  suites: readonly SuiteConfig[],
  ctx: RunnerContext,
  expected: readonly BenchmarkResult[],
  onSuiteDone: (soFar: readonly BenchmarkResult[]) => void = () => undefined,
): Promise<BenchmarkResult[]> {
  const all: BenchmarkResult[] = [];
  for (const [i, suite] of suites.entries()) {
    ctx.progress.begin(i + 1, suites.length, `suite ${suite.name}`);
    pushAll(all, await runSuite(suite, ctx, expected));
    onSuiteDone(all);
  }
  ctx.progress.end();
  return all;
}
