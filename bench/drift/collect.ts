/**
 * Records a real run history on this machine for the learned-drift benchmark
 * (docs/detection.md, "Drift learned from history"): the detection
 * benchmark's workload (bench/detect/work.c), calibrated to two lengths, run
 * as a sequence of "runs" the way a main branch's job runs its suite. Every
 * slot measures, in random order, one block of A (the unchanged program: the
 * history, and the A/A current) and one block of B (10 % slower by
 * construction: the A/B current), K processes each, with a random pause
 * between slots so that runs spread over time as real ones do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrate, compile, timeRun } from '../detect/collect.js';
import { seededRandom } from '../../action/src/stats/prng.js';

export const HISTORY_SCHEMA = 'perf-gate/drift-history@1';

export interface HistoryPlan {
  slots: number;
  /** Processes per block (samples of one run of one benchmark). */
  samples: number;
  /** Wall time of each benchmark's process, seconds. */
  targets: number[];
  /** Slowdown of B, percent. */
  slowdown: number;
  /** Longest random pause between slots, ms. */
  maxPauseMs: number;
  seed: number;
}

export const FULL_HISTORY_PLAN: HistoryPlan = { slots: 200, samples: 10, targets: [0.005, 0.02], slowdown: 10, maxPauseMs: 400, seed: 20261125 };
export const QUICK_HISTORY_PLAN: HistoryPlan = { ...FULL_HISTORY_PLAN, slots: 25, samples: 5 };

/** One benchmark's blocks in one slot, seconds per process. */
export interface SlotBlocks {
  a: number[];
  b: number[];
  /** Which block ran first. */
  first: 'a' | 'b';
}

export interface HistoryData {
  schema: typeof HISTORY_SCHEMA;
  created: string;
  durationSeconds: number;
  machine: { nproc: number; cpu: string; loadBefore: number[]; loadAfter: number[] };
  plan: HistoryPlan;
  /** Per benchmark, its name and the realised per-process time of A at calibration. */
  benchmarks: { name: string; aSeconds: number; loopShare: number }[];
  /** slots[i][j]: slot i, benchmark j. */
  slots: SlotBlocks[][];
}

const round7 = (xs: number[]): number[] => xs.map((x) => Math.round(x * 1e7) / 1e7);

export async function collectHistory(plan: HistoryPlan, log: (line: string) => void): Promise<HistoryData> {
  const started = Date.now();
  const loadBefore = loadavg();
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-drift-'));
  try {
    const binary = compile(dir);
    const workloads = plan.targets.map((target) => ({ target, ...calibrate(binary, target) }));
    for (const w of workloads) log(`calibrated ${(w.target * 1e3).toFixed(0)} ms: ${w.iterations} iterations, loop share ${(w.loopShare * 100).toFixed(1)} %`);
    const random = seededRandom(plan.seed);
    const slots: SlotBlocks[][] = [];
    for (let i = 0; i < plan.slots; i++) {
      const slot = workloads.map((w): SlotBlocks => {
        const run = (percent: number): number[] => {
          timeRun(binary, [String(w.iterations), percent.toFixed(4)]); // warm-up, not recorded
          return round7(Array.from({ length: plan.samples }, () => timeRun(binary, [String(w.iterations), percent.toFixed(4)])));
        };
        const bPercent = plan.slowdown / w.loopShare;
        if (random.next() < 0.5) {
          const a = run(0);
          return { a, b: run(bPercent), first: 'a' };
        }
        const b = run(bPercent);
        return { a: run(0), b, first: 'b' };
      });
      slots.push(slot);
      if ((i + 1) % 20 === 0) log(`${i + 1}/${plan.slots} slots, ${Math.round((Date.now() - started) / 1000)} s`);
      await new Promise((r) => setTimeout(r, Math.floor(random.next() * plan.maxPauseMs)));
    }
    return {
      schema: HISTORY_SCHEMA,
      created: new Date(started).toISOString(),
      durationSeconds: (Date.now() - started) / 1000,
      machine: { nproc: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', loadBefore, loadAfter: loadavg() },
      plan,
      benchmarks: workloads.map((w) => ({ name: `work-${Math.round(w.target * 1e3)}ms`, aSeconds: w.aSeconds, loopShare: w.loopShare })),
      slots,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
