import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../src/model/index.js';
import { median, variance } from '../../../src/stats/descriptive.js';
import { seededRandom } from '../../../src/stats/prng.js';
import { decodeMonth, decodeRun, encodeMonth, encodeRun, runLine } from '../../../src/store/history/codec.js';
import { chooseStep, packResultSet, packSamples, unpackResultSet, unpackSamples } from '../../../src/store/history/sample-packing.js';
import { fakeCommit, sampleRun, validate } from '../../support/history.js';

/** Normal noise (Box–Muller) around `level` with relative spread `sd`, times to the nanosecond as harnesses print them. */
function noisyTimes(n: number, level: number, sd: number, seed: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const z = Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
    return Math.round(level * (1 + sd * z) * 1e9) / 1e9;
  });
}

const stepOf = (samples: number[]): number => {
  const s = chooseStep(samples);
  return s === undefined ? 0 : s.m * 10 ** s.k;
};

describe('stored samples: a resolution fine against their own spread', () => {
  test('the step is 1, 2 or 5 × 10^k and at most a quarter of 1.4826 × MAD, and more than a tenth of it', () => {
    for (const [seed, sd] of [
      [1, 0.03],
      [2, 0.001],
      [3, 0.2],
      [4, 0.01],
    ] as const) {
      const samples = noisyTimes(50, 0.0123, sd, seed);
      const spread = 1.4826 * median(samples.map((x) => Math.abs(x - median(samples))));
      const step = chooseStep(samples)!;
      assert.ok([1, 2, 5].includes(step.m) && Number.isInteger(step.k), JSON.stringify(step));
      const size = step.m * 10 ** step.k;
      assert.ok(size <= spread / 4 && size > spread / 10, `step ${size} against spread ${spread}`);
    }
  });

  test('every sample comes back within half a step, in its place; the values are short decimals', () => {
    const samples = noisyTimes(200, 0.000123, 0.02, 5);
    const back = unpackSamples(packSamples(samples)!);
    const half = stepOf(samples) / 2;
    assert.equal(back.length, samples.length);
    samples.forEach((x, i) => assert.ok(Math.abs(back[i]! - x) <= half * (1 + 1e-9), `${i}: ${back[i]} against ${x}`));
    for (const x of back) assert.ok(String(x).replace(/^0\.0*/, '').length <= 6, `${x} is a short decimal`);
  });

  test('rounding leaves the variance within 1 % and the median within a step', () => {
    const samples = noisyTimes(20_000, 0.05, 0.01, 6);
    const back = unpackSamples(packSamples(samples)!);
    const ratio = variance(back) / variance(samples);
    assert.ok(Math.abs(ratio - 1) < 0.01, `variance ratio ${ratio}`);
    assert.ok(Math.abs(median(back) - median(samples)) <= stepOf(samples), `${median(back)} against ${median(samples)}`);
  });

  test('counts with no spread, whole numbers, short metrics and far outliers are kept exactly', () => {
    const counts = [1_234_567, 1_234_567, 1_234_567, 1_234_568, 1_234_567];
    assert.equal(packSamples(counts), undefined, 'more than half equal: zero spread, kept exactly');
    const bytes = [1000, 1001, 1003, 999, 1002, 1000, 998];
    assert.deepEqual(chooseStep(bytes), { m: 1, k: 0 }, 'a spread of a few bytes still steps by whole bytes');
    assert.deepEqual(unpackSamples(packSamples(bytes)!), bytes);
    assert.equal(packSamples([0.0011, 0.0012]), undefined, 'two samples: kept exactly');
    const outlier = [...noisyTimes(9, 0.001, 0.01, 7), 0.5];
    assert.equal(packSamples(outlier), undefined, 'an outlier 64 steps away or more keeps the metric exact');
    assert.equal(packSamples([1, 2, Number.NaN]), undefined);
  });

  test('a run round-trips through the run and month codecs; values the rule keeps exactly stay exact', () => {
    const run = sampleRun(fakeCommit(1), '2026-11-21T12:00:00Z', 'bed-a', 1, 4);
    run.benchmarks[0]!.metrics.instructions = { unit: 'count', direction: 'lower', exact: true, samples: [5_000_000, 5_000_000, 5_000_000] };
    run.benchmarks[1]!.metrics.time!.samples = noisyTimes(30, 0.02, 0.02, 8);
    const fromRun = decodeRun(encodeRun(run), 'run.json.gz', validate);
    const { runs } = decodeMonth(
      encodeMonth({ testbed: 'bed-a', month: '2026-11' }, [{ commit: run.commit!, runId: 'r1', json: runLine(run) }]),
      'month.json.br',
      validate,
    );
    for (const back of [fromRun, runs[0]!.set]) {
      assert.deepEqual(back.benchmarks[0]!.metrics.instructions, run.benchmarks[0]!.metrics.instructions);
      const original = run.benchmarks[1]!.metrics.time!.samples!;
      const half = stepOf(original) / 2;
      assert.ok(half > 0);
      back.benchmarks[1]!.metrics.time!.samples!.forEach((x, i) => assert.ok(Math.abs(x - original[i]!) <= half * (1 + 1e-9)));
    }
  });

  test('a file written with plain sample arrays reads exactly as it is', () => {
    const run = sampleRun(fakeCommit(2), '2026-11-21T12:00:00Z');
    assert.deepEqual(unpackResultSet(JSON.parse(JSON.stringify(run)), 'old.json.gz'), run);
  });

  test('packed columns that do not match the metrics are an InputError naming the file, never a half-read run', () => {
    const run = sampleRun(fakeCommit(3), '2026-11-21T12:00:00Z');
    run.benchmarks[0]!.metrics.time!.samples = noisyTimes(10, 0.001, 0.02, 9);
    const packed = packResultSet(run) as { packed: { steps: string; at: number[]; d: string } };
    assert.ok(packed.packed.d.length >= 10, 'the run packs');
    const broken = [
      { ...packed, packed: { ...packed.packed, d: packed.packed.d.slice(1) } },
      { ...packed, packed: { ...packed.packed, d: `${packed.packed.d}A` } },
      { ...packed, packed: { ...packed.packed, at: [] } },
      { ...packed, packed: { ...packed.packed, steps: packed.packed.steps.replace(/^\d/, '3') } },
      { ...packed, packed: { ...packed.packed, d: packed.packed.d.replace(/^./, '*') } },
    ];
    for (const data of broken) {
      assert.throws(
        () => unpackResultSet(JSON.parse(JSON.stringify(data)), 'bed-a/2026/11/x.json.gz'),
        (e: unknown) => e instanceof InputError && e.file === 'bed-a/2026/11/x.json.gz',
      );
    }
  });
});
