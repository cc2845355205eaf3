/**
 * Reading every file of a history to find the ones that do not decode
 * (`perf-gate history verify`), and the words a skipped file is named with.
 */
import { InputError } from '../../model/index.js';
import type { Backend } from './backend.js';
import { decodeMonth, decodeMonthHeader, decodeRun, type ValidateResultSet } from './codec.js';
import { groupByMonth } from './compact.js';
import { parsePath, type HistoryEntry } from './layout.js';

/** A history file that does not decode, and the runs it held as far as its name or header says. */
export interface UnreadableFile {
  file: string;
  /** Run ids the file holds (empty when even its header is unreadable). */
  runIds: string[];
  problem: string;
  /** Only the runs named are unreadable (lines of a month file); the file's other runs read, and removing the runs keeps them. */
  runsOnly?: boolean;
}

/** Every file of the store (or of one testbed) read; those that do not decode, with the runs their name or header says they held. */
export async function verifyFiles(
  backend: Backend,
  validate: ValidateResultSet,
  query: { testbed?: string } = {},
): Promise<{ files: number; runs: number; unreadable: UnreadableFile[] }> {
  const v = await backend.snapshot();
  const months = groupByMonth(await v.paths(query.testbed));
  const found: UnreadableFile[] = [];
  let files = 0;
  let runs = 0;
  for (const month of months) {
    for (const file of [...month.runs.map((r) => r.file), ...(month.monthFile !== undefined ? [month.monthFile] : [])]) {
      files++;
      const b = (await v.read([file])).get(file);
      if (b === undefined) continue;
      try {
        if (file === month.monthFile) {
          const decoded = decodeMonth(b, file, validate);
          runs += decoded.runs.length;
          // One bad run is named alone; the month's other runs are read.
          for (const bad of decoded.unreadable) found.push({ file, runIds: [bad.runId], problem: problemOf(bad.error, file), runsOnly: true });
        } else runs += (decodeRun(b, file, validate), 1);
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        const ids =
          file === month.monthFile ? headerRunIds(b, file) : [parsePath(file)?.kind === 'run' ? (parsePath(file) as { entry: HistoryEntry }).entry.runId : ''];
        found.push({ file, runIds: ids.filter((id) => id !== ''), problem: problemOf(error, file) });
      }
    }
  }
  return { files, runs, unreadable: found };
}

/** What is wrong with `file`, without naming it again when the error already is about it. */
export function problemOf(error: InputError, file: string): string {
  if (error.file !== file && !error.file.startsWith(`${file} (run `)) return error.message;
  return [error.line !== undefined ? `line ${error.line}` : '', error.key ?? '', error.detail].filter((part) => part !== '').join(': ');
}

/** The run ids a damaged month file's header still names (none when the header is unreadable too). */
export function headerRunIds(bytes: Buffer, file: string): string[] {
  try {
    return readHeader(bytes, file).runs.map((r) => r.runId);
  } catch {
    return [];
  }
}

/** A month file's header, reading as little of it as it takes. */
export function readHeader(bytes: Buffer, file: string) {
  for (let size = 64 * 1024; ; size *= 2) {
    const complete = size >= bytes.length;
    const header = decodeMonthHeader(complete ? bytes : bytes.subarray(0, size), file, complete);
    if (header !== undefined) return header;
  }
}
