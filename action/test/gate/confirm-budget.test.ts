import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BINARY_START_SECONDS, budgetConfirmation, HARNESS_START_SECONDS, type SuiteCostFacts } from '../../src/gate/confirm-budget.js';

/** A suite of 24 benchmarks whose plain run took 48 s (2 s a benchmark), built in 10 s, narrowed to short rounds of a sixth. */
const GO: SuiteCostFacts = {
  timing: { build: 10, run: 48 },
  benchmarks: 24,
  repeat: 1,
  narrowed: true,
  share: 1 / 6,
  rounds: 22,
  start: HARNESS_START_SECONDS,
  compile: 0,
};

describe('the second stage prices its suspects before it starts', () => {
  test('a narrowed suite: two builds, then 2 sides × 22 rounds × (a harness start + a short round per suspect)', () => {
    const one = budgetConfirmation([{ benchmark: 'go/W07', suite: 'go' }], new Map([['go', GO]]), 600);
    // 2 × 10 s of builds + 2 × 22 × (0.5 s + 2 s / 6).
    assert.ok(Math.abs(one.seconds - (20 + 44 * (HARNESS_START_SECONDS + 2 / 6))) < 1e-9, String(one.seconds));
    assert.deepEqual(one.measured, ['go/W07']);
    assert.deepEqual(one.left, []);
    assert.equal(one.partial, false);
    const two = budgetConfirmation(
      [
        { benchmark: 'go/W07', suite: 'go' },
        { benchmark: 'go/W03', suite: 'go' },
      ],
      new Map([['go', GO]]),
      600,
    );
    // The second suspect adds only its own share: the builds and the harness's start are paid once.
    assert.ok(Math.abs(two.seconds - one.seconds - (44 * 2) / 6) < 1e-9, `${two.seconds} vs ${one.seconds}`);
  });

  test("rounds by a compiled test binary: its compile added to each side's build, a round's start a binary's", () => {
    const compiled: SuiteCostFacts = { ...GO, start: BINARY_START_SECONDS, compile: HARNESS_START_SECONDS };
    const b = budgetConfirmation([{ benchmark: 'go/W07', suite: 'go' }], new Map([['go', compiled]]), 600);
    // 2 × (10 s + one compile) + 2 × 22 × (a binary's start + 2 s / 6).
    assert.ok(Math.abs(b.seconds - (2 * (10 + HARNESS_START_SECONDS) + 44 * (BINARY_START_SECONDS + 2 / 6))) < 1e-9, String(b.seconds));
  });

  test('a suite that cannot be narrowed pays its whole run per side and round, once for all its suspects', () => {
    const whole: SuiteCostFacts = { ...GO, narrowed: false, share: 1, repeat: 2 };
    const b = budgetConfirmation(
      [
        { benchmark: 'go/W07', suite: 'go' },
        { benchmark: 'go/W03', suite: 'go' },
      ],
      new Map([['go', whole]]),
      10_000,
    );
    // repeat: 2 means the plain 48 s were two harness calls: a round is one, 24 s a side.
    assert.equal(b.seconds, 20 + 2 * 22 * 24);
    assert.deepEqual(b.measured, ['go/W07', 'go/W03']);
  });

  test('over the cap: the likeliest first, the rest named with what they would have added; the first always runs', () => {
    const suites = new Map([
      ['go', GO],
      ['big', { ...GO, timing: { build: 300, run: 240 } }],
    ]);
    const b = budgetConfirmation(
      [
        { benchmark: 'go/W07', suite: 'go' },
        { benchmark: 'big/B1', suite: 'big' },
        { benchmark: 'go/W03', suite: 'go' },
      ],
      suites,
      80,
    );
    assert.deepEqual(b.measured, ['go/W07', 'go/W03']);
    assert.equal(b.left.length, 1);
    assert.equal(b.left[0]!.benchmark, 'big/B1');
    // big's two 300 s builds alone are ten times the cap.
    assert.ok(b.left[0]!.seconds > 600, String(b.left[0]!.seconds));
    assert.ok(b.seconds <= 80, String(b.seconds));
    const alone = budgetConfirmation([{ benchmark: 'big/B1', suite: 'big' }], suites, 60);
    assert.deepEqual(alone.measured, ['big/B1'], 'the first suspect is measured even when its estimate is over the cap: the cap still bounds it');
  });

  test('a round is never priced above the whole plain call', () => {
    const quick: SuiteCostFacts = { ...GO, timing: { build: 0, run: 0.2 }, share: 1 };
    assert.ok(Math.abs(budgetConfirmation([{ benchmark: 'q/a', suite: 'q' }], new Map([['q', quick]]), 600).seconds - 44 * 0.2) < 1e-9);
  });

  test('a suite the first stage did not time is priced at nothing and marks the estimate partial', () => {
    const b = budgetConfirmation([{ benchmark: 'x/a', suite: 'x' }], new Map([['x', { ...GO, timing: null }]]), 1);
    assert.deepEqual(b, { seconds: 0, measured: ['x/a'], left: [], partial: true });
  });
});
