import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  afterStep,
  classifyChange,
  classifyStep,
  firstStep,
  maxSearchSteps,
  narrow,
  nextMidpoint,
  roundsStatus,
  type BisectNext,
  type StepMeasure,
  type StepSide,
} from '../../src/gate/bisect-steps.js';
import { seededRandom } from '../../src/stats/prng.js';

const step = (status: StepMeasure['status'], change: number | null, ci: [number, number] | null = null): StepMeasure => ({
  status,
  change,
  ci,
  tolerance: 0.05,
});

/** A +150 % slowdown [+120, +190]: the change a search follows. */
const SLOWER = step('regressed', 1.5, [1.2, 1.9]);
/** A 40 % speed-up [−45, −35]. */
const FASTER = step('improved', -0.4, [-0.45, -0.35]);

describe('classifyChange: is good → bad a change to search for?', () => {
  test('regressed and improved are; unchanged is no step; inconclusive cannot tell; failed was not measured', () => {
    assert.deepEqual(classifyChange(SLOWER), { side: 'bad', reason: 'is-the-change' });
    assert.deepEqual(classifyChange(FASTER), { side: 'bad', reason: 'is-the-change' });
    assert.deepEqual(classifyChange(step('unchanged', 0.01, [-0.02, 0.03])), { side: 'good', reason: 'unchanged' });
    assert.deepEqual(classifyChange(step('inconclusive', 0.3, [-0.1, 0.9])), { side: 'inconclusive', reason: 'cannot-tell' });
    assert.deepEqual(classifyChange(step('failed', null)), { side: 'failed', reason: 'not-measured' });
  });
});

describe('classifyStep: a midpoint against good, compared with the change', () => {
  test('the same verdict with an interval overlapping the change is like bad', () => {
    assert.deepEqual(classifyStep(SLOWER, step('regressed', 1.8, [1.5, 2.4])), { side: 'bad', reason: 'same-verdict-overlapping' });
    assert.deepEqual(classifyStep(FASTER, step('improved', -0.38, [-0.42, -0.3])), { side: 'bad', reason: 'same-verdict-overlapping' });
  });

  test('unchanged is like good', () => {
    assert.deepEqual(classifyStep(SLOWER, step('unchanged', 0.01, [-0.02, 0.03])), { side: 'good', reason: 'unchanged' });
  });

  test('an inconclusive interval wholly short of the change, with no change beyond the tolerance, rules it out: like good', () => {
    assert.deepEqual(classifyStep(SLOWER, step('inconclusive', 0.02, [-0.08, 0.3])), { side: 'good', reason: 'rules-out-change' });
    assert.deepEqual(classifyStep(FASTER, step('inconclusive', -0.01, [-0.2, 0.1])), { side: 'good', reason: 'rules-out-change' });
  });

  test('an inconclusive interval reaching the change, or above the tolerance throughout, stays inconclusive: no side is guessed', () => {
    assert.deepEqual(classifyStep(SLOWER, step('inconclusive', 0.5, [-0.1, 1.3])), { side: 'inconclusive', reason: 'cannot-tell' });
    assert.deepEqual(classifyStep(SLOWER, step('inconclusive', 0.3, [0.06, 0.9])), { side: 'inconclusive', reason: 'cannot-tell' });
    assert.deepEqual(classifyStep(FASTER, step('inconclusive', -0.3, [-0.4, 0.1])), { side: 'inconclusive', reason: 'cannot-tell' });
    assert.deepEqual(classifyStep(SLOWER, step('inconclusive', null)), { side: 'inconclusive', reason: 'cannot-tell' });
  });

  test('a change of its own (the other way, only part of the change, or more than it) differs', () => {
    assert.deepEqual(classifyStep(SLOWER, step('improved', -0.2, [-0.3, -0.1])), { side: 'differs', reason: 'opposite-direction' });
    assert.deepEqual(classifyStep(SLOWER, step('regressed', 0.4, [0.3, 0.5])), { side: 'differs', reason: 'smaller-than-change' });
    assert.deepEqual(classifyStep(SLOWER, step('regressed', 3, [2.5, 3.5])), { side: 'differs', reason: 'larger-than-change' });
    assert.deepEqual(classifyStep(FASTER, step('improved', -0.1, [-0.15, -0.08])), { side: 'differs', reason: 'smaller-than-change' });
  });

  test('a benchmark that failed or went missing on a side was not measured', () => {
    for (const status of ['failed', 'missing', 'new'] as const)
      assert.deepEqual(classifyStep(SLOWER, step(status, null)), { side: 'failed', reason: 'not-measured' });
  });

  test('without an interval the point estimate stands for it', () => {
    assert.equal(classifyStep(step('regressed', 1.5, null), step('regressed', 1.5, null)).side, 'bad');
    assert.equal(classifyStep(step('regressed', 1.5, null), step('regressed', 0.5, null)).side, 'differs');
  });

  test('the good → bad step must be a change', () => {
    assert.throws(() => classifyStep(step('unchanged', 0, [-0.01, 0.01]), SLOWER), /not a change/);
  });
});

