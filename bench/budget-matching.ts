/**
 * Budget resolution at scale (docs/reliability.md, "Hardening, round two"):
 * 10,000 budget globs against 100,000 benchmark ids, every id resolved for
 * one metric, the way the gate does it. The globs are what a large budget
 * file holds: 9,900 of the form `group-N/*`, 50 `*-suffix-N` (filed by their
 * literal suffix) and 50 `*case-N*` (no literal end: tested against every id).
 * Then the hostile id of the hardening report, `/[n=` repeated 8,000 times,
 * against `*\/*[n=*]`, the glob a regular expression took minutes on.
 *
 *   npm run bench:budgets [-- --runs 3]
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { compileGlob, DEFAULT_BUDGET_DEFAULTS, resolveBudget, type BudgetRule, type Budgets } from '../action/src/model/index.js';
import { median } from '../action/src/stats/index.js';
import { positiveWholeFlag } from './args.js';

const RUNS = positiveWholeFlag('runs', 3);
const GLOBS = 10_000;
const IDS = 100_000;

function rule(pattern: string, line: number): BudgetRule {
  const source = { file: 'budgets/large.yml', line };
  return {
    pattern,
    matcher: compileGlob(pattern),
    specificity: pattern.replace(/[*?]/g, '').length,
    ignore: false,
    metrics: { time: { stat: 'mean', tolerances: { regression: 0.1 }, source } },
    source,
  };
}

function budgets(): Budgets {
  const rules = Array.from({ length: GLOBS }, (_, i) =>
    i < 9900 ? rule(`group-${i}/*`, i + 1) : i < 9950 ? rule(`*-suffix-${i}`, i + 1) : rule(`*case-${i}*`, i + 1),
  );
  return { defaults: DEFAULT_BUDGET_DEFAULTS, rules, files: ['budgets/large.yml'] };
}

const ids = Array.from({ length: IDS }, (_, i) => `group-${i % 12_000}/case-${i}${i % 1000 === 0 ? `-suffix-${9900 + (i % 50)}` : ''}`);
const seconds: number[] = [];
let matched = 0;
for (let run = 0; run < RUNS; run++) {
  const b = budgets(); // a fresh index each run: nothing cached between runs
  const start = performance.now();
  matched = 0;
  for (const id of ids) if (resolveBudget(b, id, 'time').rule) matched++;
  seconds.push((performance.now() - start) / 1000);
}
const hostile = '/[n='.repeat(8000);
const hostileStart = performance.now();
const hostileMatch = compileGlob('*/*[n=*]').test(hostile);
const hostileMs = performance.now() - hostileStart;

console.log(
  `machine: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(
  `${GLOBS.toLocaleString('en')} globs × ${IDS.toLocaleString('en')} ids: median ${median(seconds).toFixed(2)} s of ${RUNS} runs (${seconds.map((s) => s.toFixed(2)).join(', ')}); ${matched.toLocaleString('en')} ids matched a rule`,
);
console.log(
  `hostile id (${hostile.length.toLocaleString('en')} characters) against "*/*[n=*]": ${hostileMatch ? 'match' : 'no match'} in ${hostileMs.toFixed(2)} ms`,
);
