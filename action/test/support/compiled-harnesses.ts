import { spawnSync } from 'node:child_process';
import { decide } from '../../src/gate/index.js';
import type { VerdictRow } from '../../src/gate/types.js';
import { EMPTY_BUDGETS, newResultSet, type BenchmarkResult } from '../../src/model/index.js';
import { notInstalled } from './tools.js';

/** The repository root and the example projects the live tests reuse (`npm run setup` warms their builds). */
export const ROOT = new URL('../../../', import.meta.url).pathname;
export const EXAMPLES = {
  rustCriterion: `${ROOT}examples/rust-criterion`,
  javaJmh: `${ROOT}examples/java-jmh`,
  go: `${ROOT}examples/go`,
};

export interface HarnessRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a benchmark harness (cargo, java, mvn, go, g++, a built binary) with a
 * time limit. A missing tool fails naming the install command, never a skip; a
 * non-zero exit fails with the tail of stderr unless `allowFailure`.
 */
export function runHarness(
  command: string,
  args: string[],
  options: { cwd?: string; timeoutMs?: number; allowFailure?: boolean; env?: Record<string, string> } = {},
): HarnessRun {
  const r = spawnSync(command, args, {
    cwd: options.cwd,
    timeout: options.timeoutMs ?? 120_000,
    encoding: 'utf8',
    env: { ...process.env, ...options.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw notInstalled(command);
  }
  if (r.error) throw new Error(`${command} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0 && !options.allowFailure) {
    throw new Error(`${command} ${args.join(' ')} exited with ${r.status}:\n${r.stderr.split('\n').slice(-30).join('\n')}`);
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Compares one metric of one benchmark through the real gate (default budgets),
 * baseline against current, and returns its verdict row: the end-to-end check
 * that an adapter's direction makes a rise in throughput an improvement.
 */
export function gateRow(baseline: BenchmarkResult, current: BenchmarkResult, metric: string): VerdictRow {
  const only = (b: BenchmarkResult): BenchmarkResult => ({ ...b, metrics: { [metric]: b.metrics[metric]! } });
  const report = decide(newResultSet('2026-11-21T12:00:00Z', [only(baseline)]), newResultSet('2026-11-21T12:05:00Z', [only(current)]), EMPTY_BUDGETS);
  const row = report.rows.find((r) => r.metric === metric);
  if (!row) throw new Error(`the gate produced no row for ${metric}`);
  return row;
}

/**
 * A factor that carries every sample of a metric clear of all the others: ten,
 * or twice the ratio of the slowest to the fastest sample if that is more.
 * The "a rise is improved" tests check an adapter's direction, not the gate's
 * sensitivity, and a real run on a shared machine can hold one sample 15×
 * away from the rest; scaled by this factor, the two sides cannot overlap.
 */
export function factorBeyondSpread(samples: readonly number[]): number {
  const positive = samples.filter((v) => v > 0);
  if (positive.length === 0) throw new Error('no positive samples to scale');
  return Math.max(10, Math.ceil((2 * Math.max(...positive)) / Math.min(...positive)));
}
