/**
 * How often does compareMetrics flag `noisier`, on A/A comparisons (false
 * alarms) and on real instability (detection)? Three parts, all through the
 * gate's own entry point with its default options:
 *
 * 1. the port-scanner case of the issue tracker (summary figures only; the
 *    runs are the constructed ones of action/test/gate/compare/index.test.ts);
 * 2. seeded synthetic samples: log-normal runs, with and without slow runs;
 * 3. the committed recorded A/A runs of the detection benchmark
 *    (bench/detect/data/*.json, 30 or 10 runs per side, a busy shared 2-core
 *    VM; sequential trials compared unpaired, interleaved ones as paired
 *    rounds, as the gate would), split by cause, beside the previous rule
 *    (tail runs beyond 2× the median on both sides, binomial at 0.01).
 *
 * No timing: the figures depend only on the seed and the committed data.
 * The results are in docs/statistics.md ("noisier").
 *
 *   npx tsx bench/noisier.ts [comparisons per cell, default 2000]
 */
import { readFileSync, readdirSync } from 'node:fs';
import { seededRandom, sortedCopy, tailExcess, upperTailExcess, widerSpread } from '../action/src/stats/index.js';
import { compareMetrics, type ComparisonInput, type ComparisonOptions } from '../action/src/gate/compare/index.js';
import type { DataFile } from './detect/data-file.js';

const perCell = Number(process.argv[2] ?? 2000);
const TOL = { exact: false, regression: 0.05, noise: 0.01, alpha: 0.01 };
const DEFAULTS: ComparisonOptions = { confidence: 0.95, seed: 1 };
const SPREAD_ONLY: ComparisonOptions = { ...DEFAULTS, tailMinCount: Infinity };
const TAIL_ONLY: ComparisonOptions = { ...DEFAULTS, dispersionAlpha: 0 };

function row(baseline: number[], current: number[], paired = false): ComparisonInput {
  return { ...TOL, paired, baseline: { unit: 's', direction: 'lower', samples: baseline }, current: { unit: 's', direction: 'lower', samples: current } };
}
function flagged(rows: ComparisonInput[], options: ComparisonOptions = DEFAULTS): number {
  return compareMetrics(rows, options).filter((r) => r.flags.includes('noisier')).length;
}
const pct = (k: number, n: number): string => `${((100 * k) / n).toFixed(1)} %`;

// 1. The scanner (ms; see the test for how the runs were built).
{
  const b = [38.4, 36.6, 41.4, 39.2, 33, 40.4, 37.6, 43.5, 38.8, 36.1, 42.6, 39.6, 35.4, 40.9, 38, 45, 37.1, 40, 34.5, 41.9];
  const c = [64.5, 61.9, 69.2, 105.6, 66.3, 57.9, 63.3, 67.6, 65.1, 72.3, 158.4, 62.6, 66.9, 59.9, 68.3, 63.9, 158.4, 61, 65.7, 70.4];
  const tail = upperTailExcess(b.map(Math.log), c.map(Math.log), { factor: 1.5 });
  const spread = widerSpread(b.map(Math.log), c.map(Math.log));
  console.log(
    `port scanner, 20 runs per side: noisier ${flagged([row(b, c)]) === 1 ? 'flagged' : 'NOT flagged'}; ` +
      `tail runs ${tail.currentCount}/${tail.currentN} beyond 1.5× against ${tail.baselineCount}/${tail.baselineN} beyond 1.22×, ` +
      `excess ${(100 * tail.excess).toFixed(0)} points, binomial p ${tail.p.toFixed(4)}; spread test p ${spread.p.toFixed(3)}, MAD ratio ${spread.ratio.toFixed(2)}`,
  );
}

// 2. Seeded synthetic samples.
const rng = seededRandom(2026);
const normal = (): number => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
const side = (n: number, sigma: number, slowRate = 0, slow: () => number = () => 3): number[] =>
  Array.from({ length: n }, () => 0.025 * Math.exp(sigma * normal()) * (rng.next() < slowRate ? slow() : 1));
