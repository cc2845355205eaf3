import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { resultSetAdapter, validateResultSet } from '../adapters/result-set.js';
import { parseJsonText } from '../adapters/json-text.js';
import { InputError, RESULT_SET_SCHEMA } from '../model/index.js';
import { mergeResultSets, type MergeInput } from '../store/merge.js';
import { serializeResultSet, writeFileAtomic } from '../store/index.js';
import { EXIT, UsageError, type Command } from './command.js';

const USAGE = `Usage: perf-gate merge --out FILE RESULTSET...

Combines the ResultSets of matrix shards (the results.json that
perf-gate run --shard i/n --out DIR writes) into one, e.g. the downloaded artifacts of a matrix job. A RESULTSET is a file
or a folder searched for ${RESULT_SET_SCHEMA} JSON files. A benchmark id in two
inputs with different results is an error naming both files; shards measured
on different testbeds are merged under a "mixed-…" testbed id, with a warning.`;

export const mergeCommand: Command = {
  name: 'merge',
  summary: 'combine the ResultSets of matrix shards into one',
  usage: USAGE,
  async run(argv, ctx) {
    const { out, paths } = splitArgs(argv);
    if (!out) throw new UsageError('--out FILE is required');
    if (paths.length === 0) throw new UsageError('name at least one ResultSet file or folder');
    const outPath = resolve(ctx.cwd, out);
    // A previous merge's output inside a scanned folder is not a shard.
    const inputs = paths.flatMap((p) => readResultSets(p, ctx.cwd, outPath));
    const { set, warnings } = mergeResultSets(inputs);
    for (const w of warnings) ctx.stderr(`perf-gate merge: warning: ${w}\n`);
    writeFileAtomic(outPath, serializeResultSet(set));
    ctx.stdout(`perf-gate merge: ${set.benchmarks.length} benchmark(s) from ${inputs.length} file(s) → ${out}\n`);
    return EXIT.pass;
  },
};

/** `--out FILE` (or `--out=FILE`) anywhere, every other word a path; unknown options are usage errors. */
function splitArgs(argv: readonly string[]): { out: string | undefined; paths: string[] } {
  let out: string | undefined;
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--out') {
      out = argv[++i];
      if (out === undefined || out.startsWith('--')) throw new UsageError('--out needs a file name');
    } else if (word.startsWith('--out=')) out = word.slice('--out='.length);
    else if (word.startsWith('--')) throw new UsageError(`unknown option ${word}`);
    else paths.push(word);
  }
  return { out, paths };
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
