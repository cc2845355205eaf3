import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../model/index.js';
import { describeFsError, writeFileAtomic } from '../result-set-file.js';
import type { Backend, Change, Planner, Snapshot } from './backend.js';
import type { ValidateResultSet } from './codec.js';
import { historyStore, type HistoryStore } from './history-store.js';

/** The default history folder on the command line, relative to the repository. */
export const DEFAULT_HISTORY_FOLDER = '.perf-gate/history';

/**
 * The history in a local folder. Every file is written through the atomic
 * writer (temporary file, fsync, rename), so a reader or a killed writer
 * never leaves half a file under a real name; a killed writer leaves at most
 * a hidden temporary file, which listing ignores. Appends never share a
 * path, so any number of processes may append at once. Compaction and
 * pruning replace month files, so they take `<root>/.lock` (created
 * exclusively) and refuse to run beside each other.
 *
 * Compaction writes the month file first and removes the single-run files
 * after: a crash in between leaves a run in both forms, which listing counts
 * once and the next compaction finishes.
 */
export function folderBackend(root: string): Backend {
  const view: Snapshot = {
    async paths(testbed) {
      const tops = testbed !== undefined ? [testbed] : subfolders(root);
      const out: string[] = [];
      for (const t of tops) {
        for (const y of subfolders(join(root, t))) {
          for (const m of subfolders(join(root, t, y))) {
            for (const name of entries(join(root, t, y, m))) out.push(`${t}/${y}/${m}/${name}`);
          }
        }
      }
      return out;
    },
    async read(paths) {
      const out = new Map<string, Buffer | undefined>();
      for (const p of paths) {
        try {
          out.set(p, readFileSync(join(root, p)));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          out.set(p, undefined);
        }
      }
      return out;
    },
  };

  return {
    description: root,
    async snapshot() {
      return view;
    },
    async apply(plan: Planner, { exclusive }): Promise<Change | undefined> {
      const release = exclusive ? lock(join(root, '.lock')) : () => undefined;
      try {
        const change = await plan(view);
        if (change === undefined) return undefined;
        for (const { path, bytes } of change.add) writeHistoryFile(join(root, path), bytes);
        for (const path of change.remove) rmSync(join(root, path), { force: true });
        return change;
      } finally {
        release();
      }
    },
  };
}

/**
 * One history file, atomically; a file system that refuses it (full, read
 * only, no permission) is an InputError naming the file, and the store is as
 * it was: the temporary file is gone and no other file was touched.
 */
function writeHistoryFile(path: string, bytes: Uint8Array): void {
  try {
    writeFileAtomic(path, bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === undefined) throw error;
    throw new InputError(path, `cannot write this history file: ${describeFsError(error)}; the history is unchanged`);
  }
}

function subfolders(dir: string): string[] {
  return entries(dir).filter((name) => !name.startsWith('.') && statSync(join(dir, name)).isDirectory());
}

function entries(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort();
}

/** Takes an exclusive lock file; a lock left by a killed process must be removed by hand (its message says where). */
function lock(path: string): () => void {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      mkdirSync(join(path, '..'), { recursive: true });
      return lock(path);
    }
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new InputError(
      path,
      `${lockHolder(path)} holds this history's lock for compacting, pruning or removing runs; if no perf-gate is running, a killed one left it: remove it with rm ${JSON.stringify(path)}`,
    );
  }
  writeSync(fd, `${process.pid} ${new Date().toISOString()}\n`);
  closeSync(fd);
  return () => rmSync(path, { force: true });
}

/** Who wrote the lock file ("process 1234 (not running) since …"), from its one line. */
function lockHolder(path: string): string {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return 'another process';
  }
  const [pid, since] = text.trim().split(' ');
  const n = Number(pid);
  if (!Number.isInteger(n) || n <= 0) return 'another process';
  let alive = true;
  try {
    process.kill(n, 0);
  } catch (error) {
    alive = (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return `process ${n}${alive ? '' : ' (no longer running on this machine)'}${since ? ` since ${since}` : ''}`;
}

/** The history in the folder `root` (created on the first append). */
export function folderHistory(root: string, validate: ValidateResultSet): HistoryStore {
  return historyStore(folderBackend(root), validate);
}
