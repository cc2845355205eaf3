/**
 * `npm run bench:detect -- flips [--trials N]`: benchmarks that flip between
 * two values. A real program draws a random bit per process and does 50 %
 * more work with a given probability (the same program as the tests,
 * action/test/support/programs.ts FLIP_C); pull requests are A/A at another
 * mix of the two levels, or the code 10 % slower (both levels move). Each
 * pull request is measured two ways with real hyperfine:
 *
 * - plain: 20 runs of the base, then 20 of the head (a stored baseline);
 * - interleaved: 20 rounds, each one run of base and one of head, decided
 *   paired (Wilcoxon on the rounds' ratios, with the flip taken out of each
 *   when the rounds show one);
 * - rounds of five: rounds of five runs of base and five of head (a
 *   `commands:` suite with `runs: 5`), the round's value their median, as
 *   many as `run --ab`'s first phase would run (10, then 4 more while the
 *   row is inconclusive, up to 30; no confirmation rounds); decided on the
 *   medians alone (as before Metric.roundSamples) and with each round's
 *   processes kept.
 *
 * and decided by perf-gate's comparison (5 % tolerance, α 0.05) as one
 * distribution (`levels: false`, what perf-gate did before) and by the
 * levels (the default: folded rounds, level by level within each round of
 * several processes, or level by level for plain runs). Prints the false
 * alarms (A/A pull requests that fail) and the +10 % caught, per design.
 * Runs one thing at a time; take the figures with nothing else running.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareMetrics, type ComparisonInput } from '../../action/src/gate/compare/index.js';
import { FLIP_C } from '../../action/test/support/programs.js';

const RUNS = 20;
/** The design with several processes a round: run --ab's first phase (ab defaults: 10 rounds, 4 more while inconclusive, 30 at most). */
const ROUNDS_OF_FIVE = { first: 10, step: 4, max: 30 };
const PROCESSES = 5;
const TOL = { exact: false, regression: 0.05, noise: 0.01, alpha: 0.05, drift: 0.02 } as const;

function hyperfineTimes(commands: string[], runs: number, dir: string): number[][] {
  const out = join(dir, 'h.json');
  execFileSync('hyperfine', ['-N', '--style', 'none', '--runs', String(runs), '--export-json', out, ...commands], { stdio: 'pipe' });
  return (JSON.parse(readFileSync(out, 'utf8')) as { results: { times: number[] }[] }).results.map((r) => r.times);
}

interface Tally {
  failed: number;
  caught: number;
}

export function flipsBench(trials: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'pg-bench-flips-'));
  writeFileSync(join(dir, 'flip.c'), FLIP_C);
  execFileSync('cc', ['-O2', '-o', join(dir, 'flip'), join(dir, 'flip.c')]);
  const flip = join(dir, 'flip');
  const tallies: Record<string, Tally> = {};
  const count = (key: string, field: keyof Tally, yes: boolean): void => {
    tallies[key] ??= { failed: 0, caught: 0 };
    if (yes) tallies[key][field]++;
  };
  const start = performance.now();
  for (let t = 0; t < trials; t++) {
    const mixes = [0.2 + (0.6 * ((t * 7) % trials)) / Math.max(1, trials - 1), 0.2 + (0.6 * ((t * 13 + 5) % trials)) / Math.max(1, trials - 1)];
    for (const [kind, scale] of [
      ['A/A', 1],
      ['+10 %', 1.1],
    ] as const) {
      const base = `${flip} ${mixes[0]!.toFixed(3)} 1.0 base`;
      const head = `${flip} ${mixes[1]!.toFixed(3)} ${scale} head`;
      const [plainBase, plainHead] = hyperfineTimes([base, head], RUNS, dir);
      // Rounds: base and head alternate, one run each, in one hyperfine call (each command named apart by its round).
      const rounds = hyperfineTimes(Array.from({ length: RUNS }, (_, r) => [`${base} ${r}`, `${head} ${r}`]).flat(), 1, dir).map((x) => x[0]!);
      const roundBase = rounds.filter((_, i) => i % 2 === 0);
      const roundHead = rounds.filter((_, i) => i % 2 === 1);
      // Rounds of five: each round five runs of base, then five of head; measured as far as any decision below asks.
      const fives: number[][][] = [];
      const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
      const input = (b: number[], h: number[], paired: boolean): ComparisonInput => ({
        ...TOL,
        drift: paired ? 0 : TOL.drift,
        paired,
        baseline: { unit: 's', direction: 'lower', samples: b },
        current: { unit: 's', direction: 'lower', samples: h },
      });
      const fiveRounds = (n: number, processes: boolean): ComparisonInput => {
        while (fives.length < n) fives.push(hyperfineTimes([`${base} r${fives.length}`, `${head} r${fives.length}`], PROCESSES, dir));
        const rounds = fives.slice(0, n);
        const medians = input(
          rounds.map((f) => median(f[0]!)),
          rounds.map((f) => median(f[1]!)),
          true,
        );
        if (!processes) return medians;
        return {
          ...medians,
          baseline: { ...medians.baseline, roundSamples: rounds.map((f) => f[0]!) },
          current: { ...medians.current, roundSamples: rounds.map((f) => f[1]!) },
        };
      };
      // run --ab's first phase: more rounds while the row is inconclusive.
      const adaptive = (processes: boolean, levels: boolean): { status: string } => {
        for (let n = ROUNDS_OF_FIVE.first; ; n = Math.min(ROUNDS_OF_FIVE.max, n + ROUNDS_OF_FIVE.step)) {
          const row = compareMetrics([fiveRounds(n, processes)], { confidence: 0.95, seed: 1, levels })[0]!;
          if (row.status !== 'inconclusive' || n === ROUNDS_OF_FIVE.max) return row;
        }
      };
      const decided = (key: string, row: { status: string }): void =>
        count(`${key} ${kind}`, kind === 'A/A' ? 'failed' : 'caught', row.status === 'regressed' || (kind === 'A/A' && row.status === 'improved'));
      for (const levels of [false, true]) {
        const [plain, inter] = compareMetrics([input(plainBase!, plainHead!, false), input(roundBase, roundHead, true)], { confidence: 0.95, seed: 1, levels });
        const design = levels ? 'by the levels' : 'one distribution (before)';
        decided(`plain|${design}`, plain!);
        decided(`interleaved|${design}`, inter!);
        if (!levels) decided(`rounds of five|${design}`, adaptive(false, false));
        else {
          decided(`rounds of five|by the levels, the rounds' medians only (before)`, adaptive(false, true));
          decided(`rounds of five|by the levels, each round's processes`, adaptive(true, true));
        }
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const rows = Object.keys(tallies)
    .filter((k) => k.endsWith(' A/A'))
    .map((k) => {
      const key = k.slice(0, -' A/A'.length);
      const [run, design] = key.split('|');
      return `| ${run} | ${design} | ${tallies[k]!.failed} of ${trials} | ${tallies[`${key} +10 %`]!.caught} of ${trials} |`;
    });
  return [
    `Flipping program (50 % more work in the slow level, mixes 20–80 %), ${trials} pull requests of each kind, ${RUNS} runs or rounds a side (rounds of five: ${ROUNDS_OF_FIVE.first}–${ROUNDS_OF_FIVE.max} rounds of ${PROCESSES} runs a side, as run --ab's first phase); ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load average ${loadavg()[0]!.toFixed(2)} at the end; ${((performance.now() - start) / 1000).toFixed(0)} s.`,
    '',
    '| runs | comparison | A/A pull requests failed | +10 % caught |',
    '| --- | --- | ---: | ---: |',
    ...rows,
    '',
  ].join('\n');
}
