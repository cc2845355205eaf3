import { unknownFinding, type Finding } from '../finding.js';
import { onlineCpus } from '../online-cpus.js';
import type { PreflightOptions } from '../options.js';
import type { SystemFiles } from '../system-files.js';

const LOADAVG = '/proc/loadavg';

/**
 * The 1-minute load average per online CPU. Other work on the runner competes
 * for cores, caches and memory bandwidth, and comes and goes during the run.
 */
export function checkLoad(files: SystemFiles, options: Pick<PreflightOptions, 'maxLoadPerCpu'>): Finding {
  const text = files.read(LOADAVG);
  const load1 = text === undefined ? NaN : Number(text.split(/\s+/)[0]);
  if (!Number.isFinite(load1)) return unknownFinding('load', 'Load average', [LOADAVG]);
  const cpus = Math.max(1, onlineCpus(files).length);
  const perCpu = load1 / cpus;
  const observed = { load1, cpus };
  const shown = `${load1.toFixed(2)} on ${cpus} CPU${cpus === 1 ? '' : 's'}`;
  if (perCpu <= options.maxLoadPerCpu) return { check: 'load', status: 'ok', message: `Load average ${shown}`, observed };
  return {
    check: 'load',
    status: 'warn',
    message: `Load average ${shown} (above ${options.maxLoadPerCpu} per CPU): other work competes with the benchmarks`,
    fix: 'ps -eo pid,pcpu,etime,comm --sort=-pcpu | head   # find and stop it; run one job at a time on the benchmark runner',
    observed,
  };
}
