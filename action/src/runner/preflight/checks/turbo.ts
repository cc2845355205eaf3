import { unknownFinding, type Finding } from '../finding.js';
import type { SystemFiles } from '../system-files.js';

const NO_TURBO = '/sys/devices/system/cpu/intel_pstate/no_turbo';
const BOOST = '/sys/devices/system/cpu/cpufreq/boost';

/**
 * Whether turbo/boost is on, from intel_pstate's no_turbo, the generic
 * cpufreq boost switch, or the per-policy boost of amd-pstate. Turbo
 * frequencies depend on temperature and on how many cores are busy, so the same
 * program runs faster when the machine is cool and idle: timings drift with
 * the room and the neighbours.
 * Returns the finding and, for the testbed, true/false/null (unknown).
 */
export function readTurbo(files: SystemFiles): { turbo: boolean | null; source: string | null } {
  const noTurbo = files.read(NO_TURBO);
  if (noTurbo === '0' || noTurbo === '1') return { turbo: noTurbo === '0', source: NO_TURBO };
  const boost = files.read(BOOST);
  if (boost === '0' || boost === '1') return { turbo: boost === '1', source: BOOST };
  const policies = (files.list('/sys/devices/system/cpu/cpufreq') ?? []).filter((p) => /^policy\d+$/.test(p));
  const perPolicy = policies.map((p) => files.read(`/sys/devices/system/cpu/cpufreq/${p}/boost`)).filter((v) => v === '0' || v === '1');
  if (perPolicy.length > 0) return { turbo: perPolicy.includes('1'), source: '/sys/devices/system/cpu/cpufreq/policy*/boost' };
  return { turbo: null, source: null };
}

export function checkTurbo(files: SystemFiles): Finding {
  const { turbo, source } = readTurbo(files);
  if (turbo === null || source === null) return unknownFinding('turbo', 'Turbo/boost', [NO_TURBO, BOOST]);
  const observed = { turbo, source };
  if (!turbo) return { check: 'turbo', status: 'ok', message: `Turbo/boost is off (${source})`, observed };
  const fix = source === NO_TURBO ? `echo 1 | sudo tee ${NO_TURBO}` : `echo 0 | sudo tee ${source}`;
  return {
    check: 'turbo',
    status: 'warn',
    message: `Turbo/boost is on (${source}): the clock depends on temperature and on how many cores are busy, so timings drift`,
    fix: `${fix}   # or: sudo scripts/tune`,
    observed,
  };
}
