import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileInput } from '../adapters/index.js';
import { perfStatAdapter } from '../adapters/perf-stat.js';
import { InputError } from '../model/index.js';
import { toolVersion, type CountedRun, type CountingTool, type RunCounts } from './counter.js';

/** What to do when perf runs but counts nothing: the reasons, most common first. */
export const PERF_UNSUPPORTED_FIX =
  'the CPU or VM exposes no hardware counters to perf (a VM needs a virtual PMU; perf_event_paranoid 3 or more forbids counting without root: sudo sysctl -w kernel.perf_event_paranoid=2); use "counter: cachegrind", which simulates the CPU and counts anywhere';

/**
 * `counter: perf`: the CPU's own counters through `perf stat`, user space
 * only (`:u`, which perf_event_paranoid ≤ 2 allows without root). Hardware
 * counts are the real machine's, not a simulation: nearly as steady as
 * cachegrind's for instructions and branches, while cycles and branch misses
 * move with the machine's state (caches, frequency, the branch predictor), so
 * they are tested like times, not against the tolerance alone. perf runs the
 * program at full speed, where valgrind is tens of times slower.
 *
 * `perf stat` counts the process it starts and every child, so the wrapper
 * shell (`sh -c CMD`) is inside the count: a few hundred thousand
 * instructions, the same on both sides of a comparison.
 *
 * Where the CPU or VM exposes no counters, perf writes `<not supported>`
 * instead of a number; the events come back as unavailable, never as zero,
 * and a command with no event counted at all is a failed row (counted-rows.ts).
 */
export const perfTool: CountingTool = {
  name: 'perf',
  under: 'under perf stat',
  argv: (command, dir) => [
    'perf',
    'stat',
    '-x,',
    '-o',
    join(dir, PERF_FILE),
    '-e',
    PERF_EVENTS.map((e) => `${e.event}:u`).join(','),
    '--',
    'sh',
    '-c',
    command,
  ],
  missing: (env) => (perfVersion(env) === null ? `${PERF_MISSING}: ${INSTALL_PERF}` : null),
  nothingCountedFix: PERF_UNSUPPORTED_FIX,
  complaints: () => '', // perf's own errors go to stderr, which the run keeps.
  read: perfCounts,
};

/** The events counted and the metric each becomes (the metric table gives their traits). */
export const PERF_EVENTS = [
  { event: 'instructions', metric: 'instructions' },
  { event: 'cycles', metric: 'cycles' },
  { event: 'branches', metric: 'branches' },
  { event: 'branch-misses', metric: 'branch_misses' },
] as const;

const PERF_FILE = 'perf-stat.csv';

export const PERF_MISSING = 'perf is not on PATH (or does not run)';
export const INSTALL_PERF = 'install perf (apt-get install linux-perf on Debian, linux-tools-$(uname -r) on Ubuntu, dnf install perf)';

/** perf's version line ("perf version 6.1.x"), or null when perf is not on the PATH of `env`. */
export function perfVersion(env: NodeJS.ProcessEnv): string | null {
  return toolVersion('perf', env);
}

/** What `perf stat` could count on this machine: the events it counted and those it could not, with perf's words. */
export interface PerfCounterProbe {
  counted: string[];
  unavailable: Record<string, string>;
}

/**
 * Asks perf to count instructions and cycles of `true`: the preflight's way to
 * tell a machine whose perf can count from one that only says
 * `<not supported>` (a VM without a virtual PMU), which perf_event_paranoid
 * alone does not show. Null when perf is not installed or does not run.
 */
export function probePerfCounters(env: NodeJS.ProcessEnv): PerfCounterProbe | null {
  const r = spawnSync('perf', ['stat', '-x,', '-e', 'instructions:u,cycles:u', '--', 'true'], { env, encoding: 'utf8', timeout: 30_000 });
  if (r.error || r.status !== 0) return null;
  try {
    const [result] = perfStatAdapter.parse(fileInput('perf stat', r.stderr));
    return { counted: Object.keys(result!.metrics), unavailable: result!.unavailable ?? {} };
  } catch (error) {
    if (error instanceof InputError) return null;
    throw error;
  }
}

/** One run's `perf stat -x,` file as counts; events perf could not count are unavailable, with perf's words. */
export function perfCounts(run: CountedRun): RunCounts | null {
  const path = join(run.dir, PERF_FILE);
  if (!existsSync(path)) throw new InputError(path, 'perf stat wrote no output file; expected its -x, lines ("value,unit,event,…")');
  const [result] = perfStatAdapter.parse(fileInput(path, readFileSync(path, 'utf8')));
  const values: Record<string, number> = {};
  const unavailable: Record<string, string> = {};
  for (const { event, metric } of PERF_EVENTS) {
    const counted = result!.metrics[`${event}:u`];
    const why = result!.unavailable?.[`${event}:u`];
    if (counted?.value !== undefined) values[metric] = counted.value;
    else unavailable[metric] = why ?? "not in perf stat's output";
  }
  return { values, unavailable };
}
