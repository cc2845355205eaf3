/**
 * `perf-gate merge`'s work: the ResultSets of matrix shards (files, or
 * folders searched for them) combined into one by store/'s merge rules and
 * written atomically.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseJsonText } from '../../adapters/json-text.js';
import { resultSetAdapter, validateResultSet } from '../../adapters/result-set.js';
import { InputError, RESULT_SET_SCHEMA, type ResultSet } from '../../model/index.js';
import { mergeResultSets, serializeResultSet, writeFileAtomic, type MergeInput } from '../../store/index.js';

export interface MergedShards {
  set: ResultSet;
  /** How many files were merged. */
  files: number;
  warnings: string[];
}

/** Merges the ResultSets the paths name into `out` (absolute); a previous merge's output inside a scanned folder is not a shard. */
export function mergeShards(paths: readonly string[], out: string, cwd: string): MergedShards {
  const inputs = paths.flatMap((p) => readResultSets(p, cwd, out));
  const { set, warnings } = mergeResultSets(inputs);
  writeFileAtomic(out, serializeResultSet(set));
  return { set, files: inputs.length, warnings };
}

/** The ResultSets named by a path: the file itself, or every ResultSet JSON file below a folder (sorted). */
function readResultSets(given: string, cwd: string, exclude: string): MergeInput[] {
  const path = resolve(cwd, given);
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new InputError(given, 'no such file or folder');
  }
  if (!isDir) return [readOne(path, given)];
  const found = listJson(path)
    .filter((file) => file !== exclude)
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
    .filter(({ file, text }) => resultSetAdapter.detect({ path: file, text, readRelated: () => undefined }).match)
    .map(({ file, text }) => parse(text, relative(cwd, file) || file));
  if (found.length === 0) throw new InputError(given, `the folder holds no ${RESULT_SET_SCHEMA} JSON files`);
  return found;
}

function readOne(path: string, shown: string): MergeInput {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(shown, `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return parse(text, shown);
}

function parse(text: string, file: string): MergeInput {
  return { file, set: validateResultSet(parseJsonText(text, file, `a ${RESULT_SET_SCHEMA} JSON file`), file, text) };
}

function listJson(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => {
      const p = join(dir, e.name);
      if (e.isDirectory()) return e.name.startsWith('.') ? [] : listJson(p);
      return e.isFile() && e.name.endsWith('.json') ? [p] : [];
    });
}
