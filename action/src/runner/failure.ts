import { readFileSync } from 'node:fs';
import type { BenchmarkError, BenchmarkResult } from '../model/index.js';
import type { SpawnResult } from './spawn.js';
import type { SweepPoint } from './sweep.js';

/** Lines of a log kept in a failed row (the whole log stays in the output folder). */
export const LOG_TAIL_LINES = 20;
const LOG_TAIL_CHARS = 4000;

/** The last lines of a log file ('' when it cannot be read). */
export function logTail(path: string, lines = LOG_TAIL_LINES): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return '';
  }
  const tail = text.replace(/\s+$/, '').split('\n').slice(-lines).join('\n');
  return tail.length > LOG_TAIL_CHARS ? tail.slice(-LOG_TAIL_CHARS) : tail;
}

/** Describes how a process ended, or null when it exited 0. */
export function describeExit(step: string, result: SpawnResult, timeoutSeconds: number): string | null {
  if (result.timedOut) return `${step} timed out after ${timeoutSeconds} s; its process group was killed`;
  if (result.signal) return `${step} was killed by ${result.signal}`;
  if (result.exitCode !== 0) return `${step} exited with code ${String(result.exitCode)}`;
  return null;
}

/** The error record of a failed invocation. */
export function benchmarkError(message: string, result: SpawnResult | null, logPath: string): BenchmarkError {
  return {
    message,
    exitCode: result ? result.exitCode : null,
    signal: result ? (result.timedOut && !result.signal ? 'SIGTERM' : result.signal) : null,
    logTail: logTail(logPath),
  };
}

/** Whether a baseline benchmark belongs to this suite and sweep point. */
function belongsTo(b: BenchmarkResult, suite: string, point: SweepPoint): boolean {
  const inSuite = b.suite !== undefined ? b.suite === suite : b.id.startsWith(`${suite}/`);
  return inSuite && Object.entries(point).every(([k, v]) => b.params?.[k] === v);
}

/**
 * Failed rows for one suite invocation: one per expected benchmark (from the
 * baseline) the harness did not deliver; when that leaves nothing to show the
 * failure, one row named after the suite (and point), so a crash is never silent.
 */
export function failedRows(
  suite: string,
  point: SweepPoint,
  suffix: string,
  delivered: ReadonlySet<string>,
  expected: readonly BenchmarkResult[],
  error: BenchmarkError,
): BenchmarkResult[] {
  const params = Object.keys(point).length ? { ...point } : undefined;
  const missing = expected.filter((b) => belongsTo(b, suite, point) && !delivered.has(b.id));
  const rows = missing.map((b): BenchmarkResult => ({
    id: b.id,
    suite,
    ...(b.params || params ? { params: { ...b.params, ...params } } : {}),
    status: 'failed',
    error,
    metrics: {},
  }));
  if (rows.length > 0) return rows;
  return [{ id: `${suite}${suffix}`, suite, ...(params ? { params } : {}), status: 'failed', error, metrics: {} }];
}
