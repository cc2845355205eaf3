import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareMetrics, DEFAULT_COMPARISON_OPTIONS, type Comparison, type ComparisonInput } from '../../../src/gate/compare/index.js';
import type { Metric } from '../../../src/model/index.js';
import { reasonText } from '../../../src/report/reason-text.js';
import { testData } from '../../stats/random-data.js';

/**
 * Benchmarks that flip between two levels, decided level by level
 * (gate/compare/levels.ts): on simulated processes that each draw the slow
 * level (25 % slower) with some probability and scatter by 1 %.
 */
const TOL = { exact: false, paired: false, regression: 0.05, noise: 0.01, alpha: 0.05 };
const metric = (values: number[]): Metric => ({ unit: 's', direction: 'lower', samples: values });
const one = (input: Pick<ComparisonInput, 'baseline' | 'current'>): Comparison => compareMetrics([{ ...TOL, ...input }])[0]!;

function runs(seed: number, n: number, slowShare: number, scale = 1, slowScale = 1): number[] {
  const d = testData(seed);
  return Array.from({ length: n }, () => 0.012 * scale * (d.rng.next() < slowShare ? 1.25 * slowScale : 1) * Math.exp(0.01 * d.normal()));
}

const mix = (t: number): number => 0.2 + (0.6 * ((t * 7919) % 101)) / 100;

test('A/A at other mixes of the two levels: no change in 500 pairs, where the ordinary comparison cries wolf', () => {
  let changed = 0;
  let ordinary = 0;
  for (let t = 0; t < 500; t++) {
    const b = runs(2 * t, 20, mix(t));
    const c = runs(2 * t + 1, 20, mix(t + 50));
    const r = one({ baseline: metric(b), current: metric(c) });
    if (r.status === 'regressed' || r.status === 'improved') changed++;
    assert.ok(r.flags.includes('flips') || !r.flags.includes('noisier'), `pair ${t}: ${r.flags.join(',')}`);
    // The same pair read as one distribution: what a gate blind to the levels decides.
    const blind = compareMetrics([{ ...TOL, baseline: metric(b), current: metric(c) }], { ...DEFAULT_COMPARISON_OPTIONS, levels: false })[0]!;
    if (blind.status === 'regressed' || blind.status === 'improved') ordinary++;
  }
  assert.ok(changed <= 2, `${changed} of 500 A/A pairs changed`);
  assert.ok(ordinary >= 25, `a gate blind to the levels would have flagged ${ordinary} of 500 (35 with these seeds)`);
});

test('both levels 10 % slower: regressed in at least 95 % of 200 pairs at other mixes, the estimate near +10 %', () => {
  let caught = 0;
  const estimates: number[] = [];
  for (let t = 0; t < 200; t++) {
    const r = one({ baseline: metric(runs(5000 + 2 * t, 20, mix(t))), current: metric(runs(5001 + 2 * t, 20, mix(t + 30), 1.1)) });
    if (r.status === 'regressed') caught++;
    estimates.push(r.change);
  }
  estimates.sort((a, b) => a - b);
  assert.ok(caught >= 190, `caught ${caught} of 200`);
  assert.ok(Math.abs(estimates[100]! - 0.1) < 0.01, `median estimate ${estimates[100]}`);
});

test('only the slow level moved (+15 %): a level moved, regressed; the reason says between what and how', () => {
  const r = one({ baseline: metric(runs(1, 30, 0.5)), current: metric(runs(2, 30, 0.5, 1, 1.15)) });
  assert.equal(r.status, 'regressed');
  assert.deepEqual(r.flags, ['flips']);
  assert.match(
    reasonText(r.reason),
    /^Flips between 1[12](\.\d+)? ms and 1[5-7](\.\d+)? ms \(current: \d+% of runs in the slow level; baseline: \d+% of runs in the slow level\); compared level by level: fast with fast and slow with slow, each by Mann–Whitney/,
  );
});

