import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from '../../src/stats/index.js';
import type { TimerResult } from '../../src/runner/timer.js';
import { notInstalled, requireTool } from './tools.js';

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

/**
 * The same LCG loop with its iteration count fixed at build time, for tests
 * that build two versions of one program (a commit that does a known factor
 * more work, measured by time or by instruction count).
 */
export function busyLoopSource(iterations: number): string {
  return `#include <stdio.h>
int main(void) {
  volatile unsigned long x = 1;
  for (unsigned long i = 0; i < ${iterations}UL; i++) x = x * 6364136223846793005UL + 1442695040888963407UL;
  printf("%lu\\n", (unsigned long)x);
  return 0;
}
`;
}

/**
 * A program that settles in one of two levels per process, the way code
 * alignment or a hash seed does: each run draws a random bit (seeded from
 * the clock and its pid) and, with probability argv[1], does 50 % more work;
 * argv[2] scales both levels (1.1: a real 10 % slowdown of the code). Any
 * further argument is ignored, so one hyperfine call can name many variants.
 */
export const FLIP_C = `#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
  double slowShare = argc > 1 ? atof(argv[1]) : 0.5;
  double scale = argc > 2 ? atof(argv[2]) : 1.0;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  srand((unsigned)(ts.tv_nsec ^ ((unsigned)getpid() << 16)));
  int slow = rand() / (RAND_MAX + 1.0) < slowShare;
  unsigned long n = (unsigned long)(10000000 * scale * (slow ? 1.5 : 1.0));
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
  requireTool('cc');
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
    if (e.code === 'ENOENT') throw notInstalled('hyperfine');
    if (options.allowFailure && typeof e.status === 'number') return e.status;
    throw new Error(`hyperfine failed: ${e.stderr?.toString() ?? String(error)}`);
  }
}

/** One result of hyperfine's --export-json (perf-gate's own timer writes the same shape), plus fields it may add. */
type HyperfineResult = TimerResult & Record<string, unknown>;

/**
 * Times several variants with real hyperfine in interleaved rounds (each round
 * runs every variant for a few runs, in rotating order) and writes one
 * hyperfine JSON per variant holding all its runs in round order. On a shared
 * machine the speed drifts over seconds; timing A entirely before B would
 * turn that drift into a fake difference (docs/design.md, "What the noise really
 * looks like"), while rounds spread it evenly over the variants.
 *
 * Without a shell (-N): each hyperfine call measures the shell's start-up
 * once and subtracts it from every run, and a stall during that one
 * measurement makes a whole round's runs too short (4 ms for a 15 ms program).
 */
export function interleavedHyperfine(
  variants: { file: string; name: string; command: string }[],
  options: { rounds: number; runsPerRound: number; dir: string },
): void {
  const merged = new Map<string, HyperfineResult>();
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < variants.length; k++) {
      const v = variants[(round + k) % variants.length]!;
      const part = join(options.dir, `.round-${round}-${k}.json`);
      hyperfine(['-N', '--warmup', '1', '--runs', String(options.runsPerRound), '--command-name', v.name, v.command], part);
      const result = (JSON.parse(readFileSync(part, 'utf8')) as { results: HyperfineResult[] }).results[0]!;
      const previous = merged.get(v.file);
      merged.set(
        v.file,
        previous ? { ...previous, times: [...previous.times, ...result.times], exit_codes: [...previous.exit_codes, ...result.exit_codes] } : result,
      );
    }
  }
  for (const [file, result] of merged) {
    const { mean, stddev, median, min, max } = describe(result.times);
    const summary = { mean, stddev, median, min, max };
    writeFileSync(join(options.dir, file), `${JSON.stringify({ results: [{ ...result, ...summary }] }, null, 2)}\n`);
  }
}
