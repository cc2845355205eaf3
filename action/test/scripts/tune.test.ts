import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPreflight, systemFiles } from '../../src/runner/preflight/index.js';
import { bareMetal, without, writeTree, type Tree } from '../runner/preflight/fake-root.js';
import { requireTool } from '../support/tools.js';

const TUNE = fileURLToPath(new URL('../../../scripts/tune', import.meta.url));
const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

function fakeRoot(tree: Tree): string {
  const { root, cleanup } = writeTree(tree);
  cleanups.push(cleanup);
  return root;
}

function tune(root: string, ...args: string[]) {
  const result = spawnSync('bash', [TUNE, ...args], { env: { PATH: process.env.PATH, PERF_GATE_SYSFS_ROOT: root }, encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

/** Every file under root with its exact bytes. */
function snapshot(root: string, dir = root): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return Object.entries(snapshot(root, path));
      return [[path.slice(root.length), readFileSync(path, 'utf8')]];
    }),
  );
}

const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8');

describe('scripts/tune', () => {
  test('is shellcheck-clean', () => {
    requireTool('shellcheck');
    const result = spawnSync('shellcheck', ['--severity=style', TUNE], { encoding: 'utf8' });
    assert.ok(!result.error, 'shellcheck is not installed: run npm run setup');
    assert.equal(result.status, 0, result.stdout);
  });

  test('applies performance governor, turbo off, ASLR off and sample rate 1, then restores every file exactly', () => {
    const root = fakeRoot(bareMetal());
    const before = snapshot(root);
    const applied = tune(root, '--aslr', 'off');
    assert.equal(applied.status, 0, applied.out);
    for (const cpu of [0, 1, 2, 3]) assert.equal(read(root, `/sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_governor`), 'performance\n');
    assert.equal(read(root, '/sys/devices/system/cpu/intel_pstate/no_turbo'), '1\n');
    assert.equal(read(root, '/proc/sys/kernel/randomize_va_space'), '0\n');
    assert.equal(read(root, '/proc/sys/kernel/perf_event_max_sample_rate'), '1\n');
    const state = read(root, '/var/lib/perf-gate/tune.state');
    assert.match(state, /^\/sys\/devices\/system\/cpu\/cpu0\/cpufreq\/scaling_governor\tpowersave$/m);
    assert.match(state, /^\/proc\/sys\/kernel\/perf_event_max_sample_rate\t100000$/m);
    assert.match(applied.out, /7 setting\(s\) changed/);

    // What preflight checks is now in order.
    const report = runPreflight({ files: systemFiles(root), level: 'strict', probe: false, options: { aslr: 'off' } });
    for (const check of ['governor', 'turbo', 'aslr']) assert.equal(report.findings.find((f) => f.check === check)?.status, 'ok', check);

    const again = tune(root);
    assert.equal(again.status, 1, 'a second tune would record tuned values as the previous ones');
    assert.match(again.out, /already tuned/);

    const restored = tune(root, '--restore');
    assert.equal(restored.status, 0, restored.out);
    assert.deepEqual(snapshot(root), before, 'every file is back to its exact previous content, and the state file is gone');
    const twice = tune(root, '--restore');
    assert.equal(twice.status, 1);
    assert.match(twice.out, /nothing to restore/);
  });

  test('switches acpi-cpufreq boost off when there is no intel_pstate, and keeps ASLR by default', () => {
    const root = fakeRoot(without(bareMetal({ '/sys/devices/system/cpu/cpufreq/boost': '1' }), /intel_pstate/));
    const before = snapshot(root);
    assert.equal(tune(root).status, 0);
    assert.equal(read(root, '/sys/devices/system/cpu/cpufreq/boost'), '0\n');
    assert.equal(read(root, '/proc/sys/kernel/randomize_va_space'), '2\n');
    assert.equal(tune(root, '--restore').status, 0);
    assert.deepEqual(snapshot(root), before);
  });

  test('skips a CPU whose driver offers no performance governor', () => {
    const root = fakeRoot(bareMetal({ '/sys/devices/system/cpu/cpu1/cpufreq/scaling_available_governors': 'ondemand powersave' }));
    const result = tune(root);
    assert.equal(result.status, 0);
    assert.match(result.out, /cpu1\/cpufreq\/scaling_governor offers no "performance" governor/);
    assert.equal(read(root, '/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor'), 'powersave\n');
    assert.equal(read(root, '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor'), 'performance\n');
  });

  test('a dry run changes nothing and writes no state', () => {
    const root = fakeRoot(bareMetal());
    const before = snapshot(root);
    const result = tune(root, '--dry-run', '--aslr', 'off');
    assert.equal(result.status, 0);
    assert.match(result.out, /would set \/sys\/devices\/system\/cpu\/cpu0\/cpufreq\/scaling_governor: powersave -> performance/);
    assert.deepEqual(snapshot(root), before);
    assert.equal(existsSync(join(root, 'var/lib/perf-gate/tune.state')), false);
  });

  test('on a VM-like tree without cpufreq it says what it skipped', () => {
    const root = fakeRoot(without(bareMetal(), /cpufreq|intel_pstate/));
    const result = tune(root);
    assert.equal(result.status, 0);
    assert.match(result.out, /no cpufreq governors here/);
    assert.match(result.out, /no turbo\/boost switch here/);
  });

  test('--restore refuses a state file naming a path outside the tunables, and writes nothing', () => {
    for (const evil of ['/etc/passwd', '/sys/devices/system/cpu/../../../etc/passwd']) {
      // A genuine line first: it must not be restored either (the file is checked before any write).
      const root = fakeRoot({
        ...bareMetal(),
        '/etc/passwd': 'root:x:0:0::/root:/bin/bash\n',
        '/var/lib/perf-gate/tune.state': `/proc/sys/kernel/perf_event_max_sample_rate\t7\n${evil}\tevil::0:0::/:/bin/sh\n`,
      });
      const before = snapshot(root);
      const result = tune(root, '--restore');
      assert.equal(result.status, 2, result.out);
      assert.match(
        result.out,
        /refusing .*tune\.state: it names ".*etc\/passwd", which is not under \/sys\/devices\/system\/cpu\/ or \/proc\/sys\/kernel\/; nothing was restored/,
      );
      assert.deepEqual(snapshot(root), before, 'nothing written, the state file kept');
    }
  });

  test('--restore refuses a state file from PERF_GATE_TUNE_STATE that others may write or that someone else owns', () => {
    const root = fakeRoot(bareMetal());
    const state = join(root, 'tune.state');
    const rate = read(root, '/proc/sys/kernel/perf_event_max_sample_rate');
    const withState = (file = state) => {
      const r = spawnSync('bash', [TUNE, '--restore'], {
        env: { PATH: process.env.PATH, PERF_GATE_SYSFS_ROOT: root, PERF_GATE_TUNE_STATE: file },
        encoding: 'utf8',
        timeout: 30_000,
      });
      return { status: r.status, out: `${r.stdout}${r.stderr}` };
    };
    writeFileSync(state, '/proc/sys/kernel/perf_event_max_sample_rate\t7\n');
    chmodSync(state, 0o666);
    const writable = withState();
    assert.equal(writable.status, 2, writable.out);
    assert.match(writable.out, /group or others may write it \(mode 666\); nothing was restored/);
    assert.equal(read(root, '/proc/sys/kernel/perf_event_max_sample_rate'), rate);
    // Someone else's file: as root, one given to nobody (65534); otherwise root's own /etc/hostname.
    chmodSync(state, 0o644);
    const isRoot = process.getuid?.() === 0;
    if (isRoot) chownSync(state, 65534, 65534);
    const foreign = withState(isRoot ? state : '/etc/hostname');
    assert.equal(foreign.status, 2, foreign.out);
    assert.match(foreign.out, /owned by uid \d+, not by uid \d+ who runs this; nothing was restored/);
    assert.equal(read(root, '/proc/sys/kernel/perf_event_max_sample_rate'), rate);
    if (isRoot) {
      chownSync(state, 0, 0);
      const own = withState();
      assert.equal(own.status, 0, own.out);
      assert.equal(read(root, '/proc/sys/kernel/perf_event_max_sample_rate'), '7\n', 'control: a root-owned 644 state file is restored');
    }
  });

  test('rejects bad arguments with exit 2', () => {
    const root = fakeRoot({});
    assert.equal(tune(root, '--aslr', 'maybe').status, 2);
    assert.equal(tune(root, '--sample-rate', 'fast').status, 2);
    assert.equal(tune(root, '--bogus').status, 2);
  });
});
