import { formatCpuList } from '../cpu-list.js';
import { unknownFinding, type Finding } from '../finding.js';
import { onlineCpus } from '../online-cpus.js';
import type { SystemFiles } from '../system-files.js';

export const GOVERNOR_FIX = 'echo performance | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor   # or: sudo scripts/tune';

/** The governor of every online CPU, grouped by governor, and the paths that could not be read. */
export function readGovernors(files: SystemFiles): { byGovernor: Map<string, number[]>; unreadable: string[] } {
  const byGovernor = new Map<string, number[]>();
  const unreadable: string[] = [];
  for (const cpu of onlineCpus(files)) {
    const path = `/sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_governor`;
    const governor = files.read(path);
    if (governor === undefined) unreadable.push(path);
    else byGovernor.set(governor, [...(byGovernor.get(governor) ?? []), cpu]);
  }
  return { byGovernor, unreadable };
}

/** One governor name, "performance+powersave" when CPUs differ, or null when unreadable (for the testbed). */
export function readGovernor(files: SystemFiles): string | null {
  const { byGovernor } = readGovernors(files);
  return byGovernor.size === 0 ? null : [...byGovernor.keys()].sort().join('+');
}

/**
 * The cpufreq governor of every online CPU. Anything but `performance` lets the
 * frequency follow the load, so a benchmark's first milliseconds run slower
 * than its last and two runs differ by how quickly the clock ramped up.
 */
export function checkGovernor(files: SystemFiles): Finding {
  const { byGovernor, unreadable } = readGovernors(files);
  if (byGovernor.size === 0) {
    return unknownFinding(
      'governor',
      'CPU frequency governor',
      unreadable.length > 0 ? [unreadable[0]!.replace(/cpu\d+\//, 'cpu*/')] : ['/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor'],
    );
  }
  const governor = governorSummary(byGovernor);
  const driver = files.read('/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver') ?? null;
  const observed = { governor, driver };
  const partial = unreadable.length > 0 ? { unreadable } : {};
  if (byGovernor.size === 1 && byGovernor.has('performance')) {
    return { check: 'governor', status: 'ok', message: 'CPU frequency governor is "performance" on every CPU', observed, ...partial };
  }
  return {
    check: 'governor',
    status: 'warn',
    message: `CPU frequency governor is ${governor}, not "performance": the clock follows the load, so timings depend on how fast it ramps up`,
    fix: GOVERNOR_FIX,
    observed,
    ...partial,
  };
}

/** "performance" when uniform, else "powersave (0-3), performance (4-7)". */
export function governorSummary(byGovernor: ReadonlyMap<string, number[]>): string {
  if (byGovernor.size === 1) return `"${[...byGovernor.keys()][0]!}"`;
  return [...byGovernor].map(([g, cpus]) => `"${g}" (CPUs ${formatCpuList(cpus)})`).join(', ');
}
