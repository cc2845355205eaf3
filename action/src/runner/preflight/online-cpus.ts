import { parseCpuList } from './cpu-list.js';
import type { SystemFiles } from './system-files.js';

/**
 * The online CPU numbers: /sys/devices/system/cpu/online, else the cpuN
 * folders, else the "processor" lines of /proc/cpuinfo; [] when none of them
 * can be read.
 */
export function onlineCpus(files: SystemFiles): number[] {
  const online = files.read('/sys/devices/system/cpu/online');
  const parsed = online === undefined ? undefined : parseCpuList(online);
  if (parsed && parsed.length > 0) return parsed;
  const dirs = files.list('/sys/devices/system/cpu');
  const fromDirs = (dirs ?? [])
    .map((d) => /^cpu(\d+)$/.exec(d))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]));
  if (fromDirs.length > 0) return fromDirs.sort((a, b) => a - b);
  const cpuinfo = files.read('/proc/cpuinfo') ?? '';
  return [...cpuinfo.matchAll(/^processor\s*:\s*(\d+)/gm)].map((m) => Number(m[1]));
}
