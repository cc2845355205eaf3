import type { Finding } from './finding.js';
import type { PreflightOptions } from './options.js';

/** Bounds of the noise probe: it never runs longer than about `durationMs` nor more than `repetitions` timed loops. */
export interface ProbeOptions {
  /** Total time to spend, in milliseconds (default 3000, capped at 30000). */
  durationMs: number;
  /** Timed repetitions of the fixed loop (default 20, at most 200). */
  repetitions: number;
}

export const DEFAULT_PROBE_OPTIONS: ProbeOptions = { durationMs: 3000, repetitions: 20 };

export interface ProbeResult {
  /** Timed repetitions actually made (warm-ups excluded). */
  n: number;
  /** Loop iterations per repetition, calibrated so that each takes about durationMs / (repetitions + 2). */
  iterations: number;
  /** Coefficient of variation of the repetition times (sample stddev / mean). */
  cv: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Wall time the probe took, including calibration and warm-up. */
  elapsedMs: number;
}

/** The longest loop one pass may run, whatever the clock says (bounds the work of a broken or fake clock). */
const MAX_ITERATIONS = 2 ** 28;

/** A monotonic clock in milliseconds; injected so the probe can be tested without timing anything. */
export type Clock = () => number;

export const monotonicMs: Clock = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * A fixed CPU-bound loop (xorshift32): no memory traffic, no allocation, no
 * system calls, so its time varies only with what the machine does to it —
 * frequency changes, preemption, a busy SMT sibling, interrupts.
 */
export function spin(iterations: number): number {
  let x = 0x9e3779b9 | 0;
  for (let i = 0; i < iterations; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  return x;
}

/** The fewest timed passes that estimate a spread. */
const MIN_PASSES = 3;

/**
 * Times the fixed loop repeatedly and reports the spread. Calibrates the loop
 * length first (doubling from 2^16 iterations until one pass takes ≥ 5 ms; no
 * pass ever exceeds 2^28 iterations, about a quarter second), discards two warm-up passes (JIT), then stops at
 * `repetitions` passes or when the time budget is spent, whichever is first,
 * but never before three passes.
 * It measures in-process, so it shows the machine's noise, not the noise of
 * starting processes; a CV above a few percent here means far worse per-run
 * noise for real benchmarks.
 */
export function runNoiseProbe(options: ProbeOptions = DEFAULT_PROBE_OPTIONS, clock: Clock = monotonicMs): ProbeResult {
  const budget = Math.min(Math.max(options.durationMs, 100), 30_000);
  const repetitions = Math.min(Math.max(Math.floor(options.repetitions), 3), 200);
  const start = clock();
  const time = (iterations: number): number => {
    const t0 = clock();
    spin(iterations);
    return clock() - t0;
  };
  let iterations = 1 << 16;
  let calibration = time(iterations);
  while (calibration < 5 && iterations < MAX_ITERATIONS) {
    iterations *= 2;
    calibration = time(iterations);
  }
  const target = budget / (repetitions + 2);
  iterations = Math.min(MAX_ITERATIONS, Math.max(1, Math.round(iterations * (target / Math.max(calibration, 1e-3)))));
  time(iterations);
  time(iterations);
  const times: number[] = [];
  // At least three passes, the fewest that give a spread, even past the time bound: a machine
  // that stalls so long that the bound leaves fewer is exactly what the probe must report.
  for (;;) {
    const spent = clock() - start;
    if (times.length >= repetitions || (times.length >= MIN_PASSES && spent >= budget * 1.5)) break;
    times.push(time(iterations));
  }
  return { ...describe(times), n: times.length, iterations, elapsedMs: clock() - start };
}

function describe(times: number[]): Pick<ProbeResult, 'cv' | 'medianMs' | 'minMs' | 'maxMs'> {
  if (times.length === 0) return { cv: NaN, medianMs: NaN, minMs: NaN, maxMs: NaN };
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const variance = times.length > 1 ? times.reduce((a, t) => a + (t - mean) ** 2, 0) / (times.length - 1) : 0;
  const sorted = [...times].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { cv: mean > 0 ? Math.sqrt(variance) / mean : NaN, medianMs: median, minMs: sorted[0]!, maxMs: sorted[sorted.length - 1]! };
}

/** Judges a probe: a CV above `maxProbeCv` means changes of that order cannot be told from noise. */
export function checkProbe(result: ProbeResult, options: Pick<PreflightOptions, 'maxProbeCv'>): Finding {
  const observed = { cv: result.cv, n: result.n, medianMs: result.medianMs, minMs: result.minMs, maxMs: result.maxMs };
  const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
  if (result.n < 3 || !Number.isFinite(result.cv)) {
    return { check: 'noise', status: 'unknown', message: `Noise probe made only ${result.n} timed passes; no estimate`, observed };
  }
  const shown = `CV ${pct(result.cv)} over ${result.n} passes of a fixed CPU loop (median ${result.medianMs.toFixed(1)} ms)`;
  if (result.cv <= options.maxProbeCv) return { check: 'noise', status: 'ok', message: `Noise probe: ${shown}`, observed };
  return {
    check: 'noise',
    status: 'warn',
    message: `Noise probe: ${shown}, above ${pct(options.maxProbeCv)}: this machine is too noisy to gate on small changes`,
    fix: 'stop other work on the runner, run sudo scripts/tune, pin benchmarks to isolated CPUs; or raise the regression tolerance well above the CV',
    observed,
  };
}
