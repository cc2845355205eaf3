import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { changePoints, DEFAULT_CHANGE_POINT_OPTIONS, forwardChange, stepStats } from '../../src/stats/change-points.js';
import { changePointCorpus, otavaChangePoints, samePoints, type CorpusSeries } from '../support/change-point-corpus.js';
import { seriesWithSteps } from '../support/synthetic-series.js';

/**
 * Agreement with Apache Otava 0.8.0 on the seeded corpus, measured when this
 * test was written (docs/history.md): the default (neighbours re-tested) gives
 * the same change points within ±1 on 246 of 260 series; Otava's own merge
 * order on all 260.
 */
const MEASURED_AGREEMENT = 246 / 260;

/** How a detector does on the corpus: A/A series left clean, planted steps found at their place (±1). */
function score(corpus: readonly CorpusSeries[], points: readonly (readonly number[])[]): { clean: number; found: number } {
  let clean = 0;
  let found = 0;
  corpus.forEach((c, i) => {
    if (c.kind === 'a/a' && points[i]!.length === 0) clean++;
    found += c.steps.filter((s) => points[i]!.some((at) => Math.abs(at - s.at) <= 1)).length;
  });
  return { clean, found };
}

describe('change points against Apache Otava on the same series', () => {
  const corpus: CorpusSeries[] = changePointCorpus();
  let reference: number[][];

  before(() => {
    reference = otavaChangePoints(corpus.map((c) => c.series));
  });

  test("with Otava's merge order, the same change points as Otava on every series, to the position", () => {
    const differ = corpus.filter(
      (c, i) =>
        changePoints(c.series, { ...DEFAULT_CHANGE_POINT_OPTIONS, reTest: 'otava' })
          .map((p) => p.index)
          .join() !== reference[i]!.join(),
    );
    assert.deepEqual(
      differ.map((c) => c.kind),
      [],
    );
  });

  test(`by default, the same change points within ±1 on at least ${(MEASURED_AGREEMENT * 100).toFixed(1)} % of the series, and at least as good: as many A/A series clean, as many steps found`, () => {
    const ours = corpus.map((c) => changePoints(c.series).map((p) => p.index));
    const agree = corpus.filter((_, i) => samePoints(ours[i]!, reference[i]!)).length;
    assert.ok(agree / corpus.length >= MEASURED_AGREEMENT, `${agree} of ${corpus.length}`);
    const mine = score(corpus, ours);
    const otava = score(corpus, reference);
    assert.ok(mine.clean >= otava.clean && mine.found >= otava.found, `ours ${JSON.stringify(mine)}, Otava ${JSON.stringify(otava)}`);
  });
});

describe('change points on synthetic series', () => {
  const corpus = changePointCorpus();

  test('a 5 % step in 2 % noise is found at its place (±1) in at least 95 of 100 seeded series, with its size', () => {
    const oneStep = corpus.filter((c) => c.kind === 'one step');
    let found = 0;
    for (const c of oneStep) {
      const points = changePoints(c.series);
      const at = points.find((p) => Math.abs(p.index - c.steps[0]!.at) <= 1);
      if (!at) continue;
      found++;
      // The step's size is read from the means of the stretches either side (the noise's share of it included).
      assert.ok(Math.abs(forwardChange(at.stats) - c.steps[0]!.size) < 0.02, `step ${c.steps[0]!.size} read as ${forwardChange(at.stats)}`);
    }
    assert.ok(found >= 95, `${found} of ${oneStep.length}`);
  });

  test('an A/A series of 200 points has no change point in at least 95 of 100 seeded series', () => {
    const clean = corpus.filter((c) => c.kind === 'a/a' && changePoints(c.series).length === 0).length;
    assert.ok(clean >= 95, `${clean} of 100`);
  });

  test('of three steps of 3–10 % in 1–3 % noise, at least 160 of 180 are found at their place', () => {
    const threeSteps = corpus.filter((c) => c.kind === 'three steps');
    const { found } = score(
      threeSteps,
      threeSteps.map((c) => changePoints(c.series).map((p) => p.index)),
    );
    assert.ok(found >= 160, `${found} of ${threeSteps.length * 3}`);
  });

  test('short, constant and stepped-constant series', () => {
    assert.deepEqual(changePoints([1, 2]), []);
    assert.deepEqual(changePoints(new Array(100).fill(5)), []);
    const stepped = [...new Array(30).fill(5), ...new Array(30).fill(6)];
    assert.deepEqual(
      changePoints(stepped).map((p) => p.index),
      [30],
    );
    assert.throws(() => changePoints(seriesWithSteps(1, 10, 0.01), { ...DEFAULT_CHANGE_POINT_OPTIONS, windowLength: 1 }), RangeError);
  });

  test("the step test is scipy's pooled t-test on population deviations (Otava's call)", () => {
    // scipy.stats.ttest_ind_from_stats(2, np.std([1,2,3]), 3, 5, np.std([4,5,6]), 3): p = 0.0108225504626…
    const s = stepStats([1, 2, 3], [4, 5, 6]);
    assert.equal(s.meanBefore, 2);
    assert.equal(s.meanAfter, 5);
    assert.ok(Math.abs(s.stdBefore - Math.sqrt(2 / 3)) < 1e-12);
    assert.ok(Math.abs(s.pValue - SCIPY_P) < 1e-9, String(s.pValue));
  });
});

const SCIPY_P = 0.010822550462608247;
