import { unknownFinding, type Finding } from '../finding.js';
import type { PreflightOptions } from '../options.js';
import type { SystemFiles } from '../system-files.js';

const PATH = '/proc/sys/kernel/randomize_va_space';
const MEANING: Record<string, string> = { '0': 'off', '1': 'on (partial: stack, mmap, vDSO)', '2': 'on (full)' };

/**
 * Address-space layout randomisation. With it on, each run gets a different
 * memory layout, which spreads timings a little but averages over layouts
 * (a fairer sample); with it off, runs agree more closely but one lucky or
 * unlucky layout can bias a whole comparison. Neither is wrong, so this only
 * warns when the project said which one it expects (`aslr: on|off`).
 */
export function checkAslr(files: SystemFiles, options: Pick<PreflightOptions, 'aslr'>): Finding {
  const value = files.read(PATH);
  if (value === undefined || !(value in MEANING)) return unknownFinding('aslr', 'ASLR', [PATH]);
  const on = value !== '0';
  const observed = { randomize_va_space: Number(value) };
  const message = `ASLR is ${MEANING[value]!}`;
  if (options.aslr === 'any') return { check: 'aslr', status: 'info', message, observed };
  if (options.aslr === (on ? 'on' : 'off')) return { check: 'aslr', status: 'ok', message: `${message}, as configured`, observed };
  return {
    check: 'aslr',
    status: 'warn',
    message: `${message}, but the configuration expects it ${options.aslr}`,
    fix: `sudo sysctl -w kernel.randomize_va_space=${options.aslr === 'off' ? 0 : 2}   # or: sudo scripts/tune --aslr ${options.aslr}`,
    observed,
  };
}
