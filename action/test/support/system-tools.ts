import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { notInstalled } from './tools.js';

export interface ToolRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A missing tool fails naming it and the install command, never a skip. */
function missing(command: string): Error {
  return notInstalled(command);
}

/**
 * Runs a real tool to completion with a time limit. A missing tool throws an
 * error naming it and the install command; a non-zero exit throws with its stderr
 * unless `allowFailure`.
 */
export function runTool(
  command: string,
  args: string[],
  options: { cwd?: string; timeoutMs?: number; allowFailure?: boolean; env?: NodeJS.ProcessEnv } = {},
): ToolRun {
  const r = spawnSync(command, args, {
    cwd: options.cwd,
    timeout: options.timeoutMs ?? 60_000,
    encoding: 'utf8',
    env: options.env ?? process.env,
    maxBuffer: 256 * 1024 * 1024,
  });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') throw missing(command);
  if (r.error) throw new Error(`${command} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0 && !options.allowFailure) throw new Error(`${command} ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Like runTool, but without blocking the event loop (for tools that talk to a server in this process). */
export function runToolAsync(command: string, args: string[], options: { timeoutMs?: number; allowFailure?: boolean } = {}): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? missing(command) : error);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      if (status !== 0 && !options.allowFailure) reject(new Error(`${command} ${args.join(' ')} exited with ${status}: ${stderr}`));
      else resolve({ status, stdout, stderr });
    });
  });
}

/** A C program that allocates 110,000 then 200,000 bytes, keeps both, and frees them at exit. */
const ALLOC_C = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  char *a = malloc(110000); memset(a, 1, 110000);
  char *b = malloc(200000); memset(b, 2, 200000);
  printf("%d\\n", a[100] + b[100]);
  free(b); free(a);
  return 0;
}
`;

/** Compiles a C source into `dir/name` with gcc and returns the binary's path. */
export function compileC(dir: string, name: string, source: string, optimise = '-O1'): string {
  const src = join(dir, `${name}.c`);
  const bin = join(dir, name);
  writeFileSync(src, source);
  runTool('gcc', [optimise, '-g', '-o', bin, src]);
  return bin;
}

/** Compiles the allocating program (310,000 bytes live at its peak); -O0, because gcc may elide a malloc/free pair. */
export function compileAlloc(dir: string): string {
  return compileC(dir, 'alloc', ALLOC_C, '-O0');
}
