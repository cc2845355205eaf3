import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { InputError, type ResultSet } from '../../model/index.js';
import type { HistoryEntry, MonthKey } from './layout.js';
import { packResultSet, unpackResultSet } from './sample-packing.js';

/**
 * The bytes of history files. store/ may not import the ResultSet schema
 * check (it lives with the adapters), so every reader is handed one: a
 * `ValidateResultSet` that returns the typed set or throws InputError naming
 * the file. A file that does not decompress, parse or validate is an InputError
 * naming it; nothing here returns a half-read run.
 *
 * A single-run file is gzip'd JSON. A month file is brotli'd JSON lines: a
 * header line naming its runs in order, then one run per line. Brotli with a
 * 16 MiB window sees that consecutive runs repeat each other's structure
 * (gzip's 32 KiB window cannot: one run of 200 benchmarks is 40 KB of JSON),
 * which takes a month of such runs from about 5.1 to 3.8 KB a run. Listing
 * reads the header only (the start of the stream), never the runs.
 *
 * Runs are stored as compact JSON with their samples packed
 * (sample-packing.ts); files written before packing existed hold plain
 * sample arrays and read the same way.
 */

/** Checks parsed JSON against the ResultSet schema; throws InputError naming `file`. */
export type ValidateResultSet = (data: unknown, file: string) => ResultSet;

export const MONTH_SCHEMA = 'perf-gate/history-month@1';

/** The first line of a month file. */
export interface MonthHeader {
  schema: typeof MONTH_SCHEMA;
  testbed: string;
  month: string;
  /** The runs in file order (line i + 2 holds runs[i]). */
  runs: { commit: string; runId: string }[];
}

/** One run of a month, with its ResultSet. */
export interface MonthRun {
  commit: string;
  runId: string;
  set: ResultSet;
}

/** One run to write into a month file: its ResultSet already as one line of JSON (a month can be large; objects are dropped early). */
export interface MonthLine {
  commit: string;
  runId: string;
  json: string;
}

export function encodeRun(set: ResultSet): Buffer {
  return gzipSync(`${runLine(set)}\n`, { level: 9 });
}

export function decodeRun(bytes: Buffer, file: string, validate: ValidateResultSet): ResultSet {
  return validate(unpackResultSet(parseJson(gunzip(bytes, file), file), file), file);
}

/** The benchmarks of a run as the store gives them back (samples rounded to their packed resolution): for comparing a run with stored ones. */
export function storedBenchmarks(set: ResultSet): ResultSet['benchmarks'] {
  return (unpackResultSet(JSON.parse(runLine(set)) as unknown, 'a run to store') as ResultSet).benchmarks;
}

/** A run as one line of JSON, samples packed: the form of single-run files and of month lines. */
export function runLine(set: ResultSet): string {
  return JSON.stringify(packResultSet(set));
}

/** A month file holding `runs` (the caller orders them). */
export function encodeMonth(key: MonthKey, runs: readonly MonthLine[]): Buffer {
  const header: MonthHeader = { schema: MONTH_SCHEMA, testbed: key.testbed, month: key.month, runs: runs.map((r) => ({ commit: r.commit, runId: r.runId })) };
  const text = `${[JSON.stringify(header), ...runs.map((r) => r.json)].join('\n')}\n`;
  return brotliCompressSync(text, { params: { ...MONTH_BROTLI, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text) } });
}

/** A run of a month file that does not validate: its line kept as it is (a rewrite of the month keeps it), and why it is unreadable. */
export interface UnreadableMonthRun extends MonthLine {
  error: InputError;
}

/**
 * Every run of a month file, each validated. A run that does not validate
 * (written by an older perf-gate before a limit existed, or damaged) is set
 * aside with its line and its error, never allowed to blank the whole month:
 * only a file that does not decompress, or whose header does not match its
 * lines, is unreadable as a whole.
 */
export function decodeMonth(
  bytes: Buffer,
  file: string,
  validate: ValidateResultSet,
): { header: MonthHeader; runs: MonthRun[]; unreadable: UnreadableMonthRun[] } {
  const lines = unbrotli(bytes, file).split('\n');
  if (lines.at(-1) === '') lines.pop();
  const header = checkHeader(parseJson(lines[0] ?? '', file), file);
  if (lines.length !== header.runs.length + 1) {
    throw new InputError(file, `the header names ${header.runs.length} runs but the file holds ${lines.length - 1}`);
  }
  const runs: MonthRun[] = [];
  const unreadable: UnreadableMonthRun[] = [];
  header.runs.forEach((r, i) => {
    const where = `${file} (run ${r.runId})`;
    const json = lines[i + 1]!;
    try {
      runs.push({ ...r, set: validate(unpackResultSet(parseJson(json, where, i + 2), where), where) });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      unreadable.push({ ...r, json, error });
    }
  });
  return { header, runs, unreadable };
}

/**
 * Quality 5 compresses a month of 200-benchmark runs at under 1 ms a run,
 * about 12 % larger than quality 11 at 70 ms a run; the window covers many runs.
 */
const MONTH_BROTLI = { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 24 };

/**
 * The header of a month file from a prefix of its bytes: brotli with a
 * flush accepts a truncated stream and returns what it could decode.
 * `undefined` when the prefix does not yet hold the whole first line (the
 * caller reads more).
 */
export function decodeMonthHeader(prefix: Buffer, file: string, complete: boolean): MonthHeader | undefined {
  let text: string;
  try {
    text = brotliDecompressSync(prefix, { finishFlush: constants.BROTLI_OPERATION_FLUSH }).toString('utf8');
  } catch (error) {
    throw new InputError(file, `not a readable brotli file (${(error as Error).message})`);
  }
  const end = text.indexOf('\n');
  if (end < 0) {
    if (complete) throw new InputError(file, 'truncated: the month header line never ends');
    return undefined;
  }
  return checkHeader(parseJson(text.slice(0, end), file, 1), file);
}

/** The entries a month header lists, in file order. */
export function monthEntries(header: MonthHeader, file: string, createdOf: (runId: string) => string): HistoryEntry[] {
  return header.runs.map((r) => ({ testbed: header.testbed, commit: r.commit, runId: r.runId, created: createdOf(r.runId), file }));
}

function gunzip(bytes: Buffer, file: string): string {
  try {
    return gunzipSync(bytes).toString('utf8');
  } catch (error) {
    throw new InputError(file, `not a whole gzip file (truncated or corrupt: ${(error as Error).message})`);
  }
}

function unbrotli(bytes: Buffer, file: string): string {
  try {
    return brotliDecompressSync(bytes).toString('utf8');
  } catch (error) {
    throw new InputError(file, `not a whole brotli file (truncated or corrupt: ${(error as Error).message})`);
  }
}

function parseJson(text: string, file: string, line?: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError(file, `not valid JSON (${(error as Error).message})`, line);
  }
}

function checkHeader(data: unknown, file: string): MonthHeader {
  const h = data as Partial<MonthHeader> | null;
  const ok =
    h !== null &&
    typeof h === 'object' &&
    h.schema === MONTH_SCHEMA &&
    typeof h.testbed === 'string' &&
    typeof h.month === 'string' &&
    Array.isArray(h.runs) &&
    h.runs.every((r) => r !== null && typeof r === 'object' && typeof r.commit === 'string' && typeof r.runId === 'string');
  if (!ok) throw new InputError(file, `not a ${MONTH_SCHEMA} file: its first line must be the month header`, 1);
  return h as MonthHeader;
}