const scannerSlow = (): number => 1.6 + 0.8 * rng.next();
const scenarios: [string, (n: number) => [number[], number[]]][] = [
  ['A/A, log-normal 3 % CV', (n) => [side(n, 0.03), side(n, 0.03)]],
  ['A/A, log-normal 20 % CV', (n) => [side(n, 0.2), side(n, 0.2)]],
  ['A/A, both sides 2 % of runs 3× slower', (n) => [side(n, 0.03, 0.02), side(n, 0.03, 0.02)]],
  ['A/A, both sides 5 % of runs 3× slower', (n) => [side(n, 0.03, 0.05), side(n, 0.03, 0.05)]],
  ['spread 2× (CV 3 % → 6 %)', (n) => [side(n, 0.03), side(n, 0.06)]],
  ['spread 3× (CV 3 % → 9 %)', (n) => [side(n, 0.03), side(n, 0.09)]],
  ['15 % of current runs 3× slower', (n) => [side(n, 0.03), side(n, 0.03, 0.15)]],
  ["15 % of current runs 1.6–2.4× slower, CV 8 % (the scanner's shape)", (n) => [side(n, 0.08), side(n, 0.08, 0.15, scannerSlow)]],
];
console.log('');
console.log(`| scenario (${perCell} seeded comparisons per cell) | n = 10 | n = 20 | n = 50 |`);
console.log('|---|---|---|---|');
for (const [name, make] of scenarios) {
  const cells = [10, 20, 50].map((n) => {
    const rows = Array.from({ length: perCell }, () => row(...make(n)));
    return pct(flagged(rows), rows.length);
  });
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}

// 3. The committed recorded A/A runs.
/** The rule before the scanner issue: spread test as now, tail runs beyond 2× on both sides, ≥ 3, binomial p < 0.01. */
function previousRule(a: number[], b: number[]): boolean {
  const la = a.map(Math.log);
  const lb = b.map(Math.log);
  const spread = widerSpread(la, lb);
  if (spread.p < 0.001 && spread.ratio >= 1.5) return true;
  const count = (v: number[]): number => {
    const s = sortedCopy(v);
    const m = s.length % 2 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
    return v.filter((x) => x - m > Math.log(2)).length;
  };
  const kc = count(lb);
  return kc >= 3 && tailExcess(count(la), la.length, kc, lb.length) < 0.01;
}
const dataDir = new URL('./detect/data/', import.meta.url);
console.log('');
console.log('| recorded A/A data | design | trials | noisier | tail rule alone | spread test alone | previous rule |');
console.log('|---|---|---|---|---|---|---|');
const total = { trials: 0, flags: 0, previous: 0 };
for (const file of readdirSync(dataDir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const data = JSON.parse(readFileSync(new URL(file, dataDir), 'utf8')) as DataFile;
  for (const design of ['interleaved', 'sequential'] as const) {
    const trials = data.trials.filter((t) => t.slowdown === 0 && t.design === design);
    if (trials.length === 0) continue;
    const rows = trials.map((t) => row(t.a, t.b, design === 'interleaved'));
    const all = flagged(rows);
    const previous = trials.filter((t) => previousRule(t.a, t.b)).length;
    total.trials += rows.length;
    total.flags += all;
    total.previous += previous;
    console.log(
      `| ${file} (${data.samplesPerSide} per side) | ${design} | ${rows.length} | ${all} (${pct(all, rows.length)}) | ` +
        `${flagged(rows, TAIL_ONLY)} | ${flagged(rows, SPREAD_ONLY)} | ${previous} (${pct(previous, rows.length)}) |`,
    );
  }
}
console.log(`| all | | ${total.trials} | ${total.flags} (${pct(total.flags, total.trials)}) | | | ${total.previous} (${pct(total.previous, total.trials)}) |`);
