/**
 * One fuzz target in a worker thread (bench/fuzz/main.ts): generates mutated
 * inputs from the target's seeds with fast-check, runs each, and reports to
 * the main thread. Before each input it posts where it is, so a main thread
 * that hears nothing for too long can stop the worker and name the input
 * that hung.
 */
import { parentPort, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { allTargets, judge } from '../../action/test/support/fuzz-targets.js';
import { mutated } from '../../action/test/support/mutations.js';

export interface WorkerJob {
  target: string;
  seconds: number;
  seed: number;
}

export type WorkerMessage =
  | { kind: 'input'; executions: number; seedFile: string; steps: string[] }
  | { kind: 'finding'; why: string; seedFile: string; steps: string[]; text: string }
  | { kind: 'done'; executions: number; seeds: number };

const job = workerData as WorkerJob;
const target = allTargets().find((t) => t.name === job.target);
if (target === undefined) throw new Error(`no fuzz target "${job.target}"`);
const post = (m: WorkerMessage): void => parentPort!.postMessage(m);

const input = fc.nat({ max: target.seeds.length - 1 }).chain((i) => mutated(target.seeds[i]!.text).map((m) => ({ seed: target.seeds[i]!, m })));
const deadline = performance.now() + job.seconds * 1000;
let executions = 0;
for (let batch = 0; performance.now() < deadline; batch++) {
  for (const { seed, m } of fc.sample(input, { numRuns: 200, seed: job.seed + batch })) {
    post({ kind: 'input', executions, seedFile: seed.path, steps: m.steps });
    const why = judge(target, m.text, seed.path);
    executions++;
    if (why !== null)
      post({ kind: 'finding', why, seedFile: seed.path, steps: m.steps, text: m.text.length > 100_000 ? `${m.text.slice(0, 100_000)}…` : m.text });
    if (performance.now() >= deadline) break;
  }
}
post({ kind: 'done', executions, seeds: target.seeds.length });
