import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_SCHEMA, type Calibration, type DataFile, type Design, type Load, type Trial } from './data-file.js';
import { seededRandom, type Random } from '../../action/src/stats/prng.js';
import { shuffled } from './stats/shuffle.js';

/**
 * The expensive half of the detection benchmark: compiles bench/detect/work.c,
 * calibrates it to about 20 ms per run, and times real A/A and A/B trials on
 * this machine — sequential blocks (a stored-baseline comparison) and
 * interleaved rounds, each quiet and with the other core kept busy. Every
 * process is timed from Node with process.hrtime.bigint() around spawnSync
 * (fork + exec + run + exit, as hyperfine would see it, without its shell).
 * Trials run in a seeded random order so that drift of the shared machine
 * spreads over all conditions instead of biasing one.
 */

export interface CollectPlan {
  mode: 'quick' | 'full';
  samplesPerSide: number;
  /** A/A trials per design × load. */
  aaTrials: number;
  /** A/B trials per design × load × slowdown. */
  abTrials: number;
  slowdowns: number[];
  targetSeconds: number;
  seed: number;
}

export const FULL_PLAN: CollectPlan = {
  mode: 'full',
  samplesPerSide: 30,
  aaTrials: 80,
  abTrials: 30,
  slowdowns: [2, 5, 10],
  targetSeconds: 0.02,
  seed: 20261121,
};
export const QUICK_PLAN: CollectPlan = {
  mode: 'quick',
  samplesPerSide: 10,
  aaTrials: 6,
  abTrials: 3,
  slowdowns: [2, 5, 10],
  targetSeconds: 0.02,
  seed: 20261121,
};

/** Upper bound on one background spinner's life, whatever happens to this process. */
const SPIN_LIMIT_SECONDS = 30;
/**
 * Hard cap on the trial phase: when reached, the remaining trials are skipped.
 * Trials run in shuffled order, so every condition keeps its share.
 */
const MAX_TOTAL_SECONDS = 20 * 60;

interface Workload {
  binary: string;
  iterations: number;
  loopShare: number;
}

