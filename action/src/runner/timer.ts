import { spawnSync } from 'node:child_process';
import { describe } from '../stats/index.js';

/**
 * perf-gate's own timer, the fallback for machines without hyperfine: runs
 * each command `warmup` times unmeasured, then `runs` times, each a fresh
 * `sh -c` process, and records wall time and exit code per run. Its output has
 * the shape of hyperfine's --export-json so every later step is the same.
 * Unlike hyperfine it does not subtract the shell's start-up time (about a
 * millisecond), so prefer hyperfine for very short commands.
 */
export interface TimerOptions {
  commands: readonly string[];
  runs: number;
  warmup: number;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Per-run time limit in milliseconds; a run over it is killed and recorded with exit code 124. */
  timeoutMs: number;
}

export interface TimerResult {
  command: string;
  mean: number;
  stddev: number | null;
  median: number;
  min: number;
  max: number;
  times: number[];
  exit_codes: (number | null)[];
}

function runOnce(command: string, options: TimerOptions): { seconds: number; code: number | null } {
  const start = process.hrtime.bigint();
  const result = spawnSync('sh', ['-c', command], { cwd: options.cwd, env: options.env, stdio: 'ignore', timeout: options.timeoutMs, killSignal: 'SIGKILL' });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') return { seconds, code: 124 };
  // Like hyperfine: a signal shows as 128 + its number.
  const code = result.status ?? (result.signal ? 128 + (signalNumber(result.signal) ?? 0) : null);
  return { seconds, code };
}

function signalNumber(signal: NodeJS.Signals): number | undefined {
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGPIPE: 13, SIGTERM: 15 };
  return numbers[signal];
}

/** Times every command; returns hyperfine-shaped results. */
export function timeCommands(options: TimerOptions): { results: TimerResult[] } {
  const results = options.commands.map((command) => {
    for (let i = 0; i < options.warmup; i++) runOnce(command, options);
    const runs = Array.from({ length: options.runs }, () => runOnce(command, options));
    const times = runs.map((r) => r.seconds);
    const { mean, median, stddev, min, max } = describe(times);
    // hyperfine writes null for a standard deviation it cannot compute (one run).
    return { command, mean, stddev: Number.isFinite(stddev) ? stddev : null, median, min, max, times, exit_codes: runs.map((r) => r.code) };
  });
  return { results };
}
