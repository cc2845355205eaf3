import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConclusion } from '../../src/action/run-action.js';
import type { GateReport } from '../../src/gate/index.js';

const report = (verdict: 'pass' | 'fail') => ({ verdict }) as GateReport;

test('a pass posted from a two-stage artifact is neutral, so self-reported numbers cannot satisfy a required check', () => {
  assert.equal(checkConclusion(report('pass'), { mode: 'report', failOn: 'fail' }), 'neutral');
  assert.equal(checkConclusion(report('fail'), { mode: 'report', failOn: 'fail' }), 'failure');
  assert.equal(checkConclusion(report('pass'), { mode: 'pr', failOn: 'fail' }), 'success');
  assert.equal(checkConclusion(report('fail'), { mode: 'pr', failOn: 'never' }), 'neutral');
});
