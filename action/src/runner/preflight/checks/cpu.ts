import type { Finding } from '../finding.js';
import { onlineCpus } from '../online-cpus.js';
import type { SystemFiles } from '../system-files.js';

/** The CPU model as /proc/cpuinfo names it ("model name" on x86, "Hardware"/"Model" elsewhere). */
export function readCpuModel(files: SystemFiles): string | null {
  const cpuinfo = files.read('/proc/cpuinfo');
  if (cpuinfo === undefined) return null;
  for (const key of ['model name', 'Hardware', 'Model', 'cpu model', 'cpu']) {
    const m = new RegExp(`^${key}\\s*:\\s*(.+)$`, 'm').exec(cpuinfo);
    if (m) return m[1]!.replace(/\s+/g, ' ').trim();
  }
  return null;
}

const FREQ = ['cpuinfo_min_freq', 'cpuinfo_max_freq', 'scaling_min_freq', 'scaling_max_freq'] as const;

/**
 * CPU model, online CPU count and frequency limits (kHz, CPU 0). A
 * scaling_max_freq below the hardware maximum is a cap someone set, which
 * makes this runner slower than its twins.
 */
export function checkCpu(files: SystemFiles): Finding {
  const model = readCpuModel(files);
  const cpus = onlineCpus(files).length;
  const freq: Partial<Record<(typeof FREQ)[number], number>> = {};
  const unreadable: string[] = [];
  if (model === null) unreadable.push('/proc/cpuinfo');
  for (const name of FREQ) {
    const path = `/sys/devices/system/cpu/cpu0/cpufreq/${name}`;
    const value = Number(files.read(path) ?? NaN);
    if (Number.isFinite(value)) freq[name] = value;
    else unreadable.push(path);
  }
  const observed = { model, cpus, ...freq };
  const mhz = (khz: number): string => `${Math.round(khz / 1000)} MHz`;
  const limits =
    freq.scaling_min_freq !== undefined && freq.scaling_max_freq !== undefined
      ? `, frequency ${mhz(freq.scaling_min_freq)}–${mhz(freq.scaling_max_freq)}`
      : ', frequency limits unknown';
  const base = `CPU ${model ?? 'model unknown'}, ${cpus} online CPU${cpus === 1 ? '' : 's'}${limits}`;
  const unread = unreadable.length > 0 ? { unreadable } : {};
  const hw = freq.cpuinfo_max_freq;
  const cap = freq.scaling_max_freq;
  if (hw !== undefined && cap !== undefined && cap < hw) {
    return {
      check: 'cpu',
      status: 'advice',
      message: `${base}: the maximum is capped below the hardware's ${mhz(hw)}`,
      fix: `cat /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_max_freq`,
      observed,
      ...unread,
    };
  }
  return { check: 'cpu', status: 'info', message: base, observed, ...unread };
}
