import type { Finding } from '../finding.js';

/** What the profile step found out about this machine: why perf cannot sample (null: it can), and whether valgrind runs. */
export interface ProfilerProbe {
  perf: string | null;
  callgrind: boolean;
}

/**
 * Which profiler a suite's `profile: auto` gets here: perf record where it
 * samples (on a VM without a PMU it samples the cpu-clock software event,
 * which still needs no hardware counters), else callgrind. Said before the
 * run, so a team knows what a confirmed regression's flame graph will be.
 */
export function checkProfiler(probe: ProfilerProbe): Finding {
  const observed = { perf_samples: probe.perf === null, callgrind: probe.callgrind };
  if (probe.perf === null)
    return { check: 'profiler', status: 'info', message: 'profile: auto uses perf record here (it samples; callgrind is the fallback)', observed };
  if (probe.callgrind)
    return {
      check: 'profiler',
      status: 'info',
      message: `profile: auto uses callgrind here (${probe.perf}): exact instruction counts, tens of times slower`,
      observed,
    };
  return {
    check: 'profiler',
    status: 'advice',
    message: `no profiler runs here (${probe.perf}; valgrind does not run): suites with profile: get no differential profile`,
    fix: 'apt-get install valgrind',
    observed,
  };
}
