import { test } from 'node:test';
import assert from 'node:assert/strict';
import { confirmPlan } from '../../src/action/action-plan.js';

/**
 * The action's second stage of mode pr: a fork's head already ran in the
 * checkout and could have left git hooks that `git worktree add` runs, so its
 * base is not built unless the runner is disposable (`confirm-forks`);
 * `fail-on: suspected` and `warn` make unconfirmed suspects fail.
 */
test("a fork's pull request is not confirmed unless confirm-forks says the runner is disposable", () => {
  assert.deepEqual(confirmPlan({ failOn: 'fail', confirmForks: false, confirm: 'auto' }, { fromFork: true }), {
    failSuspected: false,
    asked: false,
    refused: { code: 'fork' },
  });
  assert.deepEqual(confirmPlan({ failOn: 'fail', confirmForks: true, confirm: 'auto' }, { fromFork: true }), { failSuspected: false, asked: false });
  assert.deepEqual(confirmPlan({ failOn: 'fail', confirmForks: false, confirm: 'interleaved' }, { fromFork: false }), { failSuspected: false, asked: true });
  assert.deepEqual(confirmPlan({ failOn: 'fail', confirmForks: false, confirm: 'auto' }, null), { failSuspected: false, asked: false });
});

test('fail-on: suspected and warn make an unconfirmed suspect fail; fail and never do not', () => {
  for (const [failOn, fails] of [
    ['fail', false],
    ['suspected', true],
    ['warn', true],
    ['never', false],
  ] as const)
    assert.equal(confirmPlan({ failOn, confirmForks: false, confirm: 'auto' }, null).failSuspected, fails, failOn);
});
