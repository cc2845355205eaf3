/**
 * Progress in the job log: one collapsible group per step (GitHub's
 * `::group::` when running in Actions, a plain header elsewhere) saying which
 * step of how many, the time elapsed and an estimate of the time left
 * (elapsed / steps done × steps left, once one step has finished).
 */
export interface Progress {
  /** Opens the group of step `index` (1-based) of `total`. */
  begin(index: number, total: number, title: string): void;
  /** Writes a line inside the current group. */
  line(text: string): void;
  end(): void;
}

export interface ProgressOptions {
  /** True under GitHub Actions (GITHUB_ACTIONS=true). */
  githubActions: boolean;
  write(text: string): void;
  /** Monotonic milliseconds. */
  clock(): number;
}

/** "45s", "3m 05s", "1h 02m". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The header of step `index` of `total` started `elapsed` seconds into the run. */
export function progressHeader(index: number, total: number, title: string, elapsed: number): string {
  const done = index - 1;
  const left = done > 0 ? `about ${formatDuration((elapsed / done) * (total - done))} left` : 'time left unknown';
  return `${title} (${index} of ${total}, elapsed ${formatDuration(elapsed)}, ${left})`;
}

export function logProgress(options: ProgressOptions): Progress {
  const start = options.clock();
  let open = false;
  const end = (): void => {
    if (open && options.githubActions) options.write('::endgroup::\n');
    open = false;
  };
  return {
    begin(index, total, title) {
      end();
      // Commands in the title could be read as workflow commands: keep it on one line.
      const header = progressHeader(index, total, title.replace(/[\r\n]+/g, ' '), (options.clock() - start) / 1000);
      options.write(options.githubActions ? `::group::${header}\n` : `\n=== ${header} ===\n`);
      open = true;
    },
    line(text) {
      options.write(`${text}\n`);
    },
    end,
  };
}
