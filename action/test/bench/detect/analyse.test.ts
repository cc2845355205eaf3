import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { analyse, cellKey, estimateDrift, renderMarkdown, windows } from '../../../../bench/detect/analyse.js';
import { seededRandom } from '../../../../action/src/stats/prng.js';
import { wilsonInterval } from '../../../../bench/detect/stats/wilson.js';
import { DATA_SCHEMA, type DataFile, type Trial } from '../../../../bench/detect/data-file.js';
import { githubActionBenchmarkRule } from '../../../../bench/detect/rules/github-action-benchmark.js';

describe('Wilson interval', () => {
  test('matches published values', () => {
    const [lo0, hi0] = wilsonInterval(0, 10);
    assert.equal(lo0, 0);
    assert.ok(Math.abs(hi0 - 0.27753) < 1e-5, String(hi0));
    const [lo, hi] = wilsonInterval(5, 10);
    assert.ok(Math.abs(lo - 0.23659) < 1e-5 && Math.abs(hi - 0.76341) < 1e-5, `${lo} ${hi}`);
  });
});

function trial(design: Trial['design'], slowdown: number, a: number[], b: number[]): Trial {
  return { design, load: 'quiet', slowdown, a, b, startedAt: 0 };
}

describe('sub-trial windows', () => {
  test('cut each side into disjoint windows at the same offsets', () => {
    const t = trial('sequential', 0, [1, 2, 3, 4, 5, 6, 7], [11, 12, 13, 14, 15, 16, 17]);
    const w = windows(t, 3);
    assert.equal(w.length, 2);
    assert.deepEqual(w[1], { baseline: [4, 5, 6], current: [14, 15, 16], paired: false, drift: 0 });
    assert.equal(windows(trial('interleaved', 0, [1, 2], [3, 4]), 1)[0]?.paired, true);
  });
});

describe('analyse', () => {
  const data: DataFile = {
    schema: DATA_SCHEMA,
    mode: 'quick',
    timing: 'test',
    seed: 1,
    started: '',
    finished: '',
    durationSeconds: 0,
    machine: { nproc: 2, cpu: 'test', kernel: 'test', node: 'test', gcc: 'test', loadBefore: [0, 0, 0], loadAfter: [0, 0, 0] },
    calibration: { iterations: 1, aSeconds: 0.02, overheadSeconds: 0.002, loopShare: 0.9 },
    samplesPerSide: 10,
    planned: { aaTrials: 2, abTrials: 1, slowdowns: [10] },
    trials: [
      trial('sequential', 0, Array(10).fill(1), Array(10).fill(1)),
      trial('sequential', 0, Array(10).fill(1), Array(10).fill(1.2)),
      trial('sequential', 10, Array(10).fill(1), Array(10).fill(1.15)),
    ],
  };
  test('counts flagged sub-trials per design, load, slowdown and k', () => {
    const a = analyse(data, { suiteResamples: 0, seed: 1 }, [githubActionBenchmarkRule(1.1)]);
    const cells = a.results[0]?.cells;
    assert.deepEqual(cells?.get(cellKey('sequential', 'quiet', 0, 5)), { flagged: 2, n: 4 });
    assert.deepEqual(cells?.get(cellKey('sequential', 'quiet', 10, 10)), { flagged: 1, n: 1 });
    assert.equal(cells?.get(cellKey('sequential', 'quiet', 0, 20)), undefined, 'no k above the samples per side');
    const md = renderMarkdown(a);
    assert.match(md, /\| github-action-benchmark 110 % \| 5 \| 50\.0 % \(15\.0–85\.0\) \| 100\.0 % \(34\.2–100\.0\) \|/);
    assert.doesNotMatch(md, /other core busy/, 'no section for a load without trials');
  });
});

describe('between-run drift estimate', () => {
  /** Sequential A/A trials whose blocks each sit at a random level (SD `drift`) with per-run noise `cv`. */
  function drifting(seed: number, drift: number, cv: number): Trial[] {
    const r = seededRandom(seed);
    const normal = (): number => Math.sqrt(-2 * Math.log(1 - r.next())) * Math.cos(2 * Math.PI * r.next());
    const block = (): number[] => {
      const level = 0.02 * Math.exp(drift * normal());
      return Array.from({ length: 30 }, () => level * Math.exp(cv * normal()));
    };
    return Array.from({ length: 200 }, () => trial('sequential', 0, block(), block()));
  }
  test('recovers a known block drift beside the per-run noise', () => {
    const d = estimateDrift(drifting(1, 0.03, 0.02));
    assert.ok(d > 0.024 && d < 0.036, `estimated ${d}`);
  });
  test('is near zero when blocks do not drift', () => {
    assert.ok(estimateDrift(drifting(2, 0, 0.02)) < 0.004);
  });
  test('ignores interleaved and A/B trials', () => {
    const t = drifting(3, 0.03, 0.02).map((x) => ({ ...x, design: 'interleaved' as const }));
    assert.equal(estimateDrift(t), 0);
  });
});
