/**
 * runner/preflight owns checking that a machine can produce timings worth
 * gating on: it reads /sys and /proc (through an injected root), runs a short
 * noise probe, and returns findings with fixes. It never changes the machine
 * (scripts/tune does, as root, on request) and never decides a verdict.
 */
import type { Testbed } from '../../model/index.js';
import { readTestbed } from '../testbed.js';
import { checkAslr } from './checks/aslr.js';
import { checkCpu } from './checks/cpu.js';
import { checkGovernor } from './checks/governor.js';
import { checkIsolation } from './checks/isolation.js';
import { checkKernel } from './checks/kernel.js';
import { checkLoad } from './checks/load.js';
import { checkPerfEvents } from './checks/perf-events.js';
import { checkProfiler, type ProfilerProbe } from './checks/profiler.js';
import { checkSmt } from './checks/smt.js';
import { checkSwap } from './checks/swap.js';
import { checkThrottle, readThrottleCounters, throttleRise } from './checks/throttle.js';
import { checkTurbo } from './checks/turbo.js';
import type { PerfCounterProbe } from '../perf-tool.js';
import type { Finding, FindingStatus, PreflightLevel } from './finding.js';
import { checkProbe, monotonicMs, runNoiseProbe, type Clock, type ProbeOptions, type ProbeResult } from './noise-probe.js';
import { DEFAULT_PREFLIGHT_OPTIONS, type PreflightOptions } from './options.js';
import type { SystemFiles } from './system-files.js';

export type { Finding, FindingStatus, PreflightLevel } from './finding.js';
export { PREFLIGHT_LEVELS } from './finding.js';
export { DEFAULT_PREFLIGHT_OPTIONS, type PreflightOptions } from './options.js';
export { DEFAULT_PROBE_OPTIONS, type ProbeOptions, type ProbeResult } from './noise-probe.js';
export { systemFiles, type SystemFiles } from './system-files.js';
export { readThrottleCounters, throttleRise, type ThrottleCounters } from './checks/throttle.js';

export const PREFLIGHT_SCHEMA = 'perf-gate/preflight@1';

export interface PreflightReport {
  schema: typeof PREFLIGHT_SCHEMA;
  level: PreflightLevel;
  /** The root /sys and /proc were read under ("/" on a real run). */
  root: string;
  findings: Finding[];
  /** The noise probe's figures, or null when it was not run. */
  probe: ProbeResult | null;
  testbed: Testbed | null;
  /** How many findings have each status. */
  counts: Record<FindingStatus, number>;
  /** True when the level is strict and some finding is `warn`: the job must fail. */
  fails: boolean;
}

export interface PreflightRun {
  files: SystemFiles;
  level: PreflightLevel;
  options?: Partial<PreflightOptions>;
  /** Probe bounds, or false to skip the probe. */
  probe: ProbeOptions | false;
  /** The runner's name for the testbed (e.g. $RUNNER_NAME). */
  runner?: string;
  clock?: Clock;
  /** What perf counted when asked (perf-tool.ts's probePerfCounters), null when perf is missing; omitted, perf is not asked. */
  perfCounters?: PerfCounterProbe | null;
  /** What the profilers answered (runner/profile/record.ts); omitted, they are not asked. */
  profiler?: ProfilerProbe;
}

/**
 * Runs every check (nothing at level `off`). Throttle counters are read before
 * and after the noise probe, so throttling while the probe ran is reported as
 * a rise; the runner uses readThrottleCounters/throttleRise the same way
 * around a whole run.
 */
export function runPreflight(run: PreflightRun): PreflightReport {
  const options: PreflightOptions = { ...DEFAULT_PREFLIGHT_OPTIONS, ...run.options };
  const { files } = run;
  if (run.level === 'off') return report(run, [], null, null);
  const before = readThrottleCounters(files);
  const findings: Finding[] = [
    checkCpu(files),
    checkKernel(files),
    checkGovernor(files),
    checkTurbo(files),
    checkSmt(files),
    checkIsolation(files),
    checkLoad(files, options),
    checkSwap(files),
    checkAslr(files, options),
    checkPerfEvents(files, run.perfCounters),
    ...(run.profiler ? [checkProfiler(run.profiler)] : []),
  ];
  let probe: ProbeResult | null = null;
  if (run.probe !== false) {
    probe = runNoiseProbe(run.probe, run.clock ?? monotonicMs);
    findings.push(checkProbe(probe, options));
    const rise = throttleRise(before, readThrottleCounters(files), 'the noise probe');
    findings.push(rise.status === 'warn' || before === undefined ? rise : checkThrottle(before));
  } else {
    findings.push(checkThrottle(before));
  }
  return report(run, findings, probe, readTestbed(files, run.runner));
}

function report(run: PreflightRun, findings: Finding[], probe: ProbeResult | null, testbed: Testbed | null): PreflightReport {
  const counts: Record<FindingStatus, number> = { ok: 0, info: 0, advice: 0, warn: 0, unknown: 0 };
  for (const f of findings) counts[f.status]++;
  return {
    schema: PREFLIGHT_SCHEMA,
    level: run.level,
    root: run.files.root,
    findings,
    probe,
    testbed,
    counts,
    fails: run.level === 'strict' && counts.warn > 0,
  };
}
