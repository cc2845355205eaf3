/**
 * Does pairing help? Runs real interleaved A/B rounds (fresh processes, the
 * runner's own runAb) of a CPU-bound loop, then analyses THE SAME samples two
 * ways with the gate's compareMetrics: paired (signed-rank on per-round
 * ratios) and unpaired (rank test on the two pooled sides). Reports the alarm
 * rate on A/A (false alarms) and on a 5 % slowdown (detection), and the mean
 * width of the 95 % interval of the change, for the wall-clock time and for
 * the process's CPU time (less disturbed by other jobs on shared cores).
 *
 *   npx tsx bench/ab-pairing/main.ts [--trials 25] [--rounds 16] [--iterations 12000000]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePerfGateConfig } from '../../action/src/config/perf-gate-config.js';
import { parseOutputFile } from '../../action/src/pipeline/output-parser.js';
import { compareMetrics } from '../../action/src/gate/compare/index.js';
import { runAb } from '../../action/src/runner/ab.js';
import { logProgress } from '../../action/src/runner/progress.js';
import { processSpawner } from '../../action/src/runner/spawn.js';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} expects a positive integer`);
  return v;
}

const trials = flag('trials', 25);
const rounds = flag('rounds', 16);
const iterations = flag('iterations', 12_000_000);
const TOLERANCE = { regression: 0.02, noise: 0.01, alpha: 0.01 };

const dir = mkdtempSync(join(tmpdir(), 'pg-pairing-'));
try {
  const binary = join(dir, 'work');
  execFileSync('cc', ['-O2', '-o', binary, new URL('./work.c', import.meta.url).pathname]);
  const sides = (factor: number): { base: string; head: string } => {
    const root = mkdtempSync(join(dir, 'pair-'));
    for (const [side, n] of [
      ['base', iterations],
      ['head', Math.round(iterations * factor)],
    ] as const) {
      mkdirSync(join(root, side));
      symlinkSync(binary, join(root, side, 'work'));
      writeFileSync(join(root, side, 'iters'), `${n}\n`);
    }
    return { base: join(root, 'base'), head: join(root, 'head') };
  };

  const rows: string[] = [];
  const METRICS = ['time', 'cpu_time'] as const;
  for (const [label, factor] of [
    ['A/A (identical)', 1],
    ['A/B (head 5 % slower)', 1.05],
  ] as const) {
    const tallies = Object.fromEntries(
      METRICS.map((m) => [m, { paired: 0, unpaired: 0, pairedWidth: 0, unpairedWidth: 0, pairedInconclusive: 0, unpairedInconclusive: 0 }]),
    );
    const started = performance.now();
    for (let t = 1; t <= trials; t++) {
      const checkouts = sides(factor);
      const yaml = `version: 1\nab: { rounds: ${rounds}, max-rounds: ${rounds}, confirm: false, seed: ${t} }\nsuites:\n  - { name: loop, run: './work "$(cat iters)" > {output}', format: result-set }\n`;
      const suites = parsePerfGateConfig(yaml, 'pairing.yml', checkouts.head).suites;
      const outcome = await runAb(suites, checkouts, {
        spawner: processSpawner(),
        parse: parseOutputFile,
        outDir: join(dir, `out-${t}`),
        env: { PATH: process.env.PATH },
        progress: logProgress({ githubActions: false, write: () => undefined, clock: () => performance.now() }),
        classify: () => new Map(),
        created: new Date().toISOString(),
      });
      for (const metric of METRICS) {
        const tally = tallies[metric]!;
        const baseline = outcome.base.benchmarks[0]!.metrics[metric]!;
        const current = outcome.head.benchmarks[0]!.metrics[metric]!;
        for (const paired of [true, false]) {
          const [c] = compareMetrics([{ baseline, current, exact: false, paired, ...TOLERANCE }]);
          const key = paired ? 'paired' : 'unpaired';
          if (c!.status === 'regressed' || c!.status === 'improved') tally[key]++;
          if (c!.status === 'inconclusive') tally[`${key}Inconclusive`]++;
          if (c!.ci) tally[`${key}Width`] += (c!.ci[1] - c!.ci[0]) / trials;
        }
      }
    }
    const pct = (n: number): string => `${n}/${trials} (${((100 * n) / trials).toFixed(0)} %)`;
    for (const metric of METRICS) {
      const tally = tallies[metric]!;
      rows.push(
        `| ${label} | ${metric} | ${pct(tally.paired)} | ${pct(tally.unpaired)} | ${pct(tally.pairedInconclusive)} | ${pct(tally.unpairedInconclusive)} | ±${(50 * tally.pairedWidth).toFixed(2)} % | ±${(50 * tally.unpairedWidth).toFixed(2)} % |`,
      );
    }
    process.stderr.write(`${label}: ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }
  process.stdout.write(
    `${trials} trials of ${rounds} interleaved rounds each, loop of ${iterations} iterations, tolerance ${TOLERANCE.regression * 100} %, noise ${TOLERANCE.noise * 100} %, alpha ${TOLERANCE.alpha}\n\n` +
      '| condition | metric | flagged, paired | flagged, unpaired | inconclusive, paired | inconclusive, unpaired | mean 95 % CI half-width, paired | unpaired |\n' +
      '|---|---|---|---|---|---|---|---|\n' +
      `${rows.join('\n')}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
