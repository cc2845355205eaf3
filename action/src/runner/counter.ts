import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LOG_TAIL_LINES } from './failure.js';

/**
 * perf-gate's counted runs (`perf-gate count`, `measure: counts`): runs each
 * command `repeats` times under a counting tool (valgrind's cachegrind,
 * runner/cachegrind-tool.ts, or `perf stat`, runner/perf-tool.ts) and hands
 * back, per run, how it ended and the folder holding the tool's files.
 * Reading the files is the tool's job; this module only starts processes, one
 * at a time, each in its own process group so a timeout ends everything the
 * command started.
 */
export interface CountingTool {
  /** The `counter:` value that selects it. */
  name: 'cachegrind' | 'perf';
  /** How a failed run is placed: "under valgrind". */
  under: string;
  /** The program and arguments that count one run of the shell line `command`, writing their files into `dir`. */
  argv(command: string, dir: string): [string, ...string[]];
  /** Why the tool cannot count on this machine, with the fix; null when it can. */
  missing(env: NodeJS.ProcessEnv): string | null;
  /** What to do when a run ends well but the tool counted none of its events. */
  nothingCountedFix: string;
  /** The tool's own complaints about a failed run, from its log files ('' when none). */
  complaints(dir: string): string;
  /**
   * One finished run's counts, summed over the command's processes: the
   * metric values, and the events the tool could not count with its reason.
   * Null when the run started no program to count. Throws InputError for a
   * file the tool left unusable.
   */
  read(run: CountedRun): RunCounts | null;
}

export interface RunCounts {
  values: Record<string, number>;
  /** Event → the tool's reason it has no value ("<not supported>"). */
  unavailable: Record<string, string>;
}

export interface CounterOptions {
  tool: CountingTool;
  commands: readonly string[];
  /** Runs per command; the repeats show how far the counts move between identical runs. */
  repeats: number;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Per-run time limit in milliseconds (valgrind is 10–100× slower than the program alone). */
  timeoutMs: number;
  /** A fresh folder for the runs' files; the caller removes it. */
  workDir: string;
}

export interface CountedRun {
  command: string;
  /** 0-based. */
  repeat: number;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The last lines of the command's stderr, and the tool's complaints when the run failed. */
  stderrTail: string;
  /** The pid of the process started (the tool itself), or null when it did not start. */
  pid: number | null;
  /** The run's own folder, holding the tool's files. */
  dir: string;
}

/** A counting tool's `--version` line ("valgrind-3.19.0"), or null when `program` is not on the PATH of `env` or does not run. */
export function toolVersion(program: string, env: NodeJS.ProcessEnv): string | null {
  const r = spawnSync(program, ['--version'], { env, encoding: 'utf8', timeout: 30_000 });
  if (r.error || r.status !== 0) return null;
  return r.stdout.trim();
}

/** Characters of stderr kept while a run goes (the tail is cut to lines at the end). */
const STDERR_KEEP_CHARS = 4000;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

/** The last lines of a text, at most STDERR_KEEP_CHARS characters. */
function tailOf(text: string): string {
  const tail = text.replace(/\s+$/, '').split('\n').slice(-LOG_TAIL_LINES).join('\n');
  return tail.length > STDERR_KEEP_CHARS ? tail.slice(-STDERR_KEEP_CHARS) : tail;
}

/** One counted run: the tool in its own process group, so a timeout kills the command and everything it started. */
function countOnce(command: string, repeat: number, dir: string, options: CounterOptions): Promise<CountedRun> {
  mkdirSync(dir, { recursive: true });
  const [program, ...args] = options.tool.argv(command, dir);
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-STDERR_KEEP_CHARS * 2);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) killGroup(child.pid);
    }, options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    let ended: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      ended = { code, signal };
      // Background processes the command left behind would disturb the next run (and hold the stderr pipe open).
      if (child.pid !== undefined) killGroup(child.pid);
    });
    child.once('close', () => {
      const run: CountedRun = {
        command,
        repeat,
        exitCode: ended.code,
        signal: ended.signal,
        timedOut,
        stderrTail: tailOf(stderr),
        pid: child.pid ?? null,
        dir,
      };
      // When the tool itself gave up (an instruction valgrind cannot run, a bad option), the reason may be only in its logs.
      if (runFailed(run)) run.stderrTail = tailOf([stderr, options.tool.complaints(dir)].filter(Boolean).join('\n'));
      resolve(run);
    });
  });
}

/** Whether a run ended badly: a non-zero exit, a signal or the time limit. */
export function runFailed(run: CountedRun): boolean {
  return run.timedOut || run.signal !== null || run.exitCode !== 0;
}

/**
 * Counts every command `repeats` times, one command after the other. A failed
 * run ends that command's repeats: counting a broken command again at the
 * tool's slowdown would only cost time.
 */
export async function countCommands(options: CounterOptions): Promise<CountedRun[][]> {
  const all: CountedRun[][] = [];
  for (const [i, command] of options.commands.entries()) {
    const runs: CountedRun[] = [];
    for (let repeat = 0; repeat < options.repeats; repeat++) {
      const run = await countOnce(command, repeat, join(options.workDir, `${i}-${repeat}`), options);
      runs.push(run);
      if (runFailed(run)) break;
    }
    all.push(runs);
  }
  return all;
}