describe('roundsStatus: when an A/B step needs more rounds', () => {
  test("a step already placed by its interval counts as decided; everything else is the gate's status", () => {
    assert.equal(roundsStatus(SLOWER, step('inconclusive', 0.02, [-0.08, 0.3])), 'unchanged');
    assert.equal(roundsStatus(SLOWER, step('inconclusive', 0.5, [-0.1, 1.3])), 'inconclusive');
    assert.equal(roundsStatus(SLOWER, step('regressed', 1.8, [1.5, 2.4])), 'regressed');
    assert.equal(roundsStatus(null, step('inconclusive', 0.02, [-0.08, 0.3])), 'inconclusive', "the bad end is the gate's alone");
  });
});

describe('the search', () => {
  test('nextMidpoint halves the range and stops when good and bad are neighbours', () => {
    assert.equal(nextMidpoint({ good: 0, bad: 30 }), 15);
    assert.equal(nextMidpoint({ good: 15, bad: 30 }), 22);
    assert.equal(nextMidpoint({ good: 21, bad: 22 }), null);
    assert.deepEqual(narrow({ good: 0, bad: 30 }, 15, 'good'), { good: 15, bad: 30 });
    assert.deepEqual(narrow({ good: 0, bad: 30 }, 15, 'bad'), { good: 0, bad: 15 });
    assert.throws(() => narrow({ good: 0, bad: 30 }, 30, 'bad'), /not between/);
  });

  test('a path of one commit needs no midpoint: the bad end is the culprit', () => {
    assert.deepEqual(firstStep(1), { kind: 'found', index: 1, search: { good: 0, bad: 1 } });
  });

  test('inconclusive earns one more measurement of the same commit, then stops there; differs and failed stop at once', () => {
    const search = { good: 0, bad: 30 };
    assert.deepEqual(afterStep(search, 15, 1, 'inconclusive'), { kind: 'measure', index: 15, attempt: 2, search });
    assert.deepEqual(afterStep(search, 15, 2, 'inconclusive'), { kind: 'stop', index: 15, side: 'inconclusive', search });
    assert.deepEqual(afterStep(search, 15, 1, 'differs'), { kind: 'stop', index: 15, side: 'differs', search });
    assert.deepEqual(afterStep(search, 15, 1, 'failed'), { kind: 'stop', index: 15, side: 'failed', search });
    assert.deepEqual(afterStep(search, 15, 2, 'good'), { kind: 'measure', index: 22, attempt: 1, search: { good: 15, bad: 30 } });
  });

  /** Runs the search with an oracle that knows the culprit and sometimes answers inconclusive first. */
  function simulate(n: number, culprit: number, undecided: (index: number, attempt: number) => boolean): { found: number | null; measured: number[] } {
    let next: BisectNext = firstStep(n);
    const measured: number[] = [];
    while (next.kind === 'measure') {
      measured.push(next.index);
      const side: StepSide = undecided(next.index, next.attempt) ? 'inconclusive' : next.index >= culprit ? 'bad' : 'good';
      next = afterStep(next.search, next.index, next.attempt, side);
    }
    return { found: next.kind === 'found' ? next.index : null, measured };
  }

  test(`every culprit of 30 commits is found in at most ${maxSearchSteps(30)} midpoints, each measured once`, () => {
    assert.equal(maxSearchSteps(30), 5);
    for (let culprit = 1; culprit <= 30; culprit++) {
      const { found, measured } = simulate(30, culprit, () => false);
      assert.equal(found, culprit);
      assert.ok(measured.length <= 5, `culprit ${culprit}: ${measured.length} midpoints`);
      assert.equal(new Set(measured).size, measured.length);
    }
  });

  test('random path lengths and culprits (seeded): found, within ⌈log2 n⌉ midpoints', () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + random.int(200);
      const culprit = 1 + random.int(n);
      const { found, measured } = simulate(n, culprit, () => false);
      assert.equal(found, culprit, `n ${n}`);
      assert.ok(measured.length <= maxSearchSteps(n));
    }
  });

  test('an inconclusive first answer costs one re-measurement; a second one stops the search at that commit', () => {
    const once = simulate(30, 22, (index, attempt) => index === 15 && attempt === 1);
    assert.equal(once.found, 22);
    assert.deepEqual(once.measured.slice(0, 2), [15, 15]);
    const twice = simulate(30, 22, (index) => index === 15);
    assert.equal(twice.found, null);
    assert.deepEqual(twice.measured, [15, 15]);
  });
});
