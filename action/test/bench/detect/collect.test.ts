import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { collect, type CollectPlan } from '../../../../bench/detect/collect.js';
import { requireTool } from '../../support/tools.js';

requireTool('gcc');

/** Children of this process still running the background spinner. */
function spinnersAlive(): string[] {
  const r = spawnSync('ps', ['-o', 'pid=,stat=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return r.stdout.split('\n').filter((l) => l.includes('--spin') && !/\sZ/.test(l));
}

describe('collector (real gcc, real processes)', () => {
  test('times every design, load and slowdown, and stops its background load', async () => {
    const plan: CollectPlan = {
      mode: 'quick', samplesPerSide: 2, aaTrials: 1, abTrials: 1, slowdowns: [10], targetSeconds: 0.01, seed: 3,
    };
    const data = await collect(plan, () => {});
    assert.equal(data.trials.length, 2 * 2 * 2, 'designs × loads × (A/A + one slowdown)');
    const seen = new Set(data.trials.map((t) => `${t.design}/${t.load}/${t.slowdown}`));
    assert.equal(seen.size, 8);
    for (const t of data.trials) {
      assert.equal(t.a.length, 2);
      assert.equal(t.b.length, 2);
      for (const x of [...t.a, ...t.b]) assert.ok(x > 1e-4 && x < 2, `implausible run time ${x} s`);
      if (t.design === 'interleaved') assert.match(t.order ?? '', /^[AB]{2}$/);
      else assert.equal(t.order, undefined);
    }
    assert.ok(data.calibration.loopShare > 0 && data.calibration.loopShare < 1);
    assert.ok(data.calibration.iterations > 1000);
    assert.ok(data.machine.nproc >= 1);
    assert.equal(data.machine.loadAfter.length, 3);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(spinnersAlive(), []);
  });
});
