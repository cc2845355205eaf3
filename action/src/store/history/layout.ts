import { randomBytes } from 'node:crypto';
import { InputError } from '../../model/index.js';

/**
 * Where a run lives in the history store. The path alone identifies a run
 * (testbed, month, commit, run id, creation time), so listing a store reads
 * names, never file contents, and two writers never choose the same path:
 *
 *     <testbed>/<yyyy>/<mm>/<commit>-<run-id>.json.gz   one run (gzip'd ResultSet, samples packed)
 *     <testbed>/<yyyy>/<mm>/month.json.br               a compacted month (all its runs, brotli'd)
 *
 * The run id is `<yyyymmddThhmmssZ>-<12 hex digits>`: the run's creation time
 * to the second, then 48 random bits, so ids sort by time and never collide.
 */

/** A run as the store lists it: enough to select a baseline without reading the run. */
export interface HistoryEntry {
  /** The testbed id: another testbed's runs are never mixed in. */
  testbed: string;
  /** Full hexadecimal commit id of the measured commit. */
  commit: string;
  /** Unique per append, e.g. "20261121T120000Z-3f9a0c1b2d4e". */
  runId: string;
  /** The run's creation time to the second (ISO 8601, UTC), taken from the run id. */
  created: string;
  /** The store-relative file that holds the run: its own file, or its month's file. */
  file: string;
}

/** A month of one testbed: the folder `<testbed>/<yyyy>/<mm>`. */
export interface MonthKey {
  testbed: string;
  /** "yyyy-mm" (UTC). */
  month: string;
}

export const RUN_SUFFIX = '.json.gz';
export const MONTH_FILE = 'month.json.br';

const TESTBED = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const RUN_ID = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-[0-9a-f]{12}$/;
const RUN_FILE = /^([0-9a-f]{40}|[0-9a-f]{64})-(\d{8}T\d{6}Z-[0-9a-f]{12})\.json\.gz$/;

/** Rejects a testbed id that cannot be a single folder name (it becomes a path component). */
export function checkTestbed(testbed: string, source: string): string {
  if (!TESTBED.test(testbed)) {
    throw new InputError(
      source,
      `testbed id ${JSON.stringify(testbed)} cannot name a history folder: expected letters, digits, ".", "_" or "-" (at most 128, not starting with "." or "-")`,
      undefined,
      'testbed.id',
    );
  }
  return testbed;
}

/** Rejects anything but a full commit id: selection compares full ids, an abbreviation would never match. */
export function checkCommit(commit: string, source: string): string {
  if (!COMMIT.test(commit))
    throw new InputError(source, `expected a full commit id (40 or 64 lowercase hex digits), found ${JSON.stringify(commit)}`, undefined, 'commit');
  return commit;
}

/** A new run id for a run created at `created`; `random` is injectable so tests can be deterministic. */
export function newRunId(created: Date, random: () => Buffer = () => randomBytes(6)): string {
  const stamp = created
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${random().toString('hex').slice(0, 12).padEnd(12, '0')}`;
}

/** The creation time (ISO 8601, to the second) encoded in a run id. */
export function createdOfRunId(runId: string): string {
  const m = RUN_ID.exec(runId);
  if (!m) throw new Error(`not a run id: ${runId}`);
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`;
}

/** "yyyy-mm" of a time, in UTC (the month folder a run created then goes to). */
export function monthOf(time: Date | string): string {
  return (typeof time === 'string' ? time : time.toISOString()).slice(0, 7);
}

/** The folder of a month: `<testbed>/<yyyy>/<mm>`. */
export function monthFolder(key: MonthKey): string {
  return `${key.testbed}/${key.month.slice(0, 4)}/${key.month.slice(5, 7)}`;
}

/** The file of one run. */
export function runPath(testbed: string, commit: string, runId: string): string {
  return `${monthFolder({ testbed, month: monthOf(createdOfRunId(runId)) })}/${commit}-${runId}${RUN_SUFFIX}`;
}

/** The compacted file of a month. */
export function monthPath(key: MonthKey): string {
  return `${monthFolder(key)}/${MONTH_FILE}`;
}

/** What a store-relative path holds; undefined for anything else (temporary files, stray files). */
export type ParsedPath = { kind: 'run'; entry: HistoryEntry } | { kind: 'month'; key: MonthKey; file: string };

export function parsePath(path: string): ParsedPath | undefined {
  const parts = path.split('/');
  if (parts.length !== 4) return undefined;
  const [testbed, year, month, name] = parts as [string, string, string, string];
  if (!TESTBED.test(testbed) || !/^\d{4}$/.test(year) || !/^(0[1-9]|1[0-2])$/.test(month)) return undefined;
  if (name === MONTH_FILE) return { kind: 'month', key: { testbed, month: `${year}-${month}` }, file: path };
  const m = RUN_FILE.exec(name);
  if (!m) return undefined;
  const runId = m[2]!;
  const created = createdOfRunId(runId);
  // A run filed under another month than its id says was not written by this store.
  if (monthOf(created) !== `${year}-${month}`) return undefined;
  return { kind: 'run', entry: { testbed, commit: m[1]!, runId, created, file: path } };
}

/** Whether a month ("yyyy-mm") may hold runs created at or after `since`. */
export function monthMayHoldSince(month: string, since: Date | undefined): boolean {
  return since === undefined || month >= monthOf(since);
}

/** Orders entries by creation, then run id: the order runs are pooled and listed in. */
export function byCreation(a: HistoryEntry, b: HistoryEntry): number {
  return a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : a.testbed < b.testbed ? -1 : a.testbed > b.testbed ? 1 : 0;
}
