import { relative, sep } from 'node:path';
import type { SuiteConfig } from '../config/perf-gate-config.js';
import { boundedEnvironment, type Environment } from '../model/index.js';
import { readKernel } from './preflight/checks/kernel.js';
import type { SystemFiles } from './preflight/system-files.js';
import { lockfileHashes } from './lockfiles.js';
import { configuredProbe, knownProbe, probeVersion, toolsOfCommand, type ToolchainProbe } from './toolchains.js';

/**
 * Reads the environment of a run (model/environment.ts) before its suites
 * build: the kernel and microcode from /proc, the toolchains the suites call,
 * the build flags they run with, and the lockfiles of the checkout. Read per
 * checkout: an A/B run's base worktree has its own lockfiles.
 */

/** Build-flag variables: each changes the code a compiler or runtime produces. */
export const FLAG_VARIABLES = [
  'CFLAGS',
  'CXXFLAGS',
  'CPPFLAGS',
  'LDFLAGS',
  'RUSTFLAGS',
  'CARGO_PROFILE_BENCH_DEBUG',
  'GOFLAGS',
  'GOAMD64',
  'JAVA_TOOL_OPTIONS',
  'NODE_OPTIONS',
] as const;

export interface EnvironmentRequest {
  files: SystemFiles;
  /** The checkout's folder of perf-gate.yml: lockfiles are listed from here. */
  dir: string;
  /** The folder the suites' workdirs are relative to in the config (the head checkout's `dir`); default `dir`. */
  configDir?: string;
  suites: readonly SuiteConfig[];
  /** perf-gate.yml's `toolchain:` list. */
  toolchain: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Asks a tool for its version (injected in tests). */
  probe?(probe: ToolchainProbe): string | null;
}

/** The CPU microcode revision of the first CPU /proc/cpuinfo lists, or null (a VM often hides it). */
export function readMicrocode(files: SystemFiles): string | null {
  const m = /^microcode\s*:\s*(\S+)/m.exec(files.read('/proc/cpuinfo') ?? '');
  return m ? m[1]! : null;
}

/** A suite's workdir in checkout `dir` (the config names it under `configDir`). */
function workdirIn(suite: SuiteConfig, dir: string, configDir: string): string {
  const rel = relative(configDir, suite.workdir);
  return rel === '' ? dir : `${dir}${sep}${rel}`;
}

/** Every command a suite runs: its build, its run line, and each of its `commands:`. */
function commandsOf(suite: SuiteConfig): string[] {
  const counters = suite.measure.counts ? [suite.counter === 'perf' ? 'perf' : 'valgrind'] : [];
  return [suite.build ?? '', suite.run, ...(suite.commands ?? []).map((c) => c.command), ...counters];
}

/** Each build-flag variable the run sees: the runner's as `NAME`, a suite's own `env:` value as `suite:NAME`. */
export function buildFlags(suites: readonly SuiteConfig[], env: NodeJS.ProcessEnv): Record<string, string> {
  const flags: Record<string, string> = {};
  for (const name of FLAG_VARIABLES) if (env[name] !== undefined && env[name] !== '') flags[name] = env[name];
  for (const suite of suites) {
    for (const name of FLAG_VARIABLES) if (suite.env[name] !== undefined) flags[`${suite.name}:${name}`] = suite.env[name];
  }
  return flags;
}

/** The toolchains of the suites and the config's list, each asked once in the first suite's folder that calls it. */
function toolchains(request: EnvironmentRequest, configDir: string): Record<string, string> {
  const probes = new Map<string, ToolchainProbe>();
  for (const suite of request.suites) {
    const cwd = workdirIn(suite, request.dir, configDir);
    const env = { ...request.env, ...suite.env };
    for (const tool of commandsOf(suite).flatMap(toolsOfCommand)) if (!probes.has(tool)) probes.set(tool, knownProbe(tool, cwd, env));
  }
  for (const entry of request.toolchain) {
    const probe = configuredProbe(entry, request.dir, request.env);
    probes.set(probe.name, probe);
  }
  const ask = request.probe ?? probeVersion;
  const versions: Record<string, string> = {};
  for (const [name, probe] of [...probes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const version = ask(probe);
    if (version !== null) versions[name] = version;
  }
  return versions;
}

/** The environment of the run about to be measured in checkout `request.dir`. Empty parts are left out. */
export function readEnvironment(request: EnvironmentRequest): Environment {
  const configDir = request.configDir ?? request.dir;
  const kernel = readKernel(request.files);
  const microcode = readMicrocode(request.files);
  const environment: Environment = {
    ...(kernel !== null ? { kernel } : {}),
    ...(microcode !== null ? { microcode } : {}),
    toolchains: toolchains(request, configDir),
    flags: buildFlags(request.suites, request.env),
    lockfiles: lockfileHashes(request.dir),
  };
  for (const key of ['toolchains', 'flags', 'lockfiles'] as const) {
    if (Object.keys(environment[key]!).length === 0) delete environment[key];
  }
  return boundedEnvironment(environment);
}
