import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitPowerLaw } from '../../src/stats/scaling.js';

const close = (a: number, b: number, tol = 1e-9): void => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} ≉ ${b}`);

test('matches scipy.stats.linregress on the logs, with a t interval on n − 2 df', () => {
  // Reference: scipy 1.x, linregress(log x, log y); t.ppf(0.975, 3).
  const fit = fitPowerLaw([10, 20, 40, 80, 160], [1.1, 2.3, 3.9, 8.4, 15.8]);
  close(fit.exponent, 0.9557453725801359);
  close(fit.stderr, 0.026716184821427003);
  close(fit.ci[0], 0.8707225489039089);
  close(fit.ci[1], 1.040768196256363);
  close(fit.coefficient, 0.12366957745796243);
  close(fit.r2, 0.9976613304319624);
  assert.equal(fit.df, 3);
});

test('an exact power law gives its exponent and a zero-width interval', () => {
  const x = [1, 2, 3, 5, 8];
  const fit = fitPowerLaw(
    x,
    x.map((v) => 3 * v ** 2),
  );
  close(fit.exponent, 2);
  close(fit.coefficient, 3);
  close(fit.ci[0], 2, 1e-7);
  close(fit.ci[1], 2, 1e-7);
});

test('scaling y or x by a constant leaves the exponent unchanged', () => {
  const x = [100, 200, 400, 800];
  const y = [0.9, 2.2, 3.7, 8.8];
  const base = fitPowerLaw(x, y).exponent;
  close(
    fitPowerLaw(
      x,
      y.map((v) => v * 1000),
    ).exponent,
    base,
  );
  close(
    fitPowerLaw(
      x.map((v) => v / 7),
      y,
    ).exponent,
    base,
  );
  close(
    fitPowerLaw(
      x,
      y.map((v) => 1 / v),
    ).exponent,
    -base,
  );
});

test('a wider confidence level gives a wider interval', () => {
  const x = [1, 2, 4, 8, 16];
  const y = [1, 2.1, 3.8, 8.5, 15];
  const a = fitPowerLaw(x, y, { confidence: 0.9 });
  const b = fitPowerLaw(x, y, { confidence: 0.99 });
  assert.ok(b.ci[0] < a.ci[0] && b.ci[1] > a.ci[1]);
});

test('two points give an exponent, no interval and a warning', () => {
  const fit = fitPowerLaw([1, 4], [2, 8]);
  close(fit.exponent, 1);
  assert.deepEqual(fit.ci, [-Infinity, Infinity]);
  assert.equal(fit.warnings.length, 1);
});

test('unusable input is refused', () => {
  assert.throws(() => fitPowerLaw([1, 2], [1]), RangeError);
  assert.throws(() => fitPowerLaw([0, 2, 3], [1, 2, 3]), /positive/);
  assert.throws(() => fitPowerLaw([2, 2, 2], [1, 2, 3]), /two distinct x/);
});
