import { execFile } from 'node:child_process';

/**
 * The one way this store runs git: the real git CLI through execFile (no
 * shell, so no quoting of paths or refs), never prompting for credentials,
 * never running the user's hooks, with output as bytes (blobs are gzip).
 */

/** A git command that exited non-zero (or could not start); keeps stderr so callers can tell a push race from a real failure. */
export class GitCommandError extends Error {
  override readonly name = 'GitCommandError';
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed${exitCode !== null ? ` (exit ${exitCode})` : ''}: ${stderr.trim() || '(no message)'}`);
  }
}

export interface GitOptions {
  /** Bytes for standard input. */
  input?: Buffer | string;
  /** Extra environment (e.g. GIT_INDEX_FILE); the process's own environment is kept. */
  env?: Record<string, string>;
}

/** A token for the data branch's fetch and push, and the server it is for. */
export interface GitAuth {
  token: string;
  /** e.g. https://github.com: the header is sent to this server only. */
  serverUrl: string;
}

/**
 * The environment that hands `auth` to one git process as an HTTP header
 * (git's GIT_CONFIG_COUNT/KEY/VALUE, git 2.31+), scoped to the server: the
 * token is never written to .git/config, where the benchmarks and bisect's
 * worktrees could read it, and never appears on a command line.
 */
export function authEnv(auth: GitAuth | undefined): Record<string, string> {
  if (auth === undefined || auth.token === '') return {};
  const basic = Buffer.from(`x-access-token:${auth.token}`).toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: `http.${auth.serverUrl.replace(/\/+$/, '')}/.extraheader`,
    GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
  };
}

export interface GitOutput {
  stdout: Buffer;
  stderr: string;
}

/** Runs `git <args>` in `cwd`; rejects with GitCommandError on a non-zero exit. */
export function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['-c', 'core.hooksPath=/dev/null', '-c', 'gc.auto=0', '-c', 'maintenance.auto=false', ...args],
      {
        cwd,
        encoding: 'buffer',
        maxBuffer: 1 << 30,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', ...options.env },
      },
      (error, stdout, stderr) => {
        const err = stderr.toString('utf8');
        if (error) {
          const code = typeof error.code === 'number' ? error.code : null;
          reject(new GitCommandError(args, code, err || error.message));
        } else resolve({ stdout, stderr: err });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** Runs git and returns stdout as trimmed text. */
export async function gitText(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<string> {
  return (await git(cwd, args, options)).stdout.toString('utf8').trim();
}

/**
 * Reads many objects with one `git cat-file --batch`: each name (`<sha>` or
 * `<commit>:<path>`) maps to its bytes, or undefined when it does not exist.
 */
export async function catFileBatch(cwd: string, names: readonly string[]): Promise<Map<string, Buffer | undefined>> {
  const result = new Map<string, Buffer | undefined>();
  if (names.length === 0) return result;
  const { stdout } = await git(cwd, ['cat-file', '--batch'], { input: names.map((n) => `${n}\n`).join('') });
  let at = 0;
  for (const name of names) {
    const eol = stdout.indexOf(10, at);
    if (eol < 0) throw new Error(`git cat-file --batch: output ended before ${name}`);
    const header = stdout.subarray(at, eol).toString('utf8');
    at = eol + 1;
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      result.set(name, undefined);
      continue;
    }
    const size = Number(header.split(' ')[2]);
    if (!Number.isInteger(size)) throw new Error(`git cat-file --batch: unexpected header ${JSON.stringify(header)}`);
    result.set(name, stdout.subarray(at, at + size));
    at += size + 1;
  }
  return result;
}
