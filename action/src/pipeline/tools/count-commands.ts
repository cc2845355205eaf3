/**
 * `perf-gate count`'s work: runs the commands under cachegrind (runner/counter.ts)
 * and writes one ResultSet with one benchmark per command, its repeats as
 * samples (runner/counted-rows.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError, newResultSet, type ResultSet, type Testbed } from '../../model/index.js';
import { countedBenchmark } from '../../runner/counted-rows.js';
import { cachegrindTool } from '../../runner/cachegrind-tool.js';
import { countCommands, type CounterOptions } from '../../runner/counter.js';
import { writeOutputFile } from '../output-files.js';

export interface CountOptions extends Omit<CounterOptions, 'workDir' | 'tool'> {
  /** ISO time written into the ResultSet. */
  created: string;
  testbed?: Testbed;
  /** The benchmarks' names, one per command (default: the commands). */
  names?: readonly string[];
}

/**
 * Counts the commands and writes the ResultSet to `path` (relative to cwd).
 * valgrind missing is unusable input (exit 2), named with the package to install.
 */
export async function countToFile(options: CountOptions, path: string): Promise<ResultSet> {
  const missing = cachegrindTool.missing(options.env);
  if (missing !== null) throw new InputError('valgrind', `perf-gate count runs commands under valgrind's cachegrind, and ${missing}`);
  const workDir = mkdtempSync(join(tmpdir(), 'perf-gate-count-'));
  try {
    const runs = await countCommands({ ...options, tool: cachegrindTool, workDir });
    const benchmarks = options.commands.map((command, i) =>
      countedBenchmark(command, runs[i]!, options.repeats, cachegrindTool, options.names?.[i] ?? command),
    );
    const set: ResultSet = { ...newResultSet(options.created, benchmarks), ...(options.testbed ? { testbed: options.testbed } : {}) };
    writeOutputFile(options.cwd, path, `${JSON.stringify(set, null, 2)}\n`, '--export-json');
    return set;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
