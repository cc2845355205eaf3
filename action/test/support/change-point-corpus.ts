import { execFileSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../../src/stats/prng.js';
import { seriesWithSteps, type Step } from './synthetic-series.js';
import { requireTool } from './tools.js';

export interface CorpusSeries {
  kind: 'a/a' | 'one step' | 'three steps';
  series: number[];
  steps: Step[];
}

/**
 * The series the change-point tests and docs/history.md's agreement figure
 * use: 100 A/A series (200 points, 2 % noise), 100 with one ±5 % step at a
 * random place (2 % noise), 60 with three steps of 3–10 % (250 points, 1–3 %
 * noise). Seeded: the same corpus on every machine.
 */
export function changePointCorpus(): CorpusSeries[] {
  const out: CorpusSeries[] = [];
  for (let seed = 1; seed <= 100; seed++) out.push({ kind: 'a/a', series: seriesWithSteps(seed, 200, 0.02), steps: [] });
  for (let seed = 1; seed <= 100; seed++) {
    const r = seededRandom(seed * 7);
    const steps = [{ at: 30 + r.int(140), size: r.next() < 0.5 ? 0.05 : -0.05 }];
    out.push({ kind: 'one step', series: seriesWithSteps(1000 + seed, 200, 0.02, steps), steps });
  }
  for (let seed = 1; seed <= 60; seed++) {
    const r = seededRandom(seed * 13);
    const steps = [40 + r.int(30), 100 + r.int(30), 160 + r.int(30)].map((at) => ({ at, size: (r.next() < 0.5 ? 1 : -1) * (0.03 + 0.07 * r.next()) }));
    out.push({ kind: 'three steps', series: seriesWithSteps(2000 + seed, 250, 0.01 + 0.02 * r.next(), steps), steps });
  }
  return out;
}

/** The python of the venv scripts/install/20-python.sh puts Apache Otava 0.8.0 in. */
export function otavaPython(): string {
  const python = join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'perf-gate', 'otava-venv', 'bin', 'python');
  requireTool(python);
  return python;
}

/** Apache Otava's change points (indexes) of each series, at its defaults. */
export function otavaChangePoints(series: readonly (readonly number[])[]): number[][] {
  const script = new URL('./otava-change-points.py', import.meta.url).pathname;
  return JSON.parse(execFileSync(otavaPython(), [script], { input: JSON.stringify(series), encoding: 'utf8', maxBuffer: 64 << 20 })) as number[][];
}

/** Whether two lists of change points are the same within ±1 position each. */
export function samePoints(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => Math.abs(x - b[i]!) <= 1);
}
