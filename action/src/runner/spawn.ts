import { spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Readable } from 'node:stream';

/**
 * How the runner starts processes. Everything that executes a command goes
 * through this interface, so whole-pipeline tests can inject a deterministic
 * measurement source (see action/test/support/mock-spawner.ts) instead of real processes.
 */
export interface SpawnRequest {
  /** A shell command, run as `bash -c COMMAND` (never built from untrusted data). */
  command: string;
  cwd: string;
  /** The complete environment of the process. */
  env: Readonly<Record<string, string>>;
  /** Seconds before the whole process group is killed. */
  timeoutSeconds: number;
  /** File both output streams are appended to (the command's log; the runner starts a fresh one per command, see run-log.ts). */
  logPath: string;
  /** When set, stdout is also written here (the harness output when `run` has no {output}). */
  stdoutPath: string | null;
  /** The harness output file of this invocation (also in $PERF_GATE_OUTPUT), or null for a build. */
  outputPath: string | null;
  /** CPU list for `taskset -c`, or null for no pinning. */
  pin: string | null;
}

export interface SpawnResult {
  /** Exit code, or null when the process was ended by a signal. */
  exitCode: number | null;
  /** The signal that ended the process (e.g. "SIGKILL"), or null. */
  signal: string | null;
  /** True when perf-gate killed the process group because the timeout expired. */
  timedOut: boolean;
  /** Wall-clock seconds the process ran. */
  seconds: number;
}

export interface Spawner {
  run(request: SpawnRequest): Promise<SpawnResult>;
  /**
   * Kills every process group still running (SIGKILL). Called when perf-gate
   * itself is interrupted: the groups are detached, so a cancelled job would
   * otherwise leave benchmarks running on the runner.
   */
  stopAll(): void;
}

/** Seconds between SIGTERM and SIGKILL when a timeout expires. */
const KILL_GRACE_MS = 3000;
/** How long to wait for output pipes after the shell exited (a daemon may hold them). */
const PIPE_DRAIN_MS = 2000;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/**
 * Copies a child's output into files, pausing the pipe while a file is
 * behind: without that, a benchmark printing a gigabyte faster than the disk
 * takes it piles the gigabyte up in perf-gate's memory (measured: 813 MiB
 * for 1 GiB). Paused, the child waits on its full pipe instead.
 */
function copyTo(source: Readable, sinks: readonly WriteStream[]): void {
  source.on('data', (chunk: Buffer) => {
    const behind = sinks.filter((sink) => !sink.write(chunk));
    if (behind.length === 0) return;
    source.pause();
    // A file that failed (its 'error' rejects the wait) must not leave the child stuck on a full pipe.
    void Promise.all(behind.map((sink) => once(sink, 'drain').catch(() => undefined))).then(() => source.resume());
  });
}

async function closeStream(stream: WriteStream): Promise<void> {
  stream.end();
  if (!stream.closed) await once(stream, 'close');
}

/** Seconds between the orphan guard's checks that perf-gate is still alive. */
const GUARD_INTERVAL_S = 2;

/**
 * The script that starts a command: a guard in the background, then the
 * command itself in place of the shell (`exec`, so its pid, exit status and
 * signal are the group leader's, as with a plain `bash -c`). The guard checks
 * every GUARD_INTERVAL_S seconds that perf-gate (`parent`) is alive and kills
 * the whole group when it is not: a perf-gate killed with SIGKILL, which it
 * cannot catch, would otherwise leave the benchmark running on the machine.
 * The guard keeps no pipe open and ends with the group. It is started from
 * a subshell that exits at once, so it is nobody's child: a harness that
 * waits for all its children (strace, perf stat) would otherwise wait for
 * the guard, forever.
 */
export function orphanGuard(parent: number): string {
  return `( (while kill -0 ${parent} 2>/dev/null; do sleep ${GUARD_INTERVAL_S}; done; kill -KILL 0) </dev/null >/dev/null 2>&1 & ); exec bash -c "$1"`;
}

/**
 * Runs commands for real: `bash -c` in its own process group, so a timeout
 * kills the harness and everything it started, and leftovers of a finished
 * command are killed too before the next one starts (they would disturb it).
 */
export function processSpawner(): Spawner {
  const running = new Set<number>();
  return {
    stopAll() {
      for (const pid of running) killGroup(pid, 'SIGKILL');
    },
    async run(request) {
      const log = createWriteStream(request.logPath, { flags: 'a' });
      const out = request.stdoutPath ? createWriteStream(request.stdoutPath) : null;
      const shell = ['bash', '-c', orphanGuard(process.pid), 'bash', request.command];
      const argv = request.pin ? ['taskset', '-c', request.pin, ...shell] : shell;
      const started = performance.now();
      const child = spawn(argv[0]!, argv.slice(1), {
        cwd: request.cwd,
        env: request.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      if (child.pid !== undefined) running.add(child.pid);
      copyTo(child.stdout, out ? [log, out] : [log]);
      copyTo(child.stderr, [log]);
      // Listen from the start: the pipes may close before the exit event arrives.
      const drained = Promise.all([once(child.stdout, 'close'), once(child.stderr, 'close')]).catch(() => undefined);
      let timedOut = false;
      let killTimer: NodeJS.Timeout | undefined;
      const timer = setTimeout(() => {
        timedOut = true;
        if (child.pid !== undefined) killGroup(child.pid, 'SIGTERM');
        killTimer = setTimeout(() => child.pid !== undefined && killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
      }, request.timeoutSeconds * 1000);
      const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
        child.once('error', (error) => resolve({ code: null, signal: null, error }));
        child.once('exit', (code, signal) => resolve({ code, signal }));
      });
      const { code, signal, error } = await exit;
      const seconds = (performance.now() - started) / 1000;
      clearTimeout(timer);
      if (child.pid !== undefined) {
        killGroup(child.pid, 'SIGKILL');
        running.delete(child.pid);
      }
      clearTimeout(killTimer);
      let drainTimer: NodeJS.Timeout | undefined;
      await Promise.race([drained, new Promise((r) => (drainTimer = setTimeout(r, PIPE_DRAIN_MS)))]);
      clearTimeout(drainTimer);
      child.stdout.destroy();
      child.stderr.destroy();
      if (error) log.write(`perf-gate: could not start ${argv[0]}: ${error.message}\n`);
      await Promise.all([closeStream(log), out ? closeStream(out) : Promise.resolve()]);
      return { exitCode: error ? 127 : code, signal: signal ?? null, timedOut, seconds };
    },
  };
}
