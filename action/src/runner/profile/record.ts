import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shlex';
import type { ProfilerChoice } from '../../config/perf-gate-config.js';
import { valgrindVersion } from '../cachegrind-tool.js';
import type { Spawner } from '../spawn.js';
import type { FoldedStacks } from '../../model/index.js';
import { addCallgrindStacks, parseFolded } from './callgrind-stacks.js';

/**
 * Records one side of a differential profile: the benchmark's command under
 * `perf record -g` (the CPU's own sampling, where perf_event_paranoid and
 * the machine allow it) or valgrind's callgrind (instructions, exact, on any
 * machine, tens of times slower), folded into stacks.
 */

export type Profiler = 'perf' | 'callgrind';

/** Callers named at most this deep in callgrind's context names: deeper stacks lose their outermost frames. */
export const CALLGRIND_DEPTH = 40;

/** What perf answers when asked to sample `true`: null when it can, else why not. */
export function perfCannotSample(env: NodeJS.ProcessEnv): string | null {
  const r = spawnSync('perf', ['record', '-q', '-g', '-o', '/dev/null', '--', 'true'], { env, encoding: 'utf8', timeout: 30_000 });
  if (r.error) return 'perf is not installed';
  if (r.status === 0) return null;
  const said = `${r.stderr}`.split('\n').find((l) => l.trim() !== '') ?? `exit ${r.status}`;
  return `perf record refused: ${said.trim().slice(0, 200)}`;
}

/** Whether valgrind runs. */
export function valgrindRuns(env: NodeJS.ProcessEnv): boolean {
  return valgrindVersion(env) !== null;
}

export const PERF_SAMPLE_FIX =
  'perf samples only where the CPU or VM exposes a PMU and perf_event_paranoid allows it (sudo sysctl -w kernel.perf_event_paranoid=1); or set profile: callgrind';
export const VALGRIND_FIX = 'install valgrind (apt-get install valgrind, dnf install valgrind)';

/** The profiler a suite's `profile:` gets on this machine, and the warning (with its fix) when it is not the one asked for or none. */
export function chooseProfiler(
  choice: ProfilerChoice,
  probe: { perf(): string | null; callgrind(): boolean },
): { tool: Profiler | null; warning: string | null } {
  if (choice === 'callgrind')
    return probe.callgrind() ? { tool: 'callgrind', warning: null } : { tool: null, warning: `valgrind does not run here: ${VALGRIND_FIX}` };
  const refused = probe.perf();
  if (refused === null) return { tool: 'perf', warning: null };
  const callgrind = probe.callgrind();
  if (choice === 'auto' && callgrind) return { tool: 'callgrind', warning: null };
  if (choice === 'perf' && callgrind) return { tool: 'callgrind', warning: `${refused}; profiled with callgrind instead. Fix: ${PERF_SAMPLE_FIX}` };
  return { tool: null, warning: `${refused}, and valgrind does not run here: ${VALGRIND_FIX}` };
}

export interface RecordRequest {
  tool: Profiler;
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** This side's folder: the profiler's files and its log go here. */
  dir: string;
  timeoutSeconds: number;
  spawner: Spawner;
}

export type Recorded = { stacks: FoldedStacks; seconds: number } | { error: string; seconds: number };

function profilerCommand(request: RecordRequest): string {
  const run = ['sh', '-c', request.command].map(quote).join(' ');
  if (request.tool === 'callgrind') {
    return [
      'valgrind',
      '-q',
      '--tool=callgrind',
      `--separate-callers=${CALLGRIND_DEPTH}`,
      '--trace-children=yes',
      `--callgrind-out-file=${quote(join(request.dir, 'callgrind.out.%p'))}`,
      run,
    ].join(' ');
  }
  return `perf record -q -g -o ${quote(join(request.dir, 'perf.data'))} -- ${run}`;
}

/** Runs the command once under the profiler (killed at the timeout) and folds what it recorded. */
export async function recordSide(request: RecordRequest): Promise<Recorded> {
  mkdirSync(request.dir, { recursive: true });
  const logPath = join(request.dir, 'profile.log');
  writeFileSync(logPath, '');
  const result = await request.spawner.run({
    command: profilerCommand(request),
    cwd: request.cwd,
    env: request.env,
    timeoutSeconds: request.timeoutSeconds,
    logPath,
    stdoutPath: null,
    outputPath: null,
    pin: null,
  });
  const seconds = result.seconds;
  if (result.timedOut) return { error: `cut at the time cap after ${Math.round(seconds)} s`, seconds };
  if (result.exitCode !== 0)
    return { error: `exited with ${result.exitCode === null ? `signal ${result.signal}` : `code ${result.exitCode}`} (log: ${logPath})`, seconds };
  try {
    return { stacks: request.tool === 'callgrind' ? callgrindStacks(request.dir) : perfStacks(request), seconds };
  } catch (error) {
    return { error: (error as Error).message, seconds };
  } finally {
    // The profiler's own files run to a hundred megabytes (callgrind under cargo): the folded stacks keep what the report needs, and the artifact stays small.
    for (const file of readdirSync(request.dir))
      if (file.startsWith('callgrind.out.') || file === 'perf.data') rmSync(join(request.dir, file), { force: true });
  }
}

function callgrindStacks(dir: string): FoldedStacks {
  const stacks: FoldedStacks = new Map();
  const files = readdirSync(dir).filter((f) => f.startsWith('callgrind.out.'));
  if (files.length === 0) throw new Error(`callgrind wrote no file in ${dir}`);
  for (const file of files.sort()) addCallgrindStacks(readFileSync(join(dir, file), 'utf8'), join(dir, file), stacks);
  return stacks;
}

/** perf script's samples folded by inferno-collapse-perf. */
function perfStacks(request: RecordRequest): FoldedStacks {
  const data = join(request.dir, 'perf.data');
  if (!existsSync(data)) throw new Error(`perf wrote no ${data}`);
  const script = spawnSync('perf', ['script', '-i', data], { env: request.env, maxBuffer: 1024 ** 3, timeout: 120_000 });
  if (script.status !== 0) throw new Error(`perf script failed: ${String(script.stderr).split('\n')[0]}`);
  const folded = spawnSync('inferno-collapse-perf', [], { input: script.stdout, env: request.env, maxBuffer: 1024 ** 3, timeout: 120_000, encoding: 'utf8' });
  if (folded.error || folded.status !== 0) throw new Error('inferno-collapse-perf did not run: cargo install inferno');
  return parseFolded(folded.stdout);
}
