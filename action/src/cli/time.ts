import { parseQuantity } from '../model/index.js';
import { EXIT, prepareOutputPaths, timeToFile, UsageError, type Command } from '../pipeline/index.js';
import { commandNames, parseFlags, wholeNumberFlag } from './args.js';

const USAGE = `Usage: perf-gate time --export-json FILE [--runs N] [--warmup N] [--timeout 60s] --command CMD... [--name NAME...]

perf-gate's own timer, for machines without hyperfine: runs each command
--warmup times, then --runs times (fresh "sh -c" processes), and writes
hyperfine-compatible JSON. Each benchmark is named by its command, or by
--name (one name per command, in order, like hyperfine's -n). Exits 1 when a
command exited non-zero.`;

export const timeCommand: Command = {
  name: 'time',
  summary: 'time commands (a hyperfine-compatible fallback) and write JSON',
  usage: USAGE,
  async run(argv, ctx) {
    const flags = parseFlags(argv, { 'export-json': 'string', runs: 'string', warmup: 'string', timeout: 'string', command: 'list', name: 'list' });
    if (flags['export-json'] === undefined) throw new UsageError('--export-json is required');
    if (!flags.command) throw new UsageError('--command is required');
    const names = commandNames(flags.command, flags.name);
    const timeout = parseQuantity(flags.timeout ?? '60s');
    if (!timeout || timeout.dimension !== 'time' || timeout.value <= 0)
      throw new UsageError(`--timeout takes a duration such as 60s, found "${flags.timeout}"`);
    prepareOutputPaths([{ flag: '--export-json', path: flags['export-json'], kind: 'file' }], ctx.cwd);
    const data = timeToFile(
      {
        commands: flags.command,
        runs: wholeNumberFlag(flags.runs, 'runs', 10, 1),
        warmup: wholeNumberFlag(flags.warmup, 'warmup', 1, 0),
        cwd: ctx.cwd,
        env: ctx.env,
        timeoutMs: timeout.value * 1000,
      },
      flags['export-json'],
      names,
    );
    const failed = data.results.filter((r) => r.exit_codes.some((c) => c !== 0));
    for (const r of failed) ctx.stderr(`perf-gate time: "${r.command}" exited non-zero (exit codes ${[...new Set(r.exit_codes)].join(', ')})\n`);
    return failed.length > 0 ? EXIT.fail : EXIT.pass;
  },
};
