import { existsSync, renameSync } from 'node:fs';

/**
 * Starts a fresh log for one command. The spawner appends to its log, and
 * `--out` is usually the same folder run after run, so without this a log
 * would pile up every earlier run's output, and a failed row, which quotes the
 * log's last lines, could show an old run's crash as this one's. The previous
 * log is kept once, as `<log>.1`, for comparing with the last run.
 */
export function startLog(path: string): void {
  if (existsSync(path)) renameSync(path, `${path}.1`);
}