export function timeRun(binary: string, args: readonly string[]): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const t1 = process.hrtime.bigint();
  if (r.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed: ${r.status ?? r.signal} ${String(r.stderr)}`);
  return Number(t1 - t0) / 1e9;
}

function medianOf(xs: readonly number[]): number {
  const s = xs.slice().sort((p, q) => p - q);
  return s.length % 2 ? (s[s.length >> 1] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
}

export function compile(dir: string): string {
  const source = new URL('./work.c', import.meta.url).pathname;
  const binary = join(dir, 'work');
  const r = spawnSync('gcc', ['-O2', '-o', binary, source], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`gcc failed (is gcc installed?): ${r.stderr || r.error?.message}`);
  return binary;
}

/**
 * Calibrates until the loop's share of wall time is plausible: on a stalling
 * virtual machine the median spawn overhead can, now and then, come out as
 * large as a whole run, and a share near zero would scale every slowdown
 * into nonsense.
 */
export function calibrate(binary: string, targetSeconds: number): Calibration {
  const attempts = 3;
  let last: Calibration | undefined;
  for (let attempt = 0; attempt < attempts; attempt++) {
    last = calibrateOnce(binary, targetSeconds);
    if (last.loopShare >= 0.2 && last.loopShare < 1) return last;
  }
  throw new Error(
    `calibration failed ${attempts} times: the loop is ${((last?.loopShare ?? 0) * 100).toFixed(1)} % of a ` +
      `${((last?.aSeconds ?? 0) * 1e3).toFixed(2)} ms run; the machine is too busy to measure (see its load average)`,
  );
}

/** Finds the iteration count for ~targetSeconds per run and the loop's share of wall time. */
function calibrateOnce(binary: string, targetSeconds: number): Calibration {
  let iterations = 5e6;
  for (let round = 0; round < 4; round++) {
    const t = medianOf(Array.from({ length: 7 }, () => timeRun(binary, [String(iterations), '0'])));
    const overhead = medianOf(Array.from({ length: 7 }, () => timeRun(binary, ['1', '0'])));
    // On a busy machine the measured overhead can approach the target: keep the step sane.
    const wanted = Math.max(targetSeconds - overhead, targetSeconds / 2);
    const scaled = Math.round((iterations * wanted) / Math.max(1e-4, t - overhead));
    iterations = Math.min(1e10, Math.max(1000, scaled));
  }
  const a: number[] = [];
  const o: number[] = [];
  for (let i = 0; i < 15; i++) {
    a.push(timeRun(binary, [String(iterations), '0']));
    o.push(timeRun(binary, ['1', '0']));
  }
  const aSeconds = medianOf(a);
  const overheadSeconds = medianOf(o);
  return { iterations, aSeconds, overheadSeconds, loopShare: (aSeconds - overheadSeconds) / aSeconds };
}

function runSide(w: Workload, slowdown: number): number {
  const workPercent = slowdown / w.loopShare;
  return timeRun(w.binary, [String(w.iterations), workPercent.toFixed(4)]);
}

function startSpinner(binary: string, spinners: Set<ChildProcess>): ChildProcess {
  const child = spawn(binary, ['--spin', String(SPIN_LIMIT_SECONDS)], { stdio: 'ignore' });
  spinners.add(child);
  child.on('exit', () => spinners.delete(child));
  return child;
}

function stopSpinner(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Lets the event loop run briefly so a freshly spawned spinner gets going. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface Condition {
  design: Design;
  load: Load;
  slowdown: number;
}

function conditions(plan: CollectPlan): Condition[] {
  const out: Condition[] = [];
  for (const design of ['sequential', 'interleaved'] as const)
    for (const load of ['quiet', 'busy'] as const) {
      for (let i = 0; i < plan.aaTrials; i++) out.push({ design, load, slowdown: 0 });
      for (const slowdown of plan.slowdowns) for (let i = 0; i < plan.abTrials; i++) out.push({ design, load, slowdown });
    }
  return out;
}

function runTrial(w: Workload, c: Condition, k: number, random: Random, startedAt: number): Trial {
  // One warm-up run of each side (not recorded), as hyperfine --warmup 1.
  runSide(w, 0);
  runSide(w, c.slowdown);
  const a: number[] = [];
  const b: number[] = [];
  if (c.design === 'sequential') {
    for (let i = 0; i < k; i++) a.push(runSide(w, 0));
    for (let i = 0; i < k; i++) b.push(runSide(w, c.slowdown));
    return { ...c, a, b, startedAt };
  }
  let order = '';
  for (let i = 0; i < k; i++) {
    if (random.next() < 0.5) {
      a.push(runSide(w, 0));
      b.push(runSide(w, c.slowdown));
      order += 'A';
    } else {
      b.push(runSide(w, c.slowdown));
      a.push(runSide(w, 0));
      order += 'B';
    }
  }
  return { ...c, a, b, order, startedAt };
}

function machineText(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.status === 0 ? (r.stdout.split('\n')[0]?.trim() ?? '') : 'unknown';
}

function cpuModel(): string {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return m?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
  } catch {
    return cpus()[0]?.model ?? 'unknown';
  }
}

const round3 = (xs: number[]): [number, number, number] => [xs[0] ?? 0, xs[1] ?? 0, xs[2] ?? 0];

/** Round seconds to 0.1 µs so the data file stays small but ties stay rare. */
const compact = (xs: number[]): number[] => xs.map((x) => Math.round(x * 1e7) / 1e7);

export async function collect(plan: CollectPlan, log: (line: string) => void): Promise<DataFile> {
  const started = new Date();
  const loadBefore = round3(loadavg());
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-detect-'));
  const spinners = new Set<ChildProcess>();
  const killAll = (): void => spinners.forEach(stopSpinner);
  const onSignal = (signal: NodeJS.Signals): void => {
    killAll();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('exit', killAll);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const binary = compile(dir);
    const calibration = calibrate(binary, plan.targetSeconds);
    log(
      `calibrated: ${calibration.iterations} iterations, A ${(calibration.aSeconds * 1e3).toFixed(2)} ms, ` +
        `spawn overhead ${(calibration.overheadSeconds * 1e3).toFixed(2)} ms, loop share ${(calibration.loopShare * 100).toFixed(1)} %`,
    );
    const w: Workload = { binary, iterations: calibration.iterations, loopShare: calibration.loopShare };
    const random = seededRandom(plan.seed);
    const todo = shuffled(conditions(plan), random);
    const runs = todo.length * 2 * (plan.samplesPerSide + 1);
    log(
      `${todo.length} trials, ${runs} runs: about ${Math.round((runs * calibration.aSeconds * 1.2) / 60)} min if the machine stays as it is now (cap ${MAX_TOTAL_SECONDS / 60} min)`,
    );
    const trials: Trial[] = [];
    const t0 = Date.now();
    for (const [i, c] of todo.entries()) {
      const elapsed = (Date.now() - t0) / 1000;
      if (elapsed > MAX_TOTAL_SECONDS) {
        log(`stopping early: ${MAX_TOTAL_SECONDS} s cap reached after ${i} trials`);
        break;
      }
      let spinner: ChildProcess | null = null;
      const loadAtStart = loadavg()[0] ?? 0;
      try {
        if (c.load === 'busy') {
          spinner = startSpinner(binary, spinners);
          await pause(30);
        }
        const t = runTrial(w, c, plan.samplesPerSide, random, elapsed);
        trials.push({ ...t, a: compact(t.a), b: compact(t.b), load1: loadAtStart });
      } finally {
        if (spinner) stopSpinner(spinner);
      }
      if ((i + 1) % 20 === 0 || i + 1 === todo.length) {
        const rate = (Date.now() - t0) / 1000 / (i + 1);
        log(`${i + 1}/${todo.length} trials, ${elapsed.toFixed(0)} s, about ${(rate * (todo.length - i - 1)).toFixed(0)} s left`);
      }
      await pause(1);
    }
    const finished = new Date();
    return {
      schema: DATA_SCHEMA,
      mode: plan.mode,
      timing: 'process.hrtime.bigint() around child_process.spawnSync of each run (fork, exec, run, exit); one unrecorded warm-up run per side per trial',
      seed: plan.seed,
      started: started.toISOString(),
      finished: finished.toISOString(),
      durationSeconds: (finished.getTime() - started.getTime()) / 1000,
      machine: {
        nproc: cpus().length,
        cpu: cpuModel(),
        kernel: machineText('uname', ['-r']),
        node: process.version,
        gcc: machineText('gcc', ['--version']),
        loadBefore,
        loadAfter: round3(loadavg()),
      },
      calibration,
      samplesPerSide: plan.samplesPerSide,
      planned: { aaTrials: plan.aaTrials, abTrials: plan.abTrials, slowdowns: plan.slowdowns },
      trials,
    };
  } finally {
    killAll();
    process.removeListener('exit', killAll);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    rmSync(dir, { recursive: true, force: true });
  }
}

export function writeData(path: string, data: DataFile): void {
  const { trials, ...head } = data;
  // One trial per line: diffable and still compact.
  const lines = trials.map((t) => '    ' + JSON.stringify(t));
  const headText = JSON.stringify(head, null, 2).replace(/\n}$/, '');
  writeFileSync(path, `${headText},\n  "trials": [\n${lines.join(',\n')}\n  ]\n}\n`);
}
