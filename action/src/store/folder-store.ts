import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, type ResultSet } from '../model/index.js';
import type { BaselineQuery, BaselineStore, ChosenBaseline, RecordedPart, ResultSetReader } from './baseline-store.js';
import { writeResultSet } from './result-set-file.js';

export interface FolderStoreOptions {
  /** The folder perf-gate.yml's `baselines:` names (absolute). */
  dir: string;
  read: ResultSetReader;
  /** The file and key that configured the folder, named when it cannot be created. */
  configuredIn: { file: string; key: string };
}

/**
 * The first BaselineStore: one folder holding the latest baseline, as
 * `results.json` or one `results.shard-i-of-n.json` per shard (read back
 * together as one run). It keeps no history, so the query's commit and
 * testbed do not choose anything here; the gate flags a different testbed.
 */
export function folderStore(options: FolderStoreOptions): BaselineStore {
  const { dir, read, configuredIn } = options;
  return {
    location: dir,

    async checkWritable() {
      try {
        mkdirSync(dir, { recursive: true });
      } catch (error) {
        throw new InputError(
          configuredIn.file,
          `cannot create the baselines folder ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
          undefined,
          configuredIn.key,
        );
      }
    },

    async select(_query: BaselineQuery): Promise<ChosenBaseline | undefined> {
      if (!hasFiles(dir)) return undefined;
      return { results: read([dir]), source: dir };
    },

    async record(results: ResultSet, part: RecordedPart): Promise<string> {
      const path = join(dir, baselineFileName(part));
      writeResultSet(path, results);
      return path;
    },
  };
}

/**
 * `results.json`, or `results.shard-i-of-n.json` for a shard, so parallel
 * runners never overwrite each other.
 */
export function baselineFileName(part: RecordedPart): string {
  return part.shard ? `results.shard-${part.shard.index}-of-${part.shard.count}.json` : 'results.json';
}

/** True when the folder exists and holds something besides hidden entries (an interrupted write's temporary file). */
function hasFiles(dir: string): boolean {
  try {
    return readdirSync(dir).some((n) => !n.startsWith('.'));
  } catch {
    return false;
  }
}
