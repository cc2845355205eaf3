import { resolve } from 'node:path';
import {
  conventionalBudgets,
  defaultDeps,
  gateOptions,
  historyStart,
  prepareOutputs,
  publishToTerminal,
  readBudgets,
  runGate,
  UsageError,
  verdictExit,
  type Command,
  type StoreAt,
} from '../pipeline/index.js';
import { parseFlags } from './args.js';

const USAGE = `Usage: perf-gate compare --current PATH... [--baseline PATH... | --history DIR [--base REF] [--testbed ID]]
                         [--budgets PATH...] [--format NAME] [--name NAME] [--json FILE] [--markdown FILE]
                         [--testbed-mismatch flag|compare|refuse]

Compares benchmark results with a baseline and the budgets, prints the regression
table, and exits 0 (pass), 1 (fail: regression, exceeded budget, failed benchmark)
or 2 (unusable input).

  --current PATH...     harness output files, folders of them, or ResultSets
  --baseline PATH...    the same, for the baseline; without it (or a history)
                        every row is "new" and only the budgets decide
  --history DIR         choose the baseline from this run history: the runs of
                        the merge base of the current commit with the base
                        branch, on the current results' testbed
  --base REF            with --history: the runs of REF (or its nearest
                        first-parent ancestor that has one) instead
  --testbed ID          with --history: whose runs to use (default: the
                        current results' testbed, else this machine's)
  --budgets PATH...     budget files or folders (default: ./budgets when present)
  --format NAME         the harness format of the inputs (default: auto-detect)
  --name NAME           the benchmark's name for files that do not name it
                        (perf stat, strace, vegeta, hey, h2load, oha; default:
                        the file's name, so two files of one benchmark differ)
  --json FILE           write the JSON report
  --markdown FILE       write the Markdown report (a PR comment body)
  --testbed-mismatch    results from different testbeds: flag (default: shown,
                        regressions do not fail), compare (they fail), refuse (exit 2)`;

export const compareCommand: Command = {
  name: 'compare',
  summary: 'compare results with a baseline and budgets, print the regression table',
  usage: USAGE,
  async run(argv, ctx) {
    const flags = parseFlags(argv, {
      current: 'list',
      baseline: 'list',
      budgets: 'list',
      format: 'string',
      name: 'string',
      json: 'string',
      markdown: 'string',
      'testbed-mismatch': 'string',
      history: 'string',
      base: 'string',
      testbed: 'string',
    });
    if (flags.history !== undefined && flags.baseline) throw new UsageError('--history chooses the baseline itself; it cannot be combined with --baseline');
    for (const flag of ['base', 'testbed'] as const) {
      if (flags[flag] !== undefined && flags.history === undefined) throw new UsageError(`--${flag} chooses runs from a history: give --history DIR`);
    }
    if (!flags.current) throw new UsageError('--current is required');
    const mismatch = flags['testbed-mismatch'] ?? 'flag';
    if (mismatch !== 'flag' && mismatch !== 'compare' && mismatch !== 'refuse')
      throw new UsageError(`--testbed-mismatch takes flag, compare or refuse, found "${mismatch}"`);
    const outputs = { json: flags.json, markdown: flags.markdown };
    prepareOutputs(outputs, ctx.cwd);
    const read = { cwd: ctx.cwd, created: ctx.now().toISOString(), format: flags.format ?? 'auto', ...(flags.name !== undefined ? { name: flags.name } : {}) };
    const history = flags.history !== undefined ? resolve(ctx.cwd, flags.history) : undefined;
    const store: StoreAt | null =
      history === undefined
        ? null
        : { history: { folder: history }, repo: ctx.cwd, start: await historyStart(ctx.cwd, { ...(flags.base !== undefined ? { base: flags.base } : {}) }) };
    const { report } = await runGate(
      {
        current: { files: flags.current, read },
        store,
        // The history holds the runs of the current results' testbed (else this machine's), from the current commit's point of view.
        baseline: {
          paths: flags.baseline ?? [],
          read,
          query: { ...(flags.testbed !== undefined ? { testbed: flags.testbed } : {}), machineTestbed: true },
        },
        budgets: readBudgets(flags.budgets, conventionalBudgets(ctx.cwd), ctx.cwd),
        options: gateOptions(mismatch),
        labels: {
          baselineInput: history ? '--history' : '--baseline',
          ...(history ? {} : { baselineSource: (source: string) => `--baseline ${source}` }),
          current: `--current ${flags.current.join(' ')}`,
        },
        record: null,
      },
      { env: ctx.env, write: ctx.stdout, now: ctx.now, deps: defaultDeps(), cleanups: [] },
      {
        onBaseline: (baseline) => {
          if (baseline && store) ctx.stdout(`perf-gate: baseline: ${baseline.source}\n`);
        },
        onNoBaseline: (text) => ctx.stdout(`perf-gate: ${text}\n`),
      },
    );
    publishToTerminal(report, outputs, ctx);
    return verdictExit(report);
  },
};
