/**
 * `perf-gate convert`'s work: results read like any run's input, written as
 * Bencher Metric Format or as a ResultSet.
 */
import type { BenchmarkResult } from '../../model/index.js';
import { serializeResultSet, toBmf } from '../../store/index.js';
import { readResults, type ReadOptions } from '../inputs.js';

export type ConvertTarget = 'bmf' | 'resultset';

export interface Converted {
  text: string;
  /** Failed benchmarks BMF cannot express, left out of its text (the caller says so). */
  leftOut: BenchmarkResult[];
}

/** The inputs as text in the target format. */
export function convertResults(paths: readonly string[], to: ConvertTarget, options: ReadOptions): Converted {
  const resultSet = readResults(paths, options);
  if (to === 'resultset') return { text: serializeResultSet(resultSet), leftOut: [] };
  return { text: `${JSON.stringify(toBmf(resultSet), null, 2)}\n`, leftOut: resultSet.benchmarks.filter((b) => b.status === 'failed') };
}
