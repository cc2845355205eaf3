import type { BenchmarkResult, Testbed } from '../model/index.js';

/**
 * What an adapter is given: one file's text and its path. `readRelated` reads a
 * file next to it (relative to its folder), for formats spread over several
 * files (criterion's new/ folder); it returns undefined when there is none.
 * Adapters never touch the file system themselves.
 */
export interface AdapterInput {
  path: string;
  text: string;
  readRelated(relativePath: string): string | undefined;
  /**
   * The benchmark's name for formats whose output never names it (perf stat,
   * strace): the suite's name when the runner ran the harness, whose output
   * file names change with repeats and sweep points. Absent for a file given
   * by hand: then the file's name is the benchmark's.
   */
  name?: string;
}

/** A detection answer: a match, or a short reason for declining (listed when nothing matches). */
export type Detection = { match: true } | { match: false; reason: string };

/**
 * One harness format. Keep the shape small (one optional member, `testbed`,
 * for the few formats that record their machine): detect looks at content
 * cheaply (the file name is only a hint); parse is pure, converts to base
 * units, keeps samples in harness order, and throws InputError naming file and
 * line for anything unusable (an empty or truncated file is an error, never []).
 *
 * parse may return [] only for a file that is part of a multi-file format and
 * carries no benchmark of its own (criterion's tukey.json, base/ copies).
 */
export interface Adapter {
  /** The format name used in `--format` and config `format:`. */
  readonly name: string;
  detect(input: AdapterInput): Detection;
  parse(input: AdapterInput): BenchmarkResult[];
  /**
   * The machine the file says it was measured on, for the few formats that
   * record one (pyperf's metadata). Used only when the results come as files
   * with no testbed of their own: a run on the runner records the runner's.
   */
  testbed?(input: AdapterInput): Testbed | undefined;
}
