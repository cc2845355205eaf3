import { readFileSync } from 'node:fs';
import { decide, DEFAULT_GATE_OPTIONS } from './src/gate/index.js';
import { EMPTY_BUDGETS, newResultSet } from './src/model/index.js';
const data = JSON.parse(readFileSync('/work/main/bench/detect/data/detect-full.json', 'utf8'));
const runOf = (s: number[]) => ({ ...newResultSet('2026-01-01T00:00:00Z', [{ id: 'work', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [...s] } } }]), design: 'interleaved' });
for (const slow of [0, 5, 10]) {
  const tol = slow === 5 ? 0.02 : 0.05;
  const budgets = { ...EMPTY_BUDGETS, defaults: { ...EMPTY_BUDGETS.defaults, regression: tol } };
  const trials = data.trials.filter((t: any) => t.design === 'interleaved' && t.slowdown === slow);
  const line: string[] = [];
  for (const n of [10, 14, 20, 30]) {
    const c: Record<string, number> = { regressed: 0, improved: 0, unchanged: 0, inconclusive: 0 };
    let flips = 0;
    for (const t of trials) {
      const row = decide(runOf(t.a.slice(0, n)) as any, runOf(t.b.slice(0, n)) as any, budgets as any, DEFAULT_GATE_OPTIONS).rows[0]! as any;
      c[row.status]++;
      if (row.flags.includes('flips')) flips++;
    }
    line.push(`n=${n}: R${c.regressed} I${c.improved} U${c.unchanged} ?${c.inconclusive} flips${flips}`);
  }
  console.log(`+${slow}% (${trials.length}) ` + line.join(' | '));
}
