import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { systemFiles, type SystemFiles } from '../../../src/runner/preflight/system-files.js';
import { checkGovernor } from '../../../src/runner/preflight/checks/governor.js';
import { checkTurbo } from '../../../src/runner/preflight/checks/turbo.js';
import { checkSmt } from '../../../src/runner/preflight/checks/smt.js';
import { checkIsolation } from '../../../src/runner/preflight/checks/isolation.js';
import { checkLoad } from '../../../src/runner/preflight/checks/load.js';
import { checkSwap } from '../../../src/runner/preflight/checks/swap.js';
import { checkThrottle, readThrottleCounters, throttleRise } from '../../../src/runner/preflight/checks/throttle.js';
import { checkAslr } from '../../../src/runner/preflight/checks/aslr.js';
import { checkPerfEvents } from '../../../src/runner/preflight/checks/perf-events.js';
import { checkCpu } from '../../../src/runner/preflight/checks/cpu.js';
import { checkKernel } from '../../../src/runner/preflight/checks/kernel.js';
import { parseCpuList, formatCpuList } from '../../../src/runner/preflight/cpu-list.js';
import { bareMetal, tunedBareMetal, without, writeTree, type Tree } from './fake-root.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

function files(tree: Tree): SystemFiles {
  const { root, cleanup } = writeTree(tree);
  cleanups.push(cleanup);
  return systemFiles(root);
}

describe('CPU lists', () => {
  test('parse ranges, singles and isolcpus flags, and format back compactly', () => {
    assert.deepEqual(parseCpuList('0-3,8,10-11'), [0, 1, 2, 3, 8, 10, 11]);
    assert.deepEqual(parseCpuList('domain,managed_irq,2-3'), [2, 3]);
    assert.deepEqual(parseCpuList(''), []);
    assert.equal(parseCpuList('2-x'), undefined);
    assert.equal(formatCpuList([3, 0, 1, 2, 8, 10, 11]), '0-3,8,10-11');
  });
});

describe('governor', () => {
  test('powersave on a bare-metal machine warns and gives the fix', () => {
    const f = checkGovernor(files(bareMetal()));
    assert.equal(f.status, 'warn');
    assert.match(f.message, /"powersave"/);
    assert.match(f.fix ?? '', /echo performance \| sudo tee .*scaling_governor/);
  });
  test('performance on every CPU is ok', () => {
    const f = checkGovernor(files(tunedBareMetal()));
    assert.equal(f.status, 'ok');
    assert.equal(f.observed?.governor, '"performance"');
  });
  test('a mix of governors warns and names the CPUs of each', () => {
    const f = checkGovernor(files(tunedBareMetal({ '/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor': 'powersave' })));
    assert.equal(f.status, 'warn');
    assert.match(f.message, /"performance" \(CPUs 0-2\), "powersave" \(CPUs 3\)/);
  });
  test('without cpufreq (a VM) it says what it could not read', () => {
    const f = checkGovernor(files(without(bareMetal(), /cpufreq/)));
    assert.equal(f.status, 'unknown');
    assert.deepEqual(f.unreadable, ['/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor']);
    assert.match(f.message, /could not read/);
  });
});

