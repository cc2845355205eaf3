import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { pointLabel, pointSuffix, sweepPoints } from '../../src/runner/sweep.js';

describe('sweeps', () => {
  test('the product of the parameter lists, in the order written, with id suffixes and file labels', () => {
    assert.deepEqual(sweepPoints(null), [{}]);
    const points = sweepPoints({ a: ['1', '2'], b: ['x', 'y/z'] });
    assert.deepEqual(points, [
      { a: '1', b: 'x' },
      { a: '1', b: 'y/z' },
      { a: '2', b: 'x' },
      { a: '2', b: 'y/z' },
    ]);
    assert.equal(pointSuffix(points[1]!), '[a=1,b=y/z]');
    assert.equal(pointSuffix({}), '');
    assert.equal(pointLabel(points[1]!, 1), 'p2-a=1,b=y_z');
    assert.equal(pointLabel({}, 0), '');
  });
});
