import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { checkScaling, sweepCoordinate } from '../../src/gate/scaling.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { reasonText } from '../../src/report/reason-text.js';

/** Sweep families and scaling decisions on known data; real programs measured here: scaling.timing.test.ts. */
const point = (id: string, params: Record<string, string> | undefined, samples: number[], metric = 'time'): BenchmarkResult => ({
  id,
  status: 'ok',
  ...(params ? { params } : {}),
  metrics: { [metric]: { unit: 's', direction: 'lower', samples } },
});

describe('sweep families', () => {
  test("the bracket suffix of the runner's sweeps: the swept parameter is taken out, the others stay", () => {
    assert.deepEqual(sweepCoordinate(point('sim/run[entityCount=800]', { entityCount: '800' }, [1]), 'entityCount'), { family: 'sim/run', value: '800' });
    assert.deepEqual(sweepCoordinate(point('sim/run[entityCount=800,threads=4]', undefined, [1]), 'entityCount'), {
      family: 'sim/run[threads=4]',
      value: '800',
    });
    assert.equal(sweepCoordinate(point('sim/run[threads=4]', undefined, [1]), 'entityCount'), undefined);
  });
  test('hyperfine -P ids spell the value in the command: it becomes {param}', () => {
    assert.deepEqual(sweepCoordinate(point('./prog -n 100 --fast', { n: '100' }, [1]), 'n'), { family: './prog -n {n} --fast', value: '100' });
    // "100" inside "1000" or "x100" is not the parameter.
    assert.deepEqual(sweepCoordinate(point('./prog 1000 -n 100', { n: '100' }, [1]), 'n'), { family: './prog 1000 -n {n}', value: '100' });
  });
});

describe('scaling decisions on known data', () => {
  const sweep = (family: string, k: number, noise: number[] = [1, 1.02, 0.98]) =>
    [100, 200, 400, 800, 1600].map((n) =>
      point(
        `${family}[n=${n}]`,
        { n: String(n) },
        noise.map((f) => 1e-6 * n ** k * f),
      ),
    );

  test('linear passes max 1.1, quadratic fails it, each family separately', () => {
    const checks = checkScaling([...sweep('a/lin', 1), ...sweep('a/quad', 2), point('a/other', undefined, [1])], 'time', { param: 'n', max: 1.1 });
    assert.deepEqual(
      checks.map((c) => [c.family, c.result]),
      [
        ['a/lin', 'pass'],
        ['a/quad', 'fail'],
      ],
    );
    assert.ok(Math.abs(checks[0]!.fit!.exponent - 1) < 1e-9);
    assert.match(reasonText(checks[1]!.reason), /time grows as n\^2\.00 .*above the maximum exponent 1\.1/);
  });
  test('an estimate above the limit whose interval still includes it is inconclusive', () => {
    // Exponent about 1.2 with a large scatter: the 95 % interval reaches below 1.1.
    const wobbly = [100, 200, 400, 800].map((n, i) => point(`w[n=${n}]`, { n: String(n) }, [1e-6 * n ** 1.2 * [1, 1.6, 0.7, 1.3][i]!]));
    const [check] = checkScaling(wobbly, 'time', { param: 'n', max: 1.1 });
    assert.ok(check!.fit!.exponent > 1.1, `exponent ${check!.fit!.exponent}`);
    assert.ok(check!.fit!.ci[0] < 1.1);
    assert.equal(check!.result, 'inconclusive');
    assert.match(reasonText(check!.reason), /add parameter values or runs/);
  });
  test('a crashed point is left out and named; with too few points left the check is inconclusive', () => {
    const points = sweep('c', 1);
    const crashed: BenchmarkResult = { ...points[2]!, status: 'failed', error: { message: 'signal SEGV' }, metrics: {} };
    const [check] = checkScaling([points[0]!, points[1]!, crashed, points[3]!, points[4]!], 'time', { param: 'n', max: 1.1 });
    assert.equal(check!.result, 'pass');
    assert.deepEqual(check!.skipped, ['c[n=400]']);
    assert.match(reasonText(check!.reason), /1 point failed or without time, left out/);
    const [few] = checkScaling([points[0]!, crashed, points[4]!], 'time', { param: 'n', max: 1.1 });
    assert.equal(few!.result, 'inconclusive');
    assert.match(reasonText(few!.reason), /2 usable values of n/);
  });
  test('a minimum exponent bounds rates that must keep up', () => {
    const flat = [1, 2, 4, 8].map((t) => point(`tp[threads=${t}]`, { threads: String(t) }, [1000 * t ** 0.3]));
    const [check] = checkScaling(flat, 'time', { param: 'threads', min: 0.8 });
    assert.equal(check!.result, 'fail');
  });
});
