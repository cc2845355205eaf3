import { unknownFinding, type Finding } from '../finding.js';
import type { SystemFiles } from '../system-files.js';

const MEMINFO = '/proc/meminfo';

/** A /proc/meminfo field in bytes (the file says kB and means KiB), or undefined. */
export function meminfoBytes(text: string, field: string): number | undefined {
  const m = new RegExp(`^${field}:\\s*(\\d+)\\s*kB`, 'm').exec(text);
  return m ? Number(m[1]) * 1024 : undefined;
}

/**
 * Swap in use: pages of the benchmark or its tools may be on disk, and the
 * first touch of each costs a disk read, unevenly from run to run.
 */
export function checkSwap(files: SystemFiles): Finding {
  const text = files.read(MEMINFO);
  const total = text === undefined ? undefined : meminfoBytes(text, 'SwapTotal');
  const free = text === undefined ? undefined : meminfoBytes(text, 'SwapFree');
  if (total === undefined || free === undefined) return unknownFinding('swap', 'Swap usage', [MEMINFO]);
  const used = Math.max(0, total - free);
  const observed = { swapTotal: total, swapUsed: used };
  if (total === 0) return { check: 'swap', status: 'ok', message: 'No swap configured', observed };
  if (used === 0) return { check: 'swap', status: 'ok', message: 'Swap is configured but unused', observed };
  return {
    check: 'swap',
    status: 'warn',
    message: `${(used / 2 ** 20).toFixed(1)} MiB of swap in use: touching swapped-out pages costs disk reads, unevenly between runs`,
    fix: 'sudo swapoff -a && sudo swapon -a   # needs that much free RAM; or free memory and lower vm.swappiness',
    observed,
  };
}
