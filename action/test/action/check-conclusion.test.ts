import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPolicyOf } from '../../src/action/check-policy.js';
import { checkConclusionOf, stepFails } from '../../src/gate/check-policy.js';
import type { GateReport } from '../../src/gate/index.js';

const report = (verdict: 'pass' | 'fail', inconclusive = 0) => ({ verdict, counts: { inconclusive }, rows: [] }) as unknown as GateReport;
/** The check run's conclusion for a report under the action's settings (its policy is checkPolicyOf's). */
const checkConclusion = (decided: GateReport, settings: Parameters<typeof checkPolicyOf>[0]) =>
  checkConclusionOf({ verdict: decided.verdict, inconclusive: decided.counts.inconclusive }, checkPolicyOf(settings));

test('a pass posted from a two-stage artifact is neutral, so self-reported numbers cannot satisfy a required check', () => {
  const policy = { failOn: 'fail', inconclusive: 'pass' } as const;
  assert.equal(checkConclusion(report('pass'), { mode: 'report', ...policy }), 'neutral');
  assert.equal(checkConclusion(report('fail'), { mode: 'report', ...policy }), 'failure');
  assert.equal(checkConclusion(report('pass'), { mode: 'pr', ...policy }), 'success');
  assert.equal(checkConclusion(report('fail'), { mode: 'pr', ...policy, failOn: 'never' }), 'neutral');
});

test('inconclusive: pass lets a run with inconclusive rows succeed, neutral makes its check neutral, fail fails the step and the check', () => {
  const undecided = report('pass', 2);
  assert.equal(checkConclusion(undecided, { mode: 'pr', failOn: 'fail', inconclusive: 'pass' }), 'success');
  assert.equal(stepFails(undecided, { failOn: 'fail', inconclusive: 'pass' }), false);
  assert.equal(checkConclusion(undecided, { mode: 'pr', failOn: 'fail', inconclusive: 'neutral' }), 'neutral');
  assert.equal(stepFails(undecided, { failOn: 'fail', inconclusive: 'neutral' }), false);
  assert.equal(checkConclusion(undecided, { mode: 'pr', failOn: 'fail', inconclusive: 'fail' }), 'failure');
  assert.equal(stepFails(undecided, { failOn: 'fail', inconclusive: 'fail' }), true);
  // fail-on: never still never fails, and a run without inconclusive rows is untouched by the policy.
  assert.equal(stepFails(undecided, { failOn: 'never', inconclusive: 'fail' }), false);
  assert.equal(checkConclusion(undecided, { mode: 'pr', failOn: 'never', inconclusive: 'fail' }), 'neutral');
  assert.equal(checkConclusion(report('pass'), { mode: 'pr', failOn: 'fail', inconclusive: 'fail' }), 'success');
  assert.equal(stepFails(report('pass'), { failOn: 'fail', inconclusive: 'fail' }), false);
});
