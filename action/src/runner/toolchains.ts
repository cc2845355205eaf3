import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';

/**
 * Which toolchains a run's suites use, and their versions: a new compiler is
 * the commonest cause of a step that no commit explains. Detected from the
 * words of the suites' build and run commands (cargo means rustc and cargo,
 * mvn means java and mvn, …), plus the `toolchain:` list of perf-gate.yml for
 * anything the words do not show.
 */

/** A tool perf-gate knows: the command that prints its version (java prints to stderr; both streams are read). */
const VERSION_COMMANDS: Readonly<Record<string, string>> = {
  cc: 'cc --version',
  'c++': 'c++ --version',
  gcc: 'gcc --version',
  clang: 'clang --version',
  rustc: 'rustc --version',
  cargo: 'cargo --version',
  go: 'go version',
  java: 'java -version',
  mvn: 'mvn --version',
  node: 'node --version',
  python: 'python3 --version',
  swift: 'swift --version',
  dotnet: 'dotnet --version',
  hyperfine: 'hyperfine --version',
  valgrind: 'valgrind --version',
  perf: 'perf --version',
  // Load generators whose version the run's words can show (vegeta and hey built by `go install` print none).
  oha: 'oha --version',
  h2load: 'h2load --version',
  ab: 'ab -V',
};

/** A word of a command → the tools it implies. */
const IMPLIED: Readonly<Record<string, readonly string[]>> = {
  cargo: ['rustc', 'cargo'],
  rustc: ['rustc'],
  go: ['go'],
  java: ['java'],
  javac: ['java'],
  mvn: ['java', 'mvn'],
  mvnw: ['java', 'mvn'],
  gradle: ['java'],
  gradlew: ['java'],
  node: ['node'],
  npm: ['node'],
  npx: ['node'],
  yarn: ['node'],
  pnpm: ['node'],
  tsx: ['node'],
  python: ['python'],
  python3: ['python'],
  pytest: ['python'],
  uv: ['python'],
  poetry: ['python'],
  cc: ['cc'],
  gcc: ['gcc'],
  make: ['cc'],
  cmake: ['cc', 'c++'],
  'c++': ['c++'],
  'g++': ['c++'],
  clang: ['clang'],
  'clang++': ['clang'],
  swift: ['swift'],
  dotnet: ['dotnet'],
  hyperfine: ['hyperfine'],
  valgrind: ['valgrind'],
  perf: ['perf'],
  oha: ['oha'],
  h2load: ['h2load'],
  ab: ['ab'],
};

/** The tools a command line implies, in the order its words name them. */
export function toolsOfCommand(command: string): string[] {
  const tools: string[] = [];
  for (const word of command.split(/[\s;&|()<>`$"'=]+/)) {
    for (const tool of IMPLIED[basename(word)] ?? []) if (!tools.includes(tool)) tools.push(tool);
  }
  return tools;
}

/** One tool to ask for its version: its name in the environment, the command, and where and with what to run it. */
export interface ToolchainProbe {
  name: string;
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * An entry of perf-gate.yml's `toolchain:` list as a probe: a known name
 * ("rustc"), any other name ("protoc": `protoc --version`), or a whole
 * command ("zig version", named by its first word).
 */
export function configuredProbe(entry: string, cwd: string, env: NodeJS.ProcessEnv): ToolchainProbe {
  const trimmed = entry.trim();
  if (/\s/.test(trimmed)) return { name: trimmed.split(/\s+/)[0]!, command: trimmed, cwd, env };
  return { name: trimmed, command: VERSION_COMMANDS[trimmed] ?? `${trimmed} --version`, cwd, env };
}

/** The probe of a tool perf-gate knows (toolsOfCommand's names). */
export function knownProbe(tool: string, cwd: string, env: NodeJS.ProcessEnv): ToolchainProbe {
  return { name: tool, command: VERSION_COMMANDS[tool] ?? `${tool} --version`, cwd, env };
}

/** How long one version command may take: a wrapper that downloads a toolchain (mvnw, rustup) must not hold the run up. */
const VERSION_TIMEOUT_MS = 15_000;

/**
 * The first non-empty line a probe prints (stdout, else stderr), or null when
 * the tool is missing, fails or times out. Run in the suite's folder and
 * environment: a rust-toolchain.toml or .nvmrc there picks the version.
 */
export function probeVersion(probe: ToolchainProbe): string | null {
  const result = spawnSync('sh', ['-c', probe.command], {
    cwd: probe.cwd,
    env: probe.env,
    encoding: 'utf8',
    timeout: VERSION_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1024 * 1024,
  });
  if (result.error || result.status !== 0) return null;
  const line = `${result.stdout}\n${result.stderr}`
    .split(/\r?\n/)
    .map((l) => l.replace(/\u001b\[[0-9;]*m/g, '').trim())
    .find((l) => l !== '');
  return line === undefined ? null : line.slice(0, 300);
}
