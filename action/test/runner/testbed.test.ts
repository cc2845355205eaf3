import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { systemFiles } from '../../src/runner/preflight/system-files.js';
import { readFileSync } from 'node:fs';
import {
  formerTestbedId,
  readTestbed,
  readTestbedFacts,
  sameTestbed,
  testbedDifferences,
  testbedFromFacts,
  testbedId,
  type TestbedFacts,
} from '../../src/runner/testbed.js';
import { bareMetal, tunedBareMetal, writeTree, type Tree } from './preflight/fake-root.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

function testbedOf(tree: Tree, runner?: string) {
  const { root, cleanup } = writeTree(tree);
  cleanups.push(cleanup);
  return readTestbed(systemFiles(root), runner);
}

const governor = (g: string): Tree => Object.fromEntries([0, 1, 2, 3].map((c) => [`/sys/devices/system/cpu/cpu${c}/cpufreq/scaling_governor`, g]));

describe('testbed id', () => {
  test('is stable across calls on this machine', () => {
    const a = readTestbed(systemFiles('/'));
    const b = readTestbed(systemFiles('/'));
    assert.match(a.id, /^[0-9a-f]{16}$/);
    assert.equal(a.id, b.id);
    assert.ok(sameTestbed(a, b));
  });

  test('records the readable facts of a bare-metal machine', () => {
    const tb = testbedOf(bareMetal(), 'bm-01');
    assert.equal(tb.cpu, 'Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz');
    assert.equal(tb.cores, 4);
    assert.equal(tb.kernel, '6.8.0-45-generic');
    assert.equal(tb.governor, 'powersave');
    assert.equal(tb.turbo, true);
    assert.equal(tb.smt, true);
    assert.equal(tb.runner, 'bm-01');
    assert.equal(tb.memory, 32657412 * 1024);
    assert.equal(tb.mitigations, 'auto');
  });

  test('changes when the governor, turbo, SMT, CPU model, core count or mitigations change', () => {
    const base = testbedOf(bareMetal()).id;
    const variants: Record<string, Tree> = {
      governor: bareMetal(governor('performance')),
      turbo: bareMetal({ '/sys/devices/system/cpu/intel_pstate/no_turbo': '1' }),
      smt: bareMetal({ '/sys/devices/system/cpu/smt/active': '0' }),
      cpu: bareMetal({ '/proc/cpuinfo': 'processor\t: 0\nmodel name\t: AMD Ryzen 9 7950X 16-Core Processor\n' }),
      cores: bareMetal({ '/sys/devices/system/cpu/online': '0-1' }),
      mitigations: bareMetal({ '/proc/cmdline': 'ro quiet mitigations=off' }),
    };
    const ids = Object.entries(variants).map(([what, tree]) => {
      const id = testbedOf(tree).id;
      assert.notEqual(id, base, `${what} must change the id`);
      return id;
    });
    assert.equal(new Set(ids).size, ids.length, 'each variant has its own id');
  });

  test('does not change with the runner name, load, swap use, throttle counts, ASLR, kernel patch level or a few MiB of MemTotal', () => {
    const base = testbedOf(bareMetal()).id;
    const same: Record<string, Tree> = {
      load: bareMetal({ '/proc/loadavg': '7.00 6.0 5.0 9/900 1' }),
      swap: bareMetal({ '/proc/meminfo': 'MemTotal:       32650000 kB\nSwapTotal: 2097148 kB\nSwapFree: 1000 kB\n' }),
      throttle: bareMetal({ '/sys/devices/system/cpu/cpu0/thermal_throttle/core_throttle_count': '99' }),
      aslr: bareMetal({ '/proc/sys/kernel/randomize_va_space': '0' }),
      patch: bareMetal({ '/proc/sys/kernel/osrelease': '6.8.0-47-generic' }),
      // A routine kernel upgrade is an environment change (runner/environment.ts), not another machine.
      kernel: bareMetal({ '/proc/sys/kernel/osrelease': '6.11.0-9-generic' }),
      microcode: bareMetal({ '/proc/cpuinfo': `${bareMetal()['/proc/cpuinfo']}microcode\t: 0xf8\n` }),
    };
    for (const [what, tree] of Object.entries(same)) assert.equal(testbedOf(tree).id, base, `${what} must not change the id`);
    assert.equal(testbedOf(bareMetal(), 'bm-02').id, base, 'runner name');
  });

  test('records the id recipe 1 gave the machine, which kept the kernel: the history filed under it stays this testbed’s', () => {
    // Recorded by perf-gate's recipe 1 on the machine that made the committed example baseline.
    const recorded = JSON.parse(readFileSync(new URL('../../../examples/cli-hyperfine/baselines/results.json', import.meta.url), 'utf8')) as {
      testbed: TestbedFacts & { id: string };
    };
    const { id, ...facts } = recorded.testbed;
    assert.equal(formerTestbedId({ ...facts, kernel: facts.kernel }), id);
    assert.notEqual(testbedId(facts), id, 'recipe 2 gives a new id');
    const upgraded = { ...facts, kernel: '6.19.2-fc-v600' };
    assert.equal(testbedId(upgraded), testbedId(facts), 'a kernel upgrade keeps the id');
    assert.notEqual(formerTestbedId(upgraded), id, 'recipe 1 changed it');
    // A run of today names its former id: a baseline recorded under recipe 1 is the same testbed.
    const today = { ...testbedFromFacts(facts), formerId: formerTestbedId(facts) };
    assert.ok(sameTestbed(today, { id }));
    assert.deepEqual(testbedDifferences({ id }, today), []);
    assert.equal(sameTestbed({ ...testbedFromFacts(upgraded) }, { id }), false, 'an old id of another kernel is not matched');
  });

  test('a machine whose /sys hides everything still gets a stable id from what it has', () => {
    const facts = readTestbedFacts(systemFiles('/nonexistent-root-for-perf-gate'));
    assert.equal(facts.governor, null);
    assert.equal(testbedId(facts), testbedId({ ...facts }));
  });
});

describe('comparing testbeds', () => {
  test('differences name each changed field', () => {
    const a = testbedOf(bareMetal());
    const b = testbedOf(tunedBareMetal());
    assert.equal(sameTestbed(a, b), false);
    const diffs = testbedDifferences(a, b);
    assert.ok(diffs.includes('governor: "powersave" → "performance"'), diffs.join('; '));
    assert.ok(diffs.includes('turbo: true → false'));
    assert.ok(diffs.includes('smt: true → false'));
    assert.deepEqual(testbedDifferences(a, a), []);
  });
  test('a side without a testbed is never the same', () => {
    const a = testbedOf(bareMetal());
    assert.equal(sameTestbed(a, undefined), false);
    assert.equal(sameTestbed(undefined, undefined), false);
    assert.deepEqual(testbedDifferences(undefined, a), ['baseline side records no testbed']);
  });
});
