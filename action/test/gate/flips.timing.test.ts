import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareMetrics, DEFAULT_COMPARISON_OPTIONS, type Comparison, type ComparisonInput } from '../../src/gate/compare/index.js';
import { reasonText } from '../../src/report/reason-text.js';
import { FLIP_C, hyperfine } from '../support/programs.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('cc', 'hyperfine');

/**
 * Benchmarks that flip between two values, on a real program: each process
 * draws a random bit and does 50 % more work with a given probability
 * (support/programs.ts FLIP_C). Each pull request is a base and a head at
 * different mixes of the two levels (20–80 % slow runs), measured with real
 * hyperfine in interleaved rounds (one run of each a round, alternating) and
 * decided as the second stage decides rounds, with perf-gate's defaults
 * (5 % tolerance, α 0.05): twenty A/A pull requests and twenty whose code
 * does 10 % more work (both levels move). The same rounds read as one
 * distribution (`levels: false`, what perf-gate did before) are the
 * comparison the messages show.
 */
const TRIALS = 20;
const ROUNDS = 20;

function mixes(t: number): [number, number] {
  return [0.2 + (0.6 * ((t * 7) % TRIALS)) / (TRIALS - 1), 0.2 + (0.6 * ((t * 13 + 5) % TRIALS)) / (TRIALS - 1)];
}

test('a real program that flips between two levels: no A/A pull request fails on the mix, and a 10 % slowdown of both levels is caught', () => {
  const dir = tempDir('perf-gate-flips-');
  writeFileSync(join(dir, 'flip.c'), FLIP_C);
  execFileSync('cc', ['-O2', '-o', join(dir, 'flip'), join(dir, 'flip.c')]);
  const flip = join(dir, 'flip');
  const out = join(dir, 'times.json');
  /** One pull request's rounds: base and head alternate, one run each, in one hyperfine call (each command named apart by its round). */
  const rounds = (baseMix: number, headMix: number, scale: number): ComparisonInput => {
    const commands = Array.from({ length: ROUNDS }, (_, r) => [
      `${flip} ${baseMix.toFixed(3)} 1.0 base ${r}`,
      `${flip} ${headMix.toFixed(3)} ${scale} head ${r}`,
    ]).flat();
    hyperfine(['-N', '--runs', '1', ...commands], out);
    const times = (JSON.parse(readFileSync(out, 'utf8')) as { results: { times: number[] }[] }).results.map((r) => r.times[0]!);
    return {
      exact: false,
      regression: 0.05,
      noise: 0.01,
      alpha: 0.05,
      paired: true,
      baseline: { unit: 's', direction: 'lower', samples: times.filter((_, i) => i % 2 === 0) },
      current: { unit: 's', direction: 'lower', samples: times.filter((_, i) => i % 2 === 1) },
    };
  };
  const aa: ComparisonInput[] = [];
  const slowed: ComparisonInput[] = [];
  for (let t = 0; t < TRIALS; t++) {
    const [a, b] = mixes(t);
    aa.push(rounds(a, b, 1));
    slowed.push(rounds(a, b, 1.1));
  }
  const decide = (inputs: ComparisonInput[], levels: boolean): Comparison[] =>
    inputs.map((i) => compareMetrics([i], { ...DEFAULT_COMPARISON_OPTIONS, levels })[0]!);
  const changed = (rows: Comparison[]): Comparison[] => rows.filter((r) => r.status === 'regressed' || r.status === 'improved');
  const line = (r: Comparison): string => `${r.status} ${(r.change * 100).toFixed(1)} % ${r.flags.join(',')}: ${reasonText(r.reason)}`;
  const [aaLevels, aaBlind] = [decide(aa, true), decide(aa, false)];
  const [slowLevels, slowBlind] = [decide(slowed, true), decide(slowed, false)];
  const context = `as one distribution: ${changed(aaBlind).length} A/A changed, ${changed(slowBlind).length} slowdowns caught`;
  assert.ok(changed(aaLevels).length <= 1, `A/A pull requests that changed (${context}):\n${changed(aaLevels).map(line).join('\n')}`);
  const caught = slowLevels.filter((r) => r.status === 'regressed');
  assert.ok(caught.length >= TRIALS - 2, `10 % slower code caught in ${caught.length} of ${TRIALS} (${context}):\n${slowLevels.map(line).join('\n')}`);
  // The rounds were read as flipping, most with the flip taken out of each round, and the reason says how far apart the levels are.
  const folded = [...aaLevels, ...slowLevels].filter((r) => r.method === 'folded-rounds');
  assert.ok(folded.length >= TRIALS, `${folded.length} of ${2 * TRIALS} pull requests' rounds folded`);
  assert.ok(folded.every((r) => r.flags.includes('flips')));
  assert.match(reasonText(folded[0]!.reason), /flips between two levels \d+(\.\d+)? ?% apart \(\d+ of 20 rounds drew different levels/i);
});