test('a level only one side drew is the mix again, not a change: the level both drew decides, and swapping mirrors it', () => {
  const fastOnly = runs(3, 20, 0);
  const withSlow = runs(4, 20, 0.4);
  const fwd = one({ baseline: metric(fastOnly), current: metric(withSlow) });
  const back = one({ baseline: metric(withSlow), current: metric(fastOnly) });
  assert.equal(fwd.status, 'unchanged', reasonText(fwd.reason));
  assert.match(
    reasonText(fwd.reason),
    /baseline: all in one level, 1[12](\.\d+)? ms\); compared level by level: the fast level, the one both drew, by Mann–Whitney/,
  );
  assert.equal(back.status, 'unchanged');
  assert.equal(back.p, fwd.p);
  assert.ok(Math.abs((1 + fwd.change) * (1 + back.change) - 1) < 1e-12);
  // The level both drew moved: that is a change, whatever the other side's other level.
  const moved = one({ baseline: metric(fastOnly), current: metric(runs(5, 20, 0.4, 1.1)) });
  assert.equal(moved.status, 'regressed', reasonText(moved.reason));
});

/**
 * Interleaved rounds of a flipping benchmark on a drifting machine: each
 * round's two processes run at the machine's speed of the moment (drifting
 * by ±15 % over the rounds, which pairing cancels) and draw their levels
 * afresh (50 % apart), so the rounds' ratios fall in three groups one level
 * apart. Decided paired with the flip taken out of each round.
 */
function rounds(seed: number, n: number, mixes: [number, number], scale = 1): { baseline: Metric; current: Metric } {
  const d = testData(seed);
  const b: number[] = [];
  const c: number[] = [];
  for (let i = 0; i < n; i++) {
    const speed = 1 + 0.15 * Math.sin(i / 2 + seed);
    const level = (share: number): number => (d.rng.next() < share ? 1.5 : 1);
    b.push(0.012 * speed * level(mixes[0]) * Math.exp(0.01 * d.normal()));
    c.push(0.012 * speed * scale * level(mixes[1]) * Math.exp(0.01 * d.normal()));
  }
  return { baseline: metric(b), current: metric(c) };
}

test('interleaved rounds that flip: A/A at other mixes never changes, both levels 10 % slower is caught, and the reason says how far apart the levels are', () => {
  let changed = 0;
  let blindChanged = 0;
  let caught = 0;
  for (let t = 0; t < 200; t++) {
    const aa = { ...TOL, paired: true, ...rounds(7000 + t, 20, [mix(t), mix(t + 50)]) };
    const r = compareMetrics([aa])[0]!;
    if (r.status === 'regressed' || r.status === 'improved') changed++;
    const blind = compareMetrics([aa], { ...DEFAULT_COMPARISON_OPTIONS, levels: false })[0]!;
    if (blind.status === 'regressed' || blind.status === 'improved') blindChanged++;
    const slowed = compareMetrics([{ ...TOL, paired: true, ...rounds(9000 + t, 20, [mix(t), mix(t + 50)], 1.1) }])[0]!;
    if (slowed.status === 'regressed') caught++;
  }
  assert.equal(changed, 0, `${changed} of 200 A/A pairs changed`);
  assert.ok(blindChanged >= 20, `the rounds read as one distribution changed ${blindChanged} of 200`);
  assert.ok(caught >= 195, `caught ${caught} of 200`);
  const r = compareMetrics([{ ...TOL, paired: true, ...rounds(1, 20, [0.5, 0.5], 1.1) }])[0]!;
  assert.equal(r.method, 'folded-rounds');
  assert.deepEqual(r.flags, ['flips', 'paired']);
  assert.match(
    reasonText(r.reason),
    /^Flips between two levels 5\d% apart \(\d+ of 20 rounds drew different levels on their two sides\); each round's ratio with the flip taken out, by Wilcoxon signed-rank on 20 paired rounds/,
  );
});
