/**
 * `perf-gate time`'s work: the runner's own timer (a hyperfine-compatible
 * fallback), its JSON written atomically.
 */
import { timeCommands, type TimerOptions, type TimerResult } from '../runner/timer.js';
import { writeOutputFile } from './publish.js';

export type { TimerOptions, TimerResult } from '../runner/timer.js';

/** Times the commands and writes hyperfine-compatible JSON to `path` (relative to the options' cwd); returns the timings. */
export function timeToFile(options: TimerOptions, path: string): { results: TimerResult[] } {
  const data = timeCommands(options);
  writeOutputFile(options.cwd, path, `${JSON.stringify(data, null, 2)}\n`, '--export-json');
  return data;
}
