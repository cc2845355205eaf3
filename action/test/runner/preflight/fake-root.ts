import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Files of a fake /sys and /proc tree: absolute kernel path → content. */
export type Tree = Record<string, string>;

/** A bare-metal Intel machine as the kernel shows it: 4 CPUs (2 cores × 2 threads), in the state a fresh desktop install leaves it. */
export function bareMetal(overrides: Tree = {}): Tree {
  const tree: Tree = {
    '/proc/cpuinfo': [0, 1, 2, 3]
      .map((n) => `processor\t: ${n}\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz\n`)
      .join('\n'),
    '/proc/sys/kernel/osrelease': '6.8.0-45-generic',
    '/proc/sys/kernel/arch': 'x86_64',
    '/proc/cmdline': 'BOOT_IMAGE=/vmlinuz-6.8.0-45-generic root=UUID=1234 ro quiet splash',
    '/proc/loadavg': '0.12 0.20 0.18 1/500 4242',
    '/proc/meminfo': 'MemTotal:       32657412 kB\nMemFree:        20000000 kB\nSwapTotal:       2097148 kB\nSwapFree:        2097148 kB\n',
    '/proc/sys/kernel/randomize_va_space': '2',
    '/proc/sys/kernel/perf_event_paranoid': '4',
    '/proc/sys/kernel/perf_event_max_sample_rate': '100000',
    '/sys/devices/system/cpu/online': '0-3',
    '/sys/devices/system/cpu/isolated': '',
    '/sys/devices/system/cpu/smt/active': '1',
    '/sys/devices/system/cpu/smt/control': 'on',
    '/sys/devices/system/cpu/intel_pstate/no_turbo': '0',
  };
  for (const cpu of [0, 1, 2, 3]) {
    const base = `/sys/devices/system/cpu/cpu${cpu}`;
    tree[`${base}/cpufreq/scaling_governor`] = 'powersave';
    tree[`${base}/cpufreq/scaling_driver`] = 'intel_pstate';
    tree[`${base}/cpufreq/cpuinfo_min_freq`] = '800000';
    tree[`${base}/cpufreq/cpuinfo_max_freq`] = '4600000';
    tree[`${base}/cpufreq/scaling_min_freq`] = '800000';
    tree[`${base}/cpufreq/scaling_max_freq`] = '4600000';
    tree[`${base}/topology/thread_siblings_list`] = cpu % 2 === 0 ? '0,2' : '1,3';
    tree[`${base}/thermal_throttle/core_throttle_count`] = '0';
    tree[`${base}/thermal_throttle/package_throttle_count`] = '0';
  }
  return { ...tree, ...overrides };
}

/** The same machine after `scripts/tune` and a boot with isolated CPUs: what preflight wants to see. */
export function tunedBareMetal(overrides: Tree = {}): Tree {
  const tree = bareMetal({
    '/proc/cmdline': 'BOOT_IMAGE=/vmlinuz root=UUID=1234 ro isolcpus=2,3 nohz_full=2,3 rcu_nocbs=2,3',
    '/sys/devices/system/cpu/isolated': '2-3',
    '/sys/devices/system/cpu/nohz_full': '2-3',
    '/sys/devices/system/cpu/intel_pstate/no_turbo': '1',
    '/sys/devices/system/cpu/smt/active': '0',
    '/sys/devices/system/cpu/smt/control': 'off',
    '/proc/sys/kernel/perf_event_paranoid': '1',
  });
  for (const cpu of [0, 1, 2, 3]) tree[`/sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_governor`] = 'performance';
  return { ...tree, ...overrides };
}

/** Writes a tree under a new temporary folder; returns its path and a cleanup. Entries whose value is undefined are left out. */
export function writeTree(tree: Partial<Tree>): { root: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'perf-gate-root-'));
  for (const [path, content] of Object.entries(tree)) {
    if (content === undefined) continue;
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${content}\n`);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A tree without some paths (a VM that lacks them). */
export function without(tree: Tree, ...patterns: RegExp[]): Tree {
  return Object.fromEntries(Object.entries(tree).filter(([p]) => !patterns.some((x) => x.test(p))));
}
