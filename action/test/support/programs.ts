import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A small CPU-bound C program whose work is `iterations` rounds of an LCG, so
 * a variant doing 30 % more iterations is 30 % slower by construction. The
 * result is printed so the compiler cannot drop the loop.
 */
const BUSY_LOOP_C = `#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000000UL;
  volatile unsigned long x = 1;
  for (unsigned long i = 0; i < n; i++) x = x * 6364136223846793005UL + 1442695040888963407UL;
  printf("%lu\\n", (unsigned long)x);
  return 0;
}
`;

/** Compiles the busy loop into `dir/busy` with the system C compiler and returns its path. */
export function compileBusyLoop(dir: string): string {
  const source = join(dir, 'busy.c');
  const binary = join(dir, 'busy');
  writeFileSync(source, BUSY_LOOP_C);
  execFileSync('cc', ['-O2', '-o', binary, source], { stdio: 'pipe' });
  return binary;
}

/** Runs real hyperfine, exporting JSON to `output`; throws with hyperfine's stderr on failure. */
export function hyperfine(args: string[], output: string, options: { allowFailure?: boolean } = {}): number {
  try {
    execFileSync('hyperfine', ['--style', 'none', '--export-json', output, ...args], { stdio: 'pipe', timeout: 120_000 });
    return 0;
  } catch (error) {
    const e = error as { status?: number; stderr?: Buffer; code?: string };
    if (e.code === 'ENOENT') throw new Error('hyperfine is not installed (apt-get install hyperfine; .ci/run installs it)');
    if (options.allowFailure && typeof e.status === 'number') return e.status;
    throw new Error(`hyperfine failed: ${e.stderr?.toString() ?? String(error)}`);
  }
}
