import type { Finding } from '../finding.js';
import { onlineCpus } from '../online-cpus.js';
import type { SystemFiles } from '../system-files.js';

/** Thermal-throttle event counters summed over the online CPUs (Intel's thermal_throttle folder). */
export interface ThrottleCounters {
  core: number;
  package: number;
}

const PATTERN = '/sys/devices/system/cpu/cpu*/thermal_throttle/{core,package}_throttle_count';

/**
 * Reads the thermal-throttle counters; undefined when no CPU has them (AMD,
 * VMs, containers). The package counter is repeated on every CPU of the
 * package; summing it still rises exactly when some package throttled.
 */
export function readThrottleCounters(files: SystemFiles): ThrottleCounters | undefined {
  let found = false;
  const sum = { core: 0, package: 0 };
  for (const cpu of onlineCpus(files)) {
    for (const kind of ['core', 'package'] as const) {
      const n = Number(files.read(`/sys/devices/system/cpu/cpu${cpu}/thermal_throttle/${kind}_throttle_count`) ?? NaN);
      if (Number.isFinite(n)) {
        found = true;
        sum[kind] += n;
      }
    }
  }
  return found ? sum : undefined;
}

/** The counters before a run alone: throttling since boot is recorded, not judged. */
export function checkThrottle(counters: ThrottleCounters | undefined): Finding {
  if (!counters) return unreadableThrottle();
  const observed = { coreThrottleCount: counters.core, packageThrottleCount: counters.package };
  if (counters.core + counters.package === 0) return { check: 'throttle', status: 'ok', message: 'No thermal throttling since boot', observed };
  return {
    check: 'throttle',
    status: 'info',
    message: `Thermal throttling happened since boot (core ${counters.core}, package ${counters.package} events); a rise during the run is reported`,
    observed,
  };
}

/**
 * Compares the counters read before and after a run (or the noise probe): any
 * rise means the CPU slowed itself down while measuring, so the run's timings
 * are suspect.
 */
export function throttleRise(before: ThrottleCounters | undefined, after: ThrottleCounters | undefined, during = 'the run'): Finding {
  if (!before || !after) return unreadableThrottle();
  const core = after.core - before.core;
  const pkg = after.package - before.package;
  const observed = { coreThrottleRise: core, packageThrottleRise: pkg };
  if (core <= 0 && pkg <= 0) return { check: 'throttle', status: 'ok', message: `No thermal throttling during ${during}`, observed };
  return {
    check: 'throttle',
    status: 'warn',
    message: `The CPU throttled itself during ${during} (core +${Math.max(0, core)}, package +${Math.max(0, pkg)} events): its timings are suspect`,
    fix: 'check cooling (sensors), turn turbo off (sudo scripts/tune), and run one job at a time on the runner',
    observed,
  };
}

function unreadableThrottle(): Finding {
  return {
    check: 'throttle',
    status: 'unknown',
    message: `Thermal-throttle counters: could not read ${PATTERN} (AMD CPUs, VMs and containers have none); throttling is not detected`,
    unreadable: [PATTERN],
  };
}
