/**
 * Change-point detection at scale (docs/history.md, "Change points on
 * main"): 200 series × 1,000 points, in two measures.
 *
 * - detection alone: stats/change-points.ts over 200 synthetic series of
 *   1,000 points (2 % noise, a 5 % step in every fourth), median of
 *   `--repeats` passes;
 * - the whole command: a history folder of 1,000 runs × 200 benchmarks
 *   (5 samples each) written once, then `perf-gate history changes` timed
 *   as a process from spawn to exit (reading and decoding every run
 *   included), median of `--repeats`.
 *
 *   npx tsx bench/change-points.ts [--repeats 3]
 *
 * Writing the history takes a few minutes here; the folder is removed at the end.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { newResultSet } from '../action/src/model/index.js';
import { changePoints } from '../action/src/stats/change-points.js';
import { median } from '../action/src/stats/index.js';
import { openFolder } from '../action/test/support/history.js';
import { seriesWithSteps } from '../action/test/support/synthetic-series.js';
import { positiveWholeFlag as flag } from './args.js';

const REPEATS = flag('repeats', 3);
const SERIES = 200;
const POINTS = 1000;
const ROOT = new URL('..', import.meta.url).pathname;

const levels = Array.from({ length: SERIES }, (_, i) => seriesWithSteps(i + 1, POINTS, 0.02, i % 4 === 0 ? [{ at: 300 + i, size: 0.05 }] : []));

function timeDetection(): { seconds: number; found: number } {
  const times: number[] = [];
  let found = 0;
  for (let r = 0; r < REPEATS; r++) {
    const started = performance.now();
    found = levels.reduce((n, s) => n + changePoints(s).length, 0);
    times.push((performance.now() - started) / 1000);
  }
  return { seconds: median(times), found };
}

async function writeHistory(dir: string): Promise<void> {
  const store = openFolder(dir);
  for (let run = 0; run < POINTS; run++) {
    const commit = (run + 1).toString(16).padStart(40, 'a');
    const created = new Date(Date.UTC(2026, 0, 1) + run * 3600_000).toISOString();
    const benchmarks = levels.map((series, i) => ({
      id: `suite/bench-${i}`,
      status: 'ok' as const,
      metrics: { time: { unit: 's', direction: 'lower' as const, samples: [0.99, 1, 1.01, 0.995, 1.005].map((f) => series[run]! * f * 1e-5) } },
    }));
    await store.append({ ...newResultSet(created, benchmarks), commit, testbed: { id: 'vm' } }, { commit, testbed: 'vm' });
  }
}

function timeCommand(dir: string): number {
  const times: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const started = performance.now();
    execFileSync('node', [join(ROOT, 'action/dist/cli.js'), 'history', 'changes', '--history', dir, '--json', join(dir, '..', 'changes.json')], {
      stdio: 'ignore',
    });
    times.push((performance.now() - started) / 1000);
  }
  return median(times);
}

async function main(): Promise<void> {
  const detection = timeDetection();
  const work = mkdtempSync(join(tmpdir(), 'perf-gate-change-points-'));
  try {
    const history = join(work, 'history');
    const writing = performance.now();
    await writeHistory(history);
    const written = (performance.now() - writing) / 1000;
    const command = timeCommand(history);
    console.log(`Change points: ${SERIES} series × ${POINTS} points (a 5 % step in every fourth), median of ${REPEATS}`);
    console.log(`(${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${loadavg()[0]!.toFixed(1)} at the end, Node ${process.version})\n`);
    console.log('| measure | time |');
    console.log('| --- | ---: |');
    console.log(`| detection alone (${detection.found} change points found) | ${detection.seconds.toFixed(2)} s |`);
    console.log(`| \`perf-gate history changes\`, whole process, ${POINTS} runs in a folder | ${command.toFixed(2)} s |`);
    console.log(`| (writing the history, once) | ${written.toFixed(0)} s |`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
