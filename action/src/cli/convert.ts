import { resolve } from 'node:path';
import { readInputs } from '../adapters/index.js';
import { serializeResultSet, toBmf, writeFileAtomic } from '../store/index.js';
import { parseFlags } from './args.js';
import { EXIT, UsageError, type Command } from './command.js';

const USAGE = `Usage: perf-gate convert --to bmf|resultset --input PATH... [--format NAME] [--out FILE]

Reads harness output (or ResultSets) and writes it as Bencher Metric Format
(bmf) or as a perf-gate ResultSet, to --out or standard output.`;

export const convertCommand: Command = {
  name: 'convert',
  summary: 'convert harness output to Bencher Metric Format or a ResultSet',
  usage: USAGE,
  async run(argv, ctx) {
    const flags = parseFlags(argv, { to: 'string', input: 'list', format: 'string', out: 'string' });
    if (flags.to !== 'bmf' && flags.to !== 'resultset') throw new UsageError('--to takes bmf or resultset');
    if (!flags.input) throw new UsageError('--input is required');
    const { resultSet } = readInputs(flags.input, { cwd: ctx.cwd, created: ctx.now().toISOString(), format: flags.format ?? 'auto' });
    const failed = resultSet.benchmarks.filter((b) => b.status === 'failed');
    if (flags.to === 'bmf' && failed.length > 0) {
      ctx.stderr(`perf-gate convert: warning: ${failed.length} failed benchmark(s) cannot be expressed in BMF and were left out: ${failed.map((b) => b.id).join(', ')}\n`);
    }
    const text = flags.to === 'bmf' ? `${JSON.stringify(toBmf(resultSet), null, 2)}\n` : serializeResultSet(resultSet);
    if (flags.out) writeFileAtomic(resolve(ctx.cwd, flags.out), text);
    else ctx.stdout(text);
    return EXIT.pass;
  },
};
