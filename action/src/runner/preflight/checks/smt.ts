import { unknownFinding, type Finding } from '../finding.js';
import { onlineCpus } from '../online-cpus.js';
import type { SystemFiles } from '../system-files.js';

const ACTIVE = '/sys/devices/system/cpu/smt/active';
const CONTROL = '/sys/devices/system/cpu/smt/control';

/**
 * Whether simultaneous multithreading (hyper-threading) is active: from
 * smt/active, else from whether any CPU has a thread sibling.
 */
export function readSmt(files: SystemFiles): boolean | null {
  const active = files.read(ACTIVE);
  if (active === '0' || active === '1') return active === '1';
  const control = files.read(CONTROL);
  if (control === 'notsupported' || control === 'off' || control === 'forceoff') return false;
  const cpus = onlineCpus(files);
  let seen = false;
  for (const cpu of cpus) {
    const siblings = files.read(`/sys/devices/system/cpu/cpu${cpu}/topology/thread_siblings_list`);
    if (siblings === undefined) continue;
    seen = true;
    if (/[-,]/.test(siblings)) return true;
  }
  return seen ? false : null;
}

/**
 * SMT: two hardware threads share one core's execution units, so a benchmark
 * runs slower whenever its sibling thread is busy. Advice, not a warning: on a
 * runner that runs one job at a time, pinning to one thread per core is enough.
 */
export function checkSmt(files: SystemFiles): Finding {
  const smt = readSmt(files);
  if (smt === null) return unknownFinding('smt', 'SMT (hyper-threading)', [ACTIVE, '/sys/devices/system/cpu/cpu*/topology/thread_siblings_list']);
  const observed = { smt, control: files.read(CONTROL) ?? null };
  if (!smt) return { check: 'smt', status: 'ok', message: 'SMT (hyper-threading) is off or not supported', observed };
  return {
    check: 'smt',
    status: 'advice',
    message: 'SMT (hyper-threading) is on: a busy sibling thread slows the benchmark down; pin benchmarks to one thread per core or turn SMT off',
    fix: `echo off | sudo tee ${CONTROL}   # until reboot; or boot with nosmt`,
    observed,
  };
}
