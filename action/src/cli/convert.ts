import { convertResults, EXIT, prepareOutputPaths, UsageError, writeOutputFile, type Command } from '../pipeline/index.js';
import { parseFlags } from './args.js';

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
    prepareOutputPaths([{ flag: '--out', path: flags.out, kind: 'file' }], ctx.cwd);
    const { text, leftOut } = convertResults(flags.input, flags.to, { cwd: ctx.cwd, created: ctx.now().toISOString(), format: flags.format ?? 'auto' });
    if (leftOut.length > 0) {
      ctx.stderr(
        `perf-gate convert: warning: ${leftOut.length} failed benchmark(s) cannot be expressed in BMF and were left out: ${leftOut.map((b) => b.id).join(', ')}\n`,
      );
    }
    if (flags.out !== undefined) writeOutputFile(ctx.cwd, flags.out, text, '--out', ctx.stdout);
    else ctx.stdout(text);
    return EXIT.pass;
  },
};