describe('turbo', () => {
  test('intel_pstate with no_turbo=0 is turbo on: a warning with the no_turbo fix', () => {
    const f = checkTurbo(files(bareMetal()));
    assert.equal(f.status, 'warn');
    assert.equal(f.observed?.turbo, true);
    assert.match(f.fix ?? '', /echo 1 \| sudo tee \/sys\/devices\/system\/cpu\/intel_pstate\/no_turbo/);
  });
  test('no_turbo=1 is ok', () => {
    assert.equal(checkTurbo(files(tunedBareMetal())).status, 'ok');
  });
  test('acpi-cpufreq boost=1 warns with the boost fix', () => {
    const tree = without(bareMetal({ '/sys/devices/system/cpu/cpufreq/boost': '1' }), /intel_pstate/);
    const f = checkTurbo(files(tree));
    assert.equal(f.status, 'warn');
    assert.match(f.fix ?? '', /echo 0 \| sudo tee \/sys\/devices\/system\/cpu\/cpufreq\/boost/);
  });
  test('amd-pstate per-policy boost is read when the global switches are absent', () => {
    const tree = without(
      bareMetal({ '/sys/devices/system/cpu/cpufreq/policy0/boost': '0', '/sys/devices/system/cpu/cpufreq/policy1/boost': '1' }),
      /intel_pstate/,
    );
    const f = checkTurbo(files(tree));
    assert.equal(f.status, 'warn');
    assert.equal(f.observed?.source, '/sys/devices/system/cpu/cpufreq/policy*/boost');
  });
  test('no switch at all is unknown, naming both paths', () => {
    const f = checkTurbo(files(without(bareMetal(), /intel_pstate/)));
    assert.equal(f.status, 'unknown');
    assert.equal(f.unreadable?.length, 2);
  });
});

