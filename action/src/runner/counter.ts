import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOG_TAIL_LINES } from './failure.js';

/**
 * perf-gate's instruction counter (`perf-gate count`): runs each command
 * `repeats` times under valgrind's cachegrind and hands back, per run, how it
 * ended and the cachegrind files it left. Reading the files is the caller's
 * (the cachegrind adapter's) job; this module only starts processes.
 *
 * Counting the program, not the shell: a command is a shell line (pipes,
 * `&&`, redirections), so it runs as `valgrind --trace-children=yes … sh -c
 * CMD`, which writes one cachegrind file per process (`%p` in the file name).
 * The file of the process valgrind started is the wrapper shell's, and the
 * caller leaves it out: its parsing and forking is the same for baseline and
 * current and would only dilute the program's change (for a small C program
 * the dash wrapper is ~220k instructions beside the program's ~135k). When the
 * shell execs the command instead of forking (`exec prog`, or bash's last
 * simple command), that same file holds the program's counts, so the caller
 * keeps it: it tells the two apart by the file's `cmd:` line (`sh -c CMD` for
 * the wrapper). Every process the command starts is counted and summed.
 *
 * The simulated caches are pinned (iai's sizes: 32 KiB 8-way L1s, an 8 MiB
 * 16-way LL, 64-byte lines) instead of taken from the CPU, so the miss counts
 * of two machines with different caches still compare.
 */
export interface CounterOptions {
  commands: readonly string[];
  /** Runs per command; the repeats show how far the counts move between identical runs. */
  repeats: number;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Per-run time limit in milliseconds (valgrind is 10–100× slower than the program alone). */
  timeoutMs: number;
  /** A fresh folder for the runs' cachegrind files; the caller removes it. */
  workDir: string;
}

export interface CountedRun {
  command: string;
  /** 0-based. */
  repeat: number;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The last lines of the command's stderr (valgrind's own messages go to its log files instead). */
  stderrTail: string;
  /** The cachegrind file of the process valgrind started (the `sh -c` wrapper, unless it exec'd), or null when none was written. */
  startedFile: string | null;
  /** The cachegrind files of every other process, in pid order. */
  childFiles: string[];
  /** The run's folder, holding valgrind's log files (`valgrind.<pid>.log`) too. */
  dir: string;
}

/** The cache geometry every count uses: `--I1`/`--D1`/`--LL` as size,associativity,line size (iai's choice). */
export const PINNED_CACHES = ['--I1=32768,8,64', '--D1=32768,8,64', '--LL=8388608,16,64'] as const;

/** valgrind's arguments for one run writing into `dir`. */
export function valgrindArgs(command: string, dir: string): string[] {
  return [
    '-q',
    '--tool=cachegrind',
    '--cache-sim=yes',
    ...PINNED_CACHES,
    '--trace-children=yes',
    `--cachegrind-out-file=${join(dir, 'cachegrind.out.%p')}`,
    `--log-file=${join(dir, 'valgrind.%p.log')}`,
    'sh',
    '-c',
    command,
  ];
}

/** What a machine without valgrind is told, by `perf-gate count` and by a suite that measures counts. */
export const VALGRIND_MISSING = 'valgrind is not on PATH (or does not run)';
export const INSTALL_VALGRIND = 'install the valgrind package (apt-get install valgrind, dnf install valgrind)';

/** valgrind's version line ("valgrind-3.19.0"), or null when valgrind is not on the PATH of `env`. */
export function valgrindVersion(env: NodeJS.ProcessEnv): string | null {
  const r = spawnSync('valgrind', ['--version'], { env, encoding: 'utf8', timeout: 30_000 });
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

// Cachegrind's notes on the host's caches, written on every start; noise beside a real complaint.
const CACHE_NOTE = /warning: (L3 cache found|specified LL cache|simulated LL cache)/;

/** What valgrind's own logs of a run say, besides its notes on the host's caches ('' when nothing). */
function valgrindComplaints(dir: string): string {
  return readdirSync(dir)
    .filter((name) => /^valgrind\.\d+\.log$/.test(name))
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '' && !CACHE_NOTE.test(line))
    .join('\n');
}

/** Splits the run folder's cachegrind files into the started process's and its children's. */
function filesOf(dir: string, pid: number | undefined): { startedFile: string | null; childFiles: string[] } {
  const files = readdirSync(dir)
    .map((name) => /^cachegrind\.out\.(\d+)$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), path: join(dir, m[0]) }))
    .sort((a, b) => a.pid - b.pid);
  const started = files.find((f) => f.pid === pid);
  return { startedFile: started?.path ?? null, childFiles: files.filter((f) => f !== started).map((f) => f.path) };
}

/** One counted run: valgrind in its own process group, so a timeout kills the command and everything it started. */
function countOnce(command: string, repeat: number, dir: string, options: CounterOptions): Promise<CountedRun> {
  mkdirSync(dir, { recursive: true });
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', valgrindArgs(command, dir), { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
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
      const run = { command, repeat, exitCode: ended.code, signal: ended.signal, timedOut, stderrTail: tailOf(stderr), ...filesOf(dir, child.pid), dir };
      // When valgrind itself gave up (an instruction it cannot run, a bad option), the reason is only in its log.
      if (runFailed(run)) run.stderrTail = tailOf([stderr, valgrindComplaints(dir)].filter(Boolean).join('\n'));
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
 * run ends that command's repeats: counting a broken command again at
 * valgrind's slowdown would only cost time.
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
