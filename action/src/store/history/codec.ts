import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { InputError, type ResultSet } from '../../model/index.js';
import { serializeResultSet } from '../result-set-file.js';
import type { HistoryEntry, MonthKey } from './layout.js';

/**
 * The bytes of history files. store/ may not import the ResultSet schema
 * check (it lives with the adapters), so every reader is handed one: a
 * `ValidateResultSet` that returns the typed set or throws InputError naming
 * the file. A file that does not gunzip, parse or validate is an InputError
 * naming it; nothing here returns a half-read run.
 *
 * A month file is gzip'd JSON lines: a header line naming its runs in order,
 * then one compact ResultSet per line. Listing reads the header only (the
 * start of the stream), never the runs.
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
  return gzipSync(serializeResultSet(set), { level: 9 });
}

export function decodeRun(bytes: Buffer, file: string, validate: ValidateResultSet): ResultSet {
  return validate(parseJson(gunzip(bytes, file), file), file);
}

/** A month file holding `runs` (the caller orders them). */
export function encodeMonth(key: MonthKey, runs: readonly MonthLine[]): Buffer {
  const header: MonthHeader = { schema: MONTH_SCHEMA, testbed: key.testbed, month: key.month, runs: runs.map((r) => ({ commit: r.commit, runId: r.runId })) };
  const lines = [JSON.stringify(header), ...runs.map((r) => r.json)];
  return gzipSync(`${lines.join('\n')}\n`, { level: 9 });
}

/** Every run of a month file, each validated. */
export function decodeMonth(bytes: Buffer, file: string, validate: ValidateResultSet): { header: MonthHeader; runs: MonthRun[] } {
  const lines = gunzip(bytes, file).split('\n');
  if (lines.at(-1) === '') lines.pop();
  const header = checkHeader(parseJson(lines[0] ?? '', file), file);
  if (lines.length !== header.runs.length + 1) {
    throw new InputError(file, `the header names ${header.runs.length} runs but the file holds ${lines.length - 1}`);
  }
  const runs = header.runs.map((r, i) => ({ ...r, set: validate(parseJson(lines[i + 1]!, file, i + 2), `${file} (run ${r.runId})`) }));
  return { header, runs };
}

/**
 * The header of a month file from a prefix of its bytes: gunzip with a sync
 * flush accepts a truncated stream and returns what it could inflate.
 * `undefined` when the prefix does not yet hold the whole first line (the
 * caller reads more).
 */
export function decodeMonthHeader(prefix: Buffer, file: string, complete: boolean): MonthHeader | undefined {
  let text: string;
  try {
    text = gunzipSync(prefix, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
  } catch (error) {
    throw new InputError(file, `not a readable gzip file (${(error as Error).message})`);
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
