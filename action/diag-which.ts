import { readFileSync } from 'node:fs';
import { decide, DEFAULT_GATE_OPTIONS } from './src/gate/index.js';
import { EMPTY_BUDGETS, newResultSet } from './src/model/index.js';
import { foldRounds } from './src/stats/folded-rounds.js';
const data = JSON.parse(readFileSync('/work/main/bench/detect/data/detect-full.json', 'utf8'));
const runOf = (s: number[]) => ({ ...newResultSet('2026-01-01T00:00:00Z', [{ id: 'work', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [...s] } } }]), design: 'interleaved' });
const n = Number(process.env.N ?? 30);
const slow = Number(process.env.SLOW ?? 0);
const budgets = { ...EMPTY_BUDGETS, defaults: { ...EMPTY_BUDGETS.defaults, regression: slow === 5 ? 0.02 : 0.05 } };
const c: Record<string, number> = {};
for (const t of data.trials.filter((t: any) => t.design === 'interleaved' && t.slowdown === slow)) {
  const row = decide(runOf(t.a.slice(0, n)) as any, runOf(t.b.slice(0, n)) as any, budgets as any, DEFAULT_GATE_OPTIONS).rows[0]! as any;
  const m = row.reason.method;
  const k = `${row.status} ${m.id}${m.compared ? '/' + m.compared : ''}${m.folded !== undefined ? ' folded' + (m.folded > n / 2 ? '>half' : '<=half') : ''}`;
  c[k] = (c[k] ?? 0) + 1;
  if (process.env.SHOW && row.status === process.env.SHOW) {
    const r = t.a.slice(0, n).map((a: number, i: number) => Math.log(t.b[i] / a));
    console.log(t.load, k, row.change.toFixed(3), 'a', t.a.slice(0, n).map((x: number) => (x * 1000).toFixed(1)).join(' '));
    console.log('   b', t.b.slice(0, n).map((x: number) => (x * 1000).toFixed(1)).join(' '));
  }
}
console.log(c);
