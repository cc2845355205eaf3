import { parseQuantity } from '../model/index.js';
import { countToFile, defaultDeps, EXIT, prepareOutputPaths, UsageError, type Command } from '../pipeline/index.js';
import { commandNames, parseFlags, wholeNumberFlag } from './args.js';

const USAGE = `Usage: perf-gate count --export-json FILE [--repeat N] [--timeout 60s] --command CMD... [--name NAME...]

Counts instead of timing: runs each command --repeat times (default 3) under
valgrind's cachegrind ("valgrind --tool=cachegrind --cache-sim=yes
--trace-children=yes ... sh -c CMD", the shell itself left out of the count)
and writes a perf-gate ResultSet: one benchmark per command, named by the
command or by --name (one name per command, in order), with instructions, l1_misses, ll_misses and estimated_cycles, each
repeat a sample. Counts barely move between runs where wall time drifts by
percents; they cannot see waiting (I/O, locks, sleep). --timeout is per run
and must cover valgrind's slowdown (a start-up of seconds per process, then
many times the program's own time). Exits 1 when a command
failed (a failed row in the file), 2 when valgrind is not installed.
See docs/counting.md.`;

export const countCommand: Command = {
  name: 'count',
  summary: 'count instructions and cache misses of commands under valgrind (no drift) and write a ResultSet',
  usage: USAGE,
  async run(argv, ctx) {
    const flags = parseFlags(argv, { 'export-json': 'string', repeat: 'string', timeout: 'string', command: 'list', name: 'list' });
    if (flags['export-json'] === undefined) throw new UsageError('--export-json is required');
    if (!flags.command) throw new UsageError('--command is required');
    const names = commandNames(flags.command, flags.name);
    const repeats = wholeNumberFlag(flags.repeat, 'repeat', 3, 1);
    const timeout = parseQuantity(flags.timeout ?? '60s');
    if (!timeout || timeout.dimension !== 'time' || timeout.value <= 0)
      throw new UsageError(`--timeout takes a duration such as 60s, found "${flags.timeout}"`);
    prepareOutputPaths([{ flag: '--export-json', path: flags['export-json'], kind: 'file' }], ctx.cwd);
    const testbed = defaultDeps().testbed(ctx.env);
    const set = await countToFile(
      {
        commands: flags.command,
        repeats,
        cwd: ctx.cwd,
        env: ctx.env,
        timeoutMs: timeout.value * 1000,
        created: ctx.now().toISOString(),
        ...(testbed ? { testbed } : {}),
        ...(names ? { names } : {}),
      },
      flags['export-json'],
    );
    for (const b of set.benchmarks) {
      if (b.status === 'failed') ctx.stderr(`perf-gate count: "${b.id}" ${b.error?.message ?? 'failed'}\n`);
      else ctx.stdout(`perf-gate count: "${b.id}": ${describeInstructions(b.metrics['instructions']?.samples ?? [])}\n`);
    }
    return set.benchmarks.some((b) => b.status === 'failed') ? EXIT.fail : EXIT.pass;
  },
};

/** "738,743 instructions (3 repeats, spread 0.0004 %)": what a user checks first. */
function describeInstructions(samples: readonly number[]): string {
  if (samples.length === 0) return 'no instruction count';
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const spread = median > 0 ? ((sorted[sorted.length - 1]! - sorted[0]!) / median) * 100 : 0;
  return `${median.toLocaleString('en-US')} instructions (${samples.length} repeat${samples.length === 1 ? '' : 's'}, spread ${spread.toPrecision(2)} %)`;
}
