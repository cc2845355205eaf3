/**
 * Counted runs as benchmark rows: each command's repeats under a counting
 * tool become one benchmark whose samples are the repeats (runner/counter.ts
 * runs them; the tool reads their files).
 *
 * The metrics keep the `exact` mark the metric table gives counts
 * (model/metrics.ts). `exact` makes the gate compare the median of the
 * repeats against the tolerance without a statistical test; the samples stay
 * in the file and the report, so the repeat-to-repeat spread is still
 * visible. Without `exact`, three repeats could never decide: the rank test's
 * smallest two-sided p-value for 3 against 3 samples is 0.1, so every row
 * would stay inconclusive however large the change (docs/counting.md).
 */
import { buildMetric } from '../adapters/build-metric.js';
import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import { runFailed, type CountedRun, type CountingTool, type RunCounts } from './counter.js';

/** How a failed run ended, in words. */
function failureMessage(run: CountedRun, repeats: number, tool: CountingTool): string {
  const which = `repeat ${run.repeat + 1} of ${repeats}`;
  if (run.timedOut) return `timed out ${tool.under} (${which}); the time limit covers the counter's slowdown, raise the timeout`;
  if (run.signal) return `was killed by ${run.signal} ${tool.under} (${which})`;
  return `exited with code ${String(run.exitCode)} ${tool.under} (${which})`;
}

/** One benchmark row: the repeats as samples, or a failed row with the exit status and stderr's tail. */
export function countedBenchmark(command: string, runs: readonly CountedRun[], repeats: number, tool: CountingTool, id = command): BenchmarkResult {
  const failed = runs.find(runFailed);
  if (failed) {
    return {
      id,
      status: 'failed',
      error: { message: failureMessage(failed, repeats, tool), exitCode: failed.exitCode, signal: failed.signal, logTail: failed.stderrTail },
      metrics: {},
    };
  }
  let counted: (RunCounts | null)[];
  try {
    counted = runs.map((run) => tool.read(run));
  } catch (error) {
    // A file the tool left unreadable still makes a row: the command is never silently missing.
    if (!(error instanceof InputError)) throw error;
    return notCounted(id, `its ${tool.name} output is unusable: ${error.message}`);
  }
  const all = counted.filter((v): v is RunCounts => v !== null);
  if (all.length < counted.length) {
    return notCounted(
      id,
      'started no program: only shell builtins ran, and perf-gate count leaves the wrapper shell out (docs/counting.md); run a program, e.g. "sh -c \'...\'" to count a shell script',
    );
  }
  const values = all.map((c) => c.values);
  // Every run has the same metrics (the same flags); keep only those all have, in the first run's order.
  const names = Object.keys(values[0]!).filter((name) => values.every((v) => v[name] !== undefined));
  const unavailable: Record<string, string> = Object.assign({}, ...all.map((c) => c.unavailable));
  for (const name of names) delete unavailable[name];
  if (names.length === 0) {
    const what = Object.entries(unavailable)
      .map(([metric, why]) => `${metric} ${why}`)
      .join(', ');
    return notCounted(id, `counts not measured: ${tool.name} counted none of its events here${what ? ` (${what})` : ''}: ${tool.nothingCountedFix}`);
  }
  const metrics: Record<string, Metric> = Object.fromEntries(
    names.map((name) => [
      name,
      buildMetric(name, 'count', { samples: values.map((v) => v[name]!) }, name === 'instructions' && tool.name === 'cachegrind' ? { sourceUnit: 'Ir' } : {}),
    ]),
  );
  return { id, status: 'ok', metrics, ...(Object.keys(unavailable).length > 0 ? { unavailable } : {}) };
}

/** A failed row for a command that exited 0 but gave nothing to count. */
function notCounted(id: string, message: string): BenchmarkResult {
  return { id, status: 'failed', error: { message, exitCode: 0, signal: null }, metrics: {} };
}
