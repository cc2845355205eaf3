/**
 * Phase 0 of a measuring run: is this machine fit to measure on? Runs the
 * runner's preflight checks (governor, turbo, SMT, load, a noise probe …) and
 * renders them; `perf-gate preflight` runs the same checks on their own.
 */
import { probePerfCounters } from '../runner/perf-tool.js';
import { perfCannotSample, valgrindRuns } from '../runner/profile/record.js';
import { DEFAULT_PROBE_OPTIONS, runPreflight, systemFiles, type PreflightReport, type PreflightRun } from '../runner/preflight/index.js';

export { DEFAULT_PROBE_OPTIONS, PREFLIGHT_LEVELS, type PreflightLevel, type PreflightReport } from '../runner/preflight/index.js';
export { preflightAnnotations, preflightText } from '../runner/preflight/render.js';

export interface MachineCheck {
  level: PreflightRun['level'];
  /** Read /sys and /proc under this folder ("/" on a real run; another for tests). */
  root: string;
  options?: PreflightRun['options'];
  /** Probe bounds, or false to skip the noise probe. */
  probe: PreflightRun['probe'];
  /** The runner's name for the testbed ($RUNNER_NAME). */
  runner?: string;
  /** The environment perf is asked under (PATH); the faces hand theirs down, nothing here reads process.env. */
  env: NodeJS.ProcessEnv;
}

/** Whether the checks read this machine (root "/"): only then is perf asked what it can count. */
const isThisMachine = (root: string): boolean => root === '/';

/** Runs every check at the given level (nothing at `off`). */
export function checkMachine(check: MachineCheck): PreflightReport {
  return runPreflight({
    files: systemFiles(check.root),
    level: check.level,
    ...(check.options ? { options: check.options } : {}),
    probe: check.probe,
    ...(check.runner ? { runner: check.runner } : {}),
    ...(isThisMachine(check.root)
      ? { perfCounters: probePerfCounters(check.env), profiler: { perf: perfCannotSample(check.env), callgrind: valgrindRuns(check.env) } }
      : {}),
  });
}

/** The check before a measuring run: this machine, with the default noise probe. */
export function checkRunner(level: PreflightRun['level'], runner: string | undefined, env: NodeJS.ProcessEnv): PreflightReport {
  return checkMachine({ level, root: '/', probe: DEFAULT_PROBE_OPTIONS, env, ...(runner ? { runner } : {}) });
}
