/**
 * The real tools the tests run, checked before a test uses one: a missing tool
 * fails the test (never a skip) with one clear message naming the tool and the
 * command that installs it, instead of `exited with code 127`, an EPIPE from a
 * python3 that died on `import numpy`, or a TypeError on output that never came.
 *
 * Call it at the top of a test file, or of the describe block that needs the tool:
 *   requireTool('hyperfine');
 *   requirePython('numpy', 'scipy');
 */
import { AssertionError } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';

/** The README's install step (scripts/setup.sh), part of its test command. */
export const INSTALL_COMMAND = 'npm run setup';
/** The README's test command on a fresh machine; .ci/run runs exactly this line. */
export const TEST_COMMAND = 'npm ci && npm run setup && npm test';

export interface ToolCheckOptions {
  /** The environment to look in (PATH, GOPATH, CARGO_HOME); process.env by default. */
  env?: NodeJS.ProcessEnv;
}

/** The error for a missing tool: `${what} is not installed: run npm run setup …`. */
export function notInstalled(what: string, plural = false): AssertionError {
  return new AssertionError({
    message: `${what} ${plural ? 'are' : 'is'} not installed: run ${INSTALL_COMMAND} (the README's install step; as root, or with sudo for apt-get)`,
  });
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Folders `go install` and `cargo install` put tools in, which need not be on PATH. */
function toolFolders(env: NodeJS.ProcessEnv): string[] {
  const home = env['HOME'] ?? homedir();
  const gopaths = (env['GOPATH'] ?? join(home, 'go')).split(delimiter).filter(Boolean);
  return [...gopaths.map((g) => join(g, 'bin')), join(env['CARGO_HOME'] ?? join(home, '.cargo'), 'bin')];
}

/**
 * Where a tool is: an absolute path, a command on PATH, or a tool that
 * `go install` / `cargo install` put in their bin folders. Undefined when absent.
 */
export function findTool(name: string, options: ToolCheckOptions = {}): string | undefined {
  const env = options.env ?? process.env;
  if (isAbsolute(name)) return isExecutable(name) ? name : undefined;
  const folders = [...(env['PATH'] ?? '').split(delimiter).filter(Boolean), ...toolFolders(env)];
  return folders.map((d) => join(d, name)).find(isExecutable);
}

/**
 * Fails (an assertion error, not a skip) unless every tool is installed:
 * `hyperfine is not installed: run npm run setup …`. Returns the first tool's path.
 */
export function requireTool(name: string, ...more: (string | ToolCheckOptions)[]): string {
  const options = more.find((m): m is ToolCheckOptions => typeof m === 'object') ?? {};
  const names = [name, ...more.filter((m): m is string => typeof m === 'string')];
  const paths = names.map((n) => {
    const path = findTool(n, options);
    if (!path) throw notInstalled(n);
    return path;
  });
  return paths[0]!;
}

/** Fails unless a file another tool needs is there (a library's header, say): `${what} is not installed: …`. */
export function requireFile(path: string, what: string): void {
  if (!existsSync(path)) throw notInstalled(`${what} (${path})`);
}

const pythonChecked = new Map<string, string[]>();

/**
 * Fails unless python3 is installed and imports every module:
 * `python3 module scipy is not installed: run npm run setup …`.
 */
export function requirePython(...args: (string | ToolCheckOptions)[]): void {
  const options = { env: process.env, ...args.find((m): m is ToolCheckOptions => typeof m === 'object') };
  const modules = args.filter((m): m is string => typeof m === 'string');
  requireTool('python3', options);
  const key = `${options.env['PATH'] ?? ''}\0${modules.join(' ')}`;
  let missing = pythonChecked.get(key);
  if (!missing) {
    const script = 'import importlib.util, sys\nprint(" ".join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))';
    const r = spawnSync('python3', ['-c', script, ...modules], { encoding: 'utf8', env: options.env, timeout: 30_000 });
    if (r.status !== 0) throw notInstalled(`a working python3 (${(r.stderr || r.error?.message || '').trim().split('\n').pop()})`);
    missing = r.stdout.trim().split(/\s+/).filter(Boolean);
    pythonChecked.set(key, missing);
  }
  if (missing.length > 0) throw notInstalled(`python3 module${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`, missing.length > 1);
}
