/**
 * Which interval for the relative shift: Hodges–Lehmann (Moses) on log values
 * or a percentile bootstrap of the median ratio? Simulated benchmark-like
 * samples with a known 5 % slowdown (current = baseline distribution × 1.05),
 * at 5, 10 and 20 samples per side; reports how often each 95 % interval
 * covers the true ratio, its mean width, and the time per interval. The
 * results and the choice are in docs/statistics.md (the `noisier` flag's
 * rates are measured by bench/noisier.ts).
 *
 *   npx tsx bench/stats-coverage.ts [trials]
 */
import { performance } from 'node:perf_hooks';
import { bootstrapMedianRatio, hodgesLehmannShift, seededRandom } from '../action/src/stats/index.js';

const trials = Number(process.argv[2] ?? 500);
const TRUE_RATIO = 1.05;
const rng = seededRandom(2026);
const normal = (): number => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());

const distributions: Record<string, () => number> = {
  'log-normal, 3 % CV': () => Math.exp(0.03 * normal()),
  'log-normal + 5 % slow runs (1.5–3×)': () => Math.exp(0.03 * normal()) * (rng.next() < 0.05 ? 1.5 + 1.5 * rng.next() : 1),
  'timer resolution (ties: 1 ms steps on 25 ms)': () => Math.round(25 * Math.exp(0.03 * normal())) / 25,
};

console.log(`${trials} trials per cell; true ratio ${TRUE_RATIO}; nominal coverage 95 %`);
console.log('| data | n per side | HL coverage | HL mean width | bootstrap coverage | bootstrap mean width |');
console.log('|---|---|---|---|---|---|');
let hlTime = 0;
let bootTime = 0;
let count = 0;
for (const [name, draw] of Object.entries(distributions)) {
  for (const n of [5, 10, 20]) {
    let hlCover = 0;
    let bootCover = 0;
    let hlWidth = 0;
    let bootWidth = 0;
    for (let t = 0; t < trials; t++) {
      const b = Array.from({ length: n }, draw);
      const c = Array.from({ length: n }, () => TRUE_RATIO * draw());
      const t0 = performance.now();
      const hl = hodgesLehmannShift(b.map(Math.log), c.map(Math.log), { confidence: 0.95 });
      const t1 = performance.now();
      const boot = bootstrapMedianRatio(b, c, { confidence: 0.95, resamples: 2000, seed: t + 1 });
      const t2 = performance.now();
      hlTime += t1 - t0;
      bootTime += t2 - t1;
      count++;
      const lo = Math.exp(hl.lower);
      const hi = Math.exp(hl.upper);
      if (lo <= TRUE_RATIO && TRUE_RATIO <= hi) hlCover++;
      if (boot.lower <= TRUE_RATIO && TRUE_RATIO <= boot.upper) bootCover++;
      hlWidth += hi - lo;
      bootWidth += boot.upper - boot.lower;
    }
    const pc = (k: number): string => `${((100 * k) / trials).toFixed(1)} %`;
    const w = (x: number): string => `${((100 * x) / trials).toFixed(1)} %`;
    console.log(`| ${name} | ${n} | ${pc(hlCover)} | ${w(hlWidth)} | ${pc(bootCover)} | ${w(bootWidth)} |`);
  }
}
console.log(`time per interval: HL ${((1000 * hlTime) / count).toFixed(0)} µs, bootstrap (2,000 resamples) ${((1000 * bootTime) / count).toFixed(0)} µs`);
