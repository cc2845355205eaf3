import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { InputError, type ResultSet } from '../model/index.js';

/**
 * Writes text so that readers see either the old file or the whole new one,
 * never half of it: write to a temporary file in the same folder, fsync, then
 * rename over the target (atomic on POSIX file systems). Stored baselines and
 * history files (gzip'd bytes) are written only through here.
 */
export function writeFileAtomic(path: string, text: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${process.pid}.${Date.now()}.tmp-${Math.random().toString(36).slice(2)}`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'w', 0o644);
    if (typeof text === 'string') writeSync(fd, text);
    else writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
}

/** What a file-system error code means, in words a user can act on. */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENAMETOOLONG':
      return 'name too long';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a part of the path is a file, expected a folder';
    case 'EISDIR':
      return 'is a folder, expected a file';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'ENOENT':
      return 'cannot be created there (ENOENT: the place does not take new files)';
    default:
      return `cannot be written (${code ?? String(error)})`;
  }
}

/** Serialises a ResultSet the way baselines are stored: stable key order, 2-space indent, final newline. */
export function serializeResultSet(set: ResultSet): string {
  return `${JSON.stringify(set, null, 2)}\n`;
}

/** Stores a ResultSet atomically (a baseline is never half-written). */
export function writeResultSet(path: string, set: ResultSet): void {
  writeFileAtomic(path, serializeResultSet(set));
}

/**
 * A writer holds itself to its reader's rule: `read` is the reader, run on
 * what is about to be written; a run the reader would refuse is refused here,
 * before anything is written, with the reader's words and the field it names.
 * Otherwise every later run would skip it as unreadable, and a pull request
 * would find no baseline.
 */
export function refuseUnreadable(read: () => unknown, where: string): void {
  try {
    read();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(where, `perf-gate will not store a run its own reader refuses: ${error.detail}`, undefined, error.key);
  }
}
