import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachegrindAdapter } from '../adapters/cachegrind.js';
import { fileInput } from '../adapters/index.js';
import { toolVersion, type CountedRun, type CountingTool, type RunCounts } from './counter.js';

/**
 * `counter: cachegrind` (the default, and `perf-gate count`): valgrind's
 * cachegrind with cache simulation. Counts are the simulated CPU's, so they
 * are the same on any machine and under any load.
 *
 * Counting the program, not the shell: a command is a shell line (pipes,
 * `&&`, redirections), so it runs as `valgrind --trace-children=yes … sh -c
 * CMD`, which writes one cachegrind file per process (`%p` in the file name).
 * The file of the process valgrind started is the wrapper shell's, and it is
 * left out: its parsing and forking is the same for baseline and current and
 * would only dilute the program's change (for a small C program the dash
 * wrapper is ~220k instructions beside the program's ~135k). When the shell
 * execs the command instead of forking (`exec prog`, or bash's last simple
 * command), that same file holds the program's counts, so it is kept: the
 * file's `cmd:` line tells the two apart (`sh -c CMD` for the wrapper). Every
 * process the command starts is counted and summed.
 *
 * The simulated caches are pinned (iai's sizes: 32 KiB 8-way L1s, an 8 MiB
 * 16-way LL, 64-byte lines) instead of taken from the CPU, so the miss counts
 * of two machines with different caches still compare.
 */
export const cachegrindTool: CountingTool = {
  name: 'cachegrind',
  under: 'under valgrind',
  argv: (command, dir) => ['valgrind', ...valgrindArgs(command, dir)],
  missing: (env) => (valgrindVersion(env) === null ? `${VALGRIND_MISSING}: ${INSTALL_VALGRIND}` : null),
  // cachegrind always counts Ir; an empty summary means a valgrind that lost its events.
  nothingCountedFix: 'check that valgrind runs this program ("valgrind --tool=cachegrind CMD")',
  complaints: valgrindComplaints,
  read: cachegrindCounts,
};

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
  return toolVersion('valgrind', env);
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

/** The run folder's cachegrind files: the started process's and its children's, in pid order. */
export function cachegrindFiles(run: CountedRun): { startedFile: string | null; childFiles: string[] } {
  const files = readdirSync(run.dir)
    .map((name) => /^cachegrind\.out\.(\d+)$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), path: join(run.dir, m[0]) }))
    .sort((a, b) => a.pid - b.pid);
  const started = files.find((f) => f.pid === run.pid);
  return { startedFile: started?.path ?? null, childFiles: files.filter((f) => f !== started).map((f) => f.path) };
}

/** What the wrapper's cachegrind file names as its command when it is the `sh -c` wrapper, not an exec'd program (the adapter trims it). */
function wrapperCmd(command: string): string {
  return `sh -c ${command}`.trim();
}

/**
 * One run's counts: the metric values of every counted process's file, summed
 * (every metric is a sum of events); null when the command started no program
 * (shell builtins only: the wrapper shell is never counted).
 */
export function cachegrindCounts(run: CountedRun): RunCounts | null {
  const { startedFile, childFiles } = cachegrindFiles(run);
  const files = [...(startedFile ? [startedFile] : []), ...childFiles];
  const values: Record<string, number> = {};
  let counted = 0;
  for (const path of files) {
    const [result] = cachegrindAdapter.parse(fileInput(path, readFileSync(path, 'utf8')));
    if (path === startedFile && result!.id === wrapperCmd(run.command)) continue;
    counted++;
    for (const [name, metric] of Object.entries(result!.metrics)) values[name] = (values[name] ?? 0) + metric.value!;
  }
  return counted > 0 ? { values, unavailable: {} } : null;
}
