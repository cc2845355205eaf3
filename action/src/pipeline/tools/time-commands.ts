/**
 * `perf-gate time`'s work: the runner's own timer (a hyperfine-compatible
 * fallback), its JSON written atomically.
 */
import { timeCommands, type TimerOptions, type TimerResult } from '../../runner/timer.js';
import { writeOutputFile } from '../output-files.js';

export type { TimerOptions, TimerResult } from '../../runner/timer.js';

/**
 * Times the commands and writes hyperfine-compatible JSON to `path` (relative
 * to the options' cwd); returns the timings. `names` replace the commands as
 * the benchmarks' names, as hyperfine's -n does.
 */
export function timeToFile(options: TimerOptions, path: string, names?: readonly string[]): { results: TimerResult[] } {
  const timed = timeCommands(options);
  const data = names === undefined ? timed : { ...timed, results: timed.results.map((r, i) => ({ ...r, command: names[i] ?? r.command })) };
  writeOutputFile(options.cwd, path, `${JSON.stringify(data, null, 2)}\n`, '--export-json');
  return data;
}
