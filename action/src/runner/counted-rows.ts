/**
 * Counted runs as benchmark rows: each command's repeats under cachegrind
 * become one benchmark whose samples are the repeats (runner/counter.ts runs
 * them; the cachegrind adapter reads their files).
 *
 * The metrics keep the `exact` mark the metric table gives counts
 * (model/metrics.ts). `exact` makes the gate compare the median of the
 * repeats against the tolerance without a statistical test; the samples stay
 * in the file and the report, so the repeat-to-repeat spread is still
 * visible. Without `exact`, three repeats could never decide: the rank test's
 * smallest two-sided p-value for 3 against 3 samples is 0.1, so every row
 * would stay inconclusive however large the change (docs/counting.md).
 */
import { readFileSync } from 'node:fs';
import { buildMetric } from '../adapters/build-metric.js';
import { cachegrindAdapter } from '../adapters/cachegrind.js';
import { fileInput } from '../adapters/index.js';
import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import { runFailed, type CountedRun } from './counter.js';

/** What the wrapper's cachegrind file names as its command when it is the `sh -c` wrapper, not an exec'd program (the adapter trims it). */
function wrapperCmd(command: string): string {
  return `sh -c ${command}`.trim();
}

/**
 * One run's counts: the metric values of every counted process's file, summed
 * (every metric is a sum of events); null when the command started no program
 * (shell builtins only: the wrapper shell is never counted).
 */
export function runValues(run: CountedRun): Record<string, number> | null {
  const files = [...(run.startedFile ? [run.startedFile] : []), ...run.childFiles];
  const totals: Record<string, number> = {};
  let counted = 0;
  for (const path of files) {
    const [result] = cachegrindAdapter.parse(fileInput(path, readFileSync(path, 'utf8')));
    if (path === run.startedFile && result!.id === wrapperCmd(run.command)) continue;
    counted++;
    for (const [name, metric] of Object.entries(result!.metrics)) totals[name] = (totals[name] ?? 0) + metric.value!;
  }
  return counted > 0 ? totals : null;
}

/** How a failed run ended, in words. */
function failureMessage(run: CountedRun, repeats: number): string {
  const which = `repeat ${run.repeat + 1} of ${repeats}`;
  if (run.timedOut) return `timed out under valgrind (${which}); the time limit covers valgrind's slowdown, raise --timeout`;
  if (run.signal) return `was killed by ${run.signal} under valgrind (${which})`;
  return `exited with code ${String(run.exitCode)} under valgrind (${which})`;
}

/** One benchmark row: the repeats as samples, or a failed row with the exit status and stderr's tail. */
export function countedBenchmark(command: string, runs: readonly CountedRun[], repeats: number, id = command): BenchmarkResult {
  const failed = runs.find(runFailed);
  if (failed) {
    return {
      id,
      status: 'failed',
      error: { message: failureMessage(failed, repeats), exitCode: failed.exitCode, signal: failed.signal, logTail: failed.stderrTail },
      metrics: {},
    };
  }
  let counted: (Record<string, number> | null)[];
  try {
    counted = runs.map(runValues);
  } catch (error) {
    // A file valgrind left unreadable still makes a row: the command is never silently missing.
    if (!(error instanceof InputError)) throw error;
    return notCounted(id, `its cachegrind output is unusable: ${error.message}`);
  }
  const values = counted.filter((v): v is Record<string, number> => v !== null);
  if (values.length < counted.length) {
    return notCounted(id, 'started no program: only shell builtins ran, and perf-gate count leaves the wrapper shell out (docs/counting.md); run a program, e.g. "sh -c \'...\'" to count a shell script');
  }
  // Every run has the same metrics (the same valgrind flags); keep only those all have, in the first run's order.
  const names = Object.keys(values[0]!).filter((name) => values.every((v) => v[name] !== undefined));
  const metrics: Record<string, Metric> = Object.fromEntries(
    names.map((name) => [name, buildMetric(name, 'count', { samples: values.map((v) => v[name]!) }, name === 'instructions' ? { sourceUnit: 'Ir' } : {})]),
  );
  return { id, status: 'ok', metrics };
}

/** A failed row for a command that exited 0 but gave nothing to count. */
function notCounted(id: string, message: string): BenchmarkResult {
  return { id, status: 'failed', error: { message, exitCode: 0, signal: null }, metrics: {} };
}

