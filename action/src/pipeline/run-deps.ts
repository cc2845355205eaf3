/**
 * The outside world a measuring run touches: processes, the machine's
 * testbed, its throttle counters and its preflight. Entry points build the real one; tests
 * inject a mock measurement source (test/support/mock-spawner.ts).
 */
import { readThrottleCounters, systemFiles, type PreflightLevel, type PreflightReport, type ThrottleCounters } from '../runner/preflight/index.js';
import { processSpawner, type Spawner } from '../runner/spawn.js';
import { readTestbed } from '../runner/testbed.js';
import { readEnvironment, type EnvironmentRequest } from '../runner/environment.js';
import type { Environment, Testbed } from '../model/index.js';
import { checkRunner } from './preflight.js';

export { withInterruptCleanup } from '../runner/interrupt.js';
export type { Spawner } from '../runner/spawn.js';

/** Everything a run needs from outside; the command builds it, tests inject their own. */
export interface RunDeps {
  spawner: Spawner;
  /** The machine's testbed, stored in the ResultSets (injected in tests). */
  testbed(env: NodeJS.ProcessEnv): Testbed | undefined;
  /** Thermal-throttle counters, read before and after the run (absent: not checked). */
  throttle?(): ThrottleCounters | undefined;
  /** The kernel, microcode, toolchains, flags and lockfiles of a checkout, read before it builds (absent: not recorded). */
  environment?(request: Omit<EnvironmentRequest, 'files'>): Environment;
  /** Is this machine fit to measure on (RunPlan.preflight)? Absent: pipeline/preflight.ts's checkRunner, on this machine. */
  preflight?(level: Exclude<PreflightLevel, 'off'>, runner: string | undefined, env: NodeJS.ProcessEnv): PreflightReport;
}

/** The real outside world: processes, the machine's testbed and throttle counters. */
export function defaultDeps(): RunDeps {
  return {
    spawner: processSpawner(),
    testbed: (env) => readTestbed(systemFiles('/'), env.RUNNER_NAME),
    throttle: () => readThrottleCounters(systemFiles('/')),
    environment: (request) => readEnvironment({ ...request, files: systemFiles('/') }),
    preflight: checkRunner,
  };
}

/** The outside world of one run: one shape for every face and step. */
export interface RunContext {
  env: NodeJS.ProcessEnv;
  write(text: string): void;
  /** A warning the face shows its own way (the action: an annotation); default a line through `write`. */
  warn?(text: string): void;
  now(): Date;
  deps: RunDeps;
  /** Run if the process is interrupted (the A/B worktree). */
  cleanups: Array<() => void>;
  /** The face runs in GitHub Actions: each suite's output goes in a log group (`::group::`); else under a plain header. */
  groups?: boolean;
  /**
   * What the face publishes: the folder (the action's output-dir, which the
   * workflow uploads as its artifact), whose paths the report's file names
   * are relative to, and where it can be downloaded (the workflow run's
   * artifacts). Default: the run's output folder, no link.
   */
  published?: { dir: string; artifactsUrl?: string };
}
