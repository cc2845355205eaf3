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
      // 30 ms runs: long enough that the spawn overhead stays a small share of a run on a stalling VM.
      mode: 'quick',
      samplesPerSide: 2,
      aaTrials: 1,
      abTrials: 1,
      slowdowns: [10],
      targetSeconds: 0.03,
      seed: 3,
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
      else assert.equal(t.order, undefined, `${t.design} trial has an order`);
    }
    const { loopShare, iterations } = data.calibration;
    assert.ok(loopShare >= 0.2 && loopShare < 1, `loop share ${loopShare}`);
    assert.ok(iterations > 1000, `${iterations} iterations`);
    assert.ok(data.machine.nproc >= 1, `nproc ${data.machine.nproc}`);
    assert.equal(data.machine.loadAfter.length, 3);
    // A killed child can take a moment to be reaped on a busy machine: look for up to 2 s.
    let alive = spinnersAlive();
    for (let i = 0; i < 20 && alive.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      alive = spinnersAlive();
    }
    assert.deepEqual(alive, []);
  });
});
