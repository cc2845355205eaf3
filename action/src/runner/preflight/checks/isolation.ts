import { bootParams } from '../boot-params.js';
import { formatCpuList, parseCpuList } from '../cpu-list.js';
import { unknownFinding, type Finding } from '../finding.js';
import { onlineCpus } from '../online-cpus.js';
import type { SystemFiles } from '../system-files.js';

const ISOLATED = '/sys/devices/system/cpu/isolated';
const NOHZ_FULL = '/sys/devices/system/cpu/nohz_full';

/** Isolated and tickless CPUs from /sys, else from the isolcpus= and nohz_full= boot parameters. */
export function readIsolation(files: SystemFiles): { isolated: number[] | null; nohzFull: number[] | null } {
  const params = bootParams(files);
  const fromSys = (path: string, param: string): number[] | null => {
    const text = files.read(path);
    const parsed = text === undefined ? undefined : parseCpuList(text);
    if (parsed) return parsed;
    if (params === undefined) return null;
    return parseCpuList(params.get(param) ?? '') ?? null;
  };
  return { isolated: fromSys(ISOLATED, 'isolcpus'), nohzFull: fromSys(NOHZ_FULL, 'nohz_full') };
}

/**
 * Isolated CPUs (isolcpus=) keep the scheduler's other tasks off the cores a
 * benchmark is pinned to; nohz_full= also stops the timer tick there. Advice:
 * it needs a reboot and a pinned benchmark (perf-gate's `pin` / taskset).
 */
export function checkIsolation(files: SystemFiles): Finding {
  const { isolated, nohzFull } = readIsolation(files);
  if (isolated === null) return unknownFinding('isolation', 'Isolated CPUs', [ISOLATED, '/proc/cmdline']);
  const observed = { isolated: formatCpuList(isolated), nohz_full: nohzFull === null ? null : formatCpuList(nohzFull) };
  if (isolated.length === 0) {
    const cpus = onlineCpus(files);
    const suggestion = cpus.length >= 2 ? formatCpuList(cpus.slice(Math.ceil(cpus.length / 2))) : null;
    return {
      check: 'isolation',
      status: 'advice',
      message: 'No isolated CPUs: the benchmark shares its cores with every other task on the machine',
      fix: suggestion
        ? `add "isolcpus=${suggestion} nohz_full=${suggestion} rcu_nocbs=${suggestion}" to GRUB_CMDLINE_LINUX in /etc/default/grub, run update-grub, reboot, and pin benchmarks with taskset -c ${suggestion}`
        : 'a single-CPU machine cannot isolate a CPU for benchmarks',
      observed,
    };
  }
  const ticking = nohzFull === null ? isolated : isolated.filter((c) => !nohzFull.includes(c));
  if (ticking.length > 0) {
    const list = formatCpuList(ticking);
    return {
      check: 'isolation',
      status: 'advice',
      message: `CPUs ${formatCpuList(isolated)} are isolated, but ${list} still take the timer tick (no nohz_full)`,
      fix: `add "nohz_full=${list} rcu_nocbs=${list}" to the kernel command line and reboot`,
      observed,
    };
  }
  return { check: 'isolation', status: 'ok', message: `CPUs ${formatCpuList(isolated)} are isolated and tickless; pin benchmarks to them`, observed };
}
