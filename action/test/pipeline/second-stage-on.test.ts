import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alertStepsConfirmed, secondStageOn, type SecondStageRun } from '../../src/pipeline/run-plan.js';

/**
 * One rule for "is the second stage on?", for the action's `confirm:` input
 * and `perf-gate run --confirm` alike: before it, the action confirmed against
 * named baseline files and the CLI did not, and the CLI confirmed releases and
 * the action did not.
 */
const prAgainstStore: SecondStageRun = { mode: 'pr', measuresSuites: true, baseline: 'store', configOn: true };

test("auto confirms a pull request's run against the store's baseline unless perf-gate.yml says confirm: off", () => {
  assert.equal(secondStageOn('auto', prAgainstStore), true);
  assert.equal(secondStageOn('auto', { ...prAgainstStore, configOn: false }), false);
});

test('auto compares named files and a release as they are; interleaved confirms them, off never confirms', () => {
  for (const run of [
    { ...prAgainstStore, baseline: 'files' },
    { ...prAgainstStore, mode: 'release' },
  ] as const) {
    assert.equal(secondStageOn('auto', run), false, JSON.stringify(run));
    assert.equal(secondStageOn('interleaved', run), true, JSON.stringify(run));
    assert.equal(secondStageOn('off', run), false, JSON.stringify(run));
  }
  assert.equal(secondStageOn('interleaved', { ...prAgainstStore, configOn: false }), true, 'the input overrides perf-gate.yml');
  assert.equal(secondStageOn('off', prAgainstStore), false);
});

test('a run with nothing to measure again has no second stage, whatever was asked', () => {
  for (const run of [
    { ...prAgainstStore, mode: 'main' },
    { ...prAgainstStore, measuresSuites: false },
    { ...prAgainstStore, baseline: 'none' },
  ] as const) {
    for (const choice of ['auto', 'interleaved', 'off'] as const) assert.equal(secondStageOn(choice, run), false, `${choice} ${JSON.stringify(run)}`);
  }
});

test("main's alert steps are measured again under the same choice", () => {
  assert.equal(alertStepsConfirmed('auto', true), true);
  assert.equal(alertStepsConfirmed('auto', false), false);
  assert.equal(alertStepsConfirmed('interleaved', false), true);
  assert.equal(alertStepsConfirmed('off', true), false);
});
