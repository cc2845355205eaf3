/**
 * Determinism of counting mode (docs/detection.md, "Counting mode"): the
 * detection benchmark's workload (bench/detect/work.c) counted under
 * cachegrind exactly as a `measure: counts` suite counts it, on this machine
 * as it is and with one core kept busy by a spinner.
 *
 * Each run is one counted invocation (`count-repeat: 1`); runs of A (the
 * workload) and B (the same loop doing 1 % more iterations) alternate. An A/A
 * trial gates run A[i+1] against A[i], a detection trial B[i] against A[i],
 * both through the gate at its defaults (counts: exact, 0.5 % tolerance). A
 * false alarm is an A/A trial called `regressed`; a catch, a detection trial
 * called `regressed` on instructions.
 *
 *   npx tsx bench/counting-determinism.ts [--trials 60] [--iterations 5000000]
 *
 * Prints a Markdown table. About 2–3 s per counted run here (valgrind's
 * start-up dominates), so the default 2 × (2 × 60 + 1) runs take 10–15 min.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile } from './detect/collect.js';
import { decide } from '../action/src/gate/index.js';
import { EMPTY_BUDGETS, newResultSet, type BenchmarkResult } from '../action/src/model/index.js';
import { countedBenchmark } from '../action/src/runner/counted-rows.js';
import { cachegrindTool, valgrindVersion } from '../action/src/runner/cachegrind-tool.js';
import { countCommands } from '../action/src/runner/counter.js';
import { median } from '../action/src/stats/index.js';
import { positiveWholeFlag as flag } from './args.js';

const TRIALS = flag('trials', 60);
const ITERATIONS = flag('iterations', 5_000_000);
/** A spinner lives at most this long, whatever happens to this process. */
const SPIN_SECONDS = 3600;

/** One counted run of `command` (one repeat), as the gate would read it. */
async function countOnce(command: string, cwd: string, workDir: string): Promise<BenchmarkResult> {
  const [runs] = await countCommands({ tool: cachegrindTool, commands: [command], repeats: 1, cwd, env: process.env, timeoutMs: 120_000, workDir });
  const row = countedBenchmark(command, runs!, 1, cachegrindTool, 'work');
  if (row.status !== 'ok') throw new Error(`counting ${command} failed: ${row.error?.message}`);
  return row;
}

function verdict(baseline: BenchmarkResult, current: BenchmarkResult): string {
  const report = decide(newResultSet('2026-11-25T00:00:00Z', [baseline]), newResultSet('2026-11-25T00:00:00Z', [current]), EMPTY_BUDGETS);
  return report.rows.find((r) => r.metric === 'instructions')!.status;
}

interface Outcome {
  load: string;
  aa: string[];
  detect: string[];
  instructions: number[];
  estimatedCycles: number[];
  seconds: number;
}

async function measure(load: string, binary: string, dir: string): Promise<Outcome> {
  const started = performance.now();
  const a: BenchmarkResult[] = [];
  const b: BenchmarkResult[] = [];
  for (let i = 0; i <= TRIALS; i++) {
    a.push(await countOnce(`${binary} ${ITERATIONS} 0`, dir, join(dir, `${load}-a${i}`)));
    if (i < TRIALS) b.push(await countOnce(`${binary} ${ITERATIONS} 1`, dir, join(dir, `${load}-b${i}`)));
  }
  return {
    load,
    aa: a.slice(1).map((current, i) => verdict(a[i]!, current)),
    detect: b.map((current, i) => verdict(a[i]!, current)),
    instructions: a.map((r) => r.metrics.instructions!.samples![0]!),
    estimatedCycles: a.map((r) => r.metrics.estimated_cycles!.samples![0]!),
    seconds: (performance.now() - started) / 1000,
  };
}

const spread = (xs: readonly number[]): number => (Math.max(...xs) - Math.min(...xs)) / median(xs);
const share = (xs: readonly string[], status: string): string => `${xs.filter((s) => s === status).length} / ${xs.length}`;

async function main(): Promise<void> {
  if (valgrindVersion(process.env) === null) throw new Error('valgrind is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-count-determinism-'));
  const spinners: ChildProcess[] = [];
  const outcomes: Outcome[] = [];
  try {
    const binary = compile(dir);
    outcomes.push(await measure('as it is', binary, dir));
    spinners.push(spawn(binary, ['--spin', String(SPIN_SECONDS)], { stdio: 'ignore' }));
    outcomes.push(await measure('one core busy', binary, dir));
  } finally {
    for (const s of spinners) s.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`Counting determinism: bench/detect/work.c, ${ITERATIONS} iterations (B: 1 % more), ${TRIALS} trials per load, one counted run each`);
  console.log(
    `(${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${loadavg()[0]!.toFixed(1)} at the end, ${valgrindVersion(process.env)}, Node ${process.version})\n`,
  );
  console.log('| load | A/A trials called regressed | +1 % trials called regressed | instructions: spread of the A runs | estimated cycles: spread | time |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const o of outcomes) {
    console.log(
      `| ${o.load} | ${share(o.aa, 'regressed')} | ${share(o.detect, 'regressed')} | ${(spread(o.instructions) * 100).toPrecision(2)} % | ${(spread(o.estimatedCycles) * 100).toPrecision(2)} % | ${o.seconds.toFixed(0)} s |`,
    );
  }
}

await main();
