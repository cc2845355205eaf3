import { resolve } from 'node:path';
import { RESULT_SET_SCHEMA } from '../model/index.js';
import { EXIT, mergeShards, prepareOutputPaths, UsageError, type Command } from '../pipeline/index.js';

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
    if (out === undefined) throw new UsageError('--out FILE is required');
    if (paths.length === 0) throw new UsageError('name at least one ResultSet file or folder');
    prepareOutputPaths([{ flag: '--out', path: out, kind: 'file' }], ctx.cwd);
    const outPath = resolve(ctx.cwd, out);
    const { set, files, warnings } = mergeShards(paths, outPath, ctx.cwd);
    for (const w of warnings) ctx.stderr(`perf-gate merge: warning: ${w}\n`);
    ctx.stdout(`perf-gate merge: ${set.benchmarks.length} benchmark(s) from ${files} file(s) → ${out}\n`);
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
