/**
 * Cancellation: a cancelled workflow (or Ctrl-C) sends SIGINT/SIGTERM. Without
 * handlers Node dies at once and leaves the benchmark process groups running
 * and the A/B worktree on disk; both `perf-gate run` and `perf-gate action`
 * wrap their measuring in withInterruptCleanup.
 */
import type { Spawner } from './spawn.js';

/**
 * Runs `body` with SIGINT/SIGTERM handlers: on a signal, every running
 * benchmark process group of `spawner` is killed and the cleanups `body`
 * registered (the A/B worktree) run, then the signal is re-raised so
 * perf-gate still ends the way the canceller expects.
 */
export async function withInterruptCleanup<T>(spawner: Spawner, body: (cleanups: Array<() => void>) => Promise<T>): Promise<T> {
  const cleanups: Array<() => void> = [];
  const onSignal = (signal: NodeJS.Signals): void => {
    spawner.stopAll();
    for (const cleanup of cleanups) {
      try {
        cleanup();
      } catch {
        // One failed cleanup must not keep the others (or the re-raised signal) from happening.
      }
    }
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await body(cleanups);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