describe('SMT', () => {
  test('active SMT is advice with the smt/control fix', () => {
    const f = checkSmt(files(bareMetal()));
    assert.equal(f.status, 'advice');
    assert.match(f.fix ?? '', /echo off \| sudo tee \/sys\/devices\/system\/cpu\/smt\/control/);
  });
  test('SMT off is ok', () => {
    assert.equal(checkSmt(files(tunedBareMetal())).status, 'ok');
  });
  test('without smt/ it falls back to thread siblings', () => {
    const f = checkSmt(files(without(bareMetal(), /\/smt\//)));
    assert.equal(f.status, 'advice');
    assert.equal(f.observed?.smt, true);
  });
});

describe('isolated CPUs', () => {
  test('none isolated is advice suggesting the upper half of the CPUs', () => {
    const f = checkIsolation(files(bareMetal()));
    assert.equal(f.status, 'advice');
    assert.match(f.fix ?? '', /isolcpus=2-3 nohz_full=2-3 rcu_nocbs=2-3/);
  });
  test('isolated and tickless CPUs are ok', () => {
    const f = checkIsolation(files(tunedBareMetal()));
    assert.equal(f.status, 'ok');
    assert.equal(f.observed?.isolated, '2-3');
  });
  test('isolcpus on the command line is read when /sys has no isolated file, and missing nohz_full is advice', () => {
    const tree = without(bareMetal({ '/proc/cmdline': 'ro quiet isolcpus=domain,managed_irq,3 -- init-arg' }), /\/isolated$/);
    const f = checkIsolation(files(tree));
    assert.equal(f.status, 'advice');
    assert.equal(f.observed?.isolated, '3');
    assert.match(f.message, /still take the timer tick/);
    assert.match(f.fix ?? '', /nohz_full=3/);
  });
});

describe('load, swap, ASLR, perf events, CPU, kernel', () => {
  test('a load above half a CPU per CPU warns; a quiet machine is ok', () => {
    assert.equal(checkLoad(files(bareMetal({ '/proc/loadavg': '3.50 1.0 0.5 2/400 99' })), { maxLoadPerCpu: 0.5 }).status, 'warn');
    assert.equal(checkLoad(files(bareMetal()), { maxLoadPerCpu: 0.5 }).status, 'ok');
  });
  test('swap in use warns with swapoff/swapon; configured but unused swap is ok', () => {
    const used = checkSwap(files(bareMetal({ '/proc/meminfo': 'MemTotal: 32657412 kB\nSwapTotal: 2097148 kB\nSwapFree: 1048572 kB\n' })));
    assert.equal(used.status, 'warn');
    assert.equal(used.observed?.swapUsed, 1048576 * 1024);
    assert.match(used.message, /1024\.0 MiB of swap in use/);
    assert.match(used.fix ?? '', /swapoff -a && sudo swapon -a/);
    assert.equal(checkSwap(files(bareMetal())).status, 'ok');
  });
  test('ASLR is only reported unless an expectation is configured', () => {
    const fs = files(bareMetal());
    assert.equal(checkAslr(fs, { aslr: 'any' }).status, 'info');
    assert.equal(checkAslr(fs, { aslr: 'on' }).status, 'ok');
    const off = checkAslr(fs, { aslr: 'off' });
    assert.equal(off.status, 'warn');
    assert.match(off.fix ?? '', /randomize_va_space=0/);
  });
  test('perf_event_paranoid 4 is advice; 1 is ok', () => {
    const strict = checkPerfEvents(files(bareMetal()));
    assert.equal(strict.status, 'advice');
    assert.match(strict.fix ?? '', /perf_event_paranoid=2/);
    assert.equal(checkPerfEvents(files(tunedBareMetal())).status, 'ok');
  });
  test('perf that is allowed to count but counts nothing (a VM without a PMU) is advice naming cachegrind', () => {
    const noPmu = checkPerfEvents(files(tunedBareMetal()), {
      counted: [],
      unavailable: { 'instructions:u': '<not supported>', 'cycles:u': '<not supported>' },
    });
    assert.equal(noPmu.status, 'advice');
    assert.match(noPmu.message, /cannot count instructions:u \(<not supported>\), cycles:u \(<not supported>\).*"counter: perf" suites fail/);
    assert.match(noPmu.fix ?? '', /counter: cachegrind/);
    assert.equal(checkPerfEvents(files(tunedBareMetal()), { counted: ['instructions:u', 'cycles:u'], unavailable: {} }).status, 'ok');
    // perf not installed: nothing to say beyond the sysctl.
    assert.equal(checkPerfEvents(files(tunedBareMetal()), null).status, 'ok');
  });
  test('CPU model and frequency limits are read; a capped maximum is advice', () => {
    const f = checkCpu(files(bareMetal()));
    assert.equal(f.status, 'info');
    assert.equal(f.observed?.model, 'Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz');
    assert.equal(f.observed?.cpuinfo_max_freq, 4600000);
    assert.match(f.message, /800 MHz–4600 MHz/);
    const capped = checkCpu(files(bareMetal({ '/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq': '2000000' })));
    assert.equal(capped.status, 'advice');
  });
  test('kernel release and mitigations are recorded', () => {
    const f = checkKernel(files(bareMetal({ '/proc/cmdline': 'ro mitigations=off' })));
    assert.equal(f.observed?.kernel, '6.8.0-45-generic');
    assert.equal(f.observed?.mitigations, 'off');
  });
});

describe('thermal throttling', () => {
  test('counters are summed over CPUs; throttling since boot is info, not a warning', () => {
    const fs = files(bareMetal({ '/sys/devices/system/cpu/cpu1/thermal_throttle/core_throttle_count': '5' }));
    const counters = readThrottleCounters(fs);
    assert.deepEqual(counters, { core: 5, package: 0 });
    assert.equal(checkThrottle(counters).status, 'info');
    assert.equal(checkThrottle({ core: 0, package: 0 }).status, 'ok');
  });
  test('a rise between before and after warns; equal counters are ok', () => {
    const before = readThrottleCounters(files(bareMetal()));
    const after = readThrottleCounters(files(bareMetal({ '/sys/devices/system/cpu/cpu2/thermal_throttle/package_throttle_count': '3' })));
    const rise = throttleRise(before, after);
    assert.equal(rise.status, 'warn');
    assert.match(rise.message, /package \+3/);
    assert.equal(throttleRise(before, before).status, 'ok');
  });
  test('without counters (AMD, VM) it is unknown and says which files', () => {
    const fs = files(without(bareMetal(), /thermal_throttle/));
    assert.equal(readThrottleCounters(fs), undefined);
    const f = throttleRise(undefined, undefined);
    assert.equal(f.status, 'unknown');
    assert.match(f.unreadable?.[0] ?? '', /thermal_throttle/);
  });
});
