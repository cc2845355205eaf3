import { resolve } from 'node:path';
import {
  DEFAULT_DRIFT_WINDOW,
  defaultDeps,
  EXIT,
  historyLocation,
  historyNoise,
  importHistory,
  openHistoryAt,
  prepareOutputPaths,
  readConfigIfPresent,
  readResults,
  recordRun,
  runsNamed,
  UsageError,
  type Command,
  noiseText,
  runListText,
  type RunDeps,
  type CliContext,
  type HistoryStore,
} from '../pipeline/index.js';
import { DEFAULT_BUDGET_DEFAULTS, InputError, parseQuantity } from '../model/index.js';
import { compactHistory, printSkipped, removeFromHistory, verifyHistory } from './history-maintenance.js';
import { changesMarkdown, changesText, historyChanges, readPreviousChanges, sinceRun } from '../pipeline/history/history-changes.js';
import { takesStdout, writeOutputFile } from '../pipeline/index.js';
import { parseFlagsAndWords } from './args.js';

const USAGE = `Usage: perf-gate history add [--history DIR] [--commit SHA] [--testbed ID] PATH...
       perf-gate history list [--history DIR] [--testbed ID]
       perf-gate history show [--history DIR] RUN
       perf-gate history changes [--history DIR] [--testbed ID] [--since REF|DATE]
                                 [--benchmark GLOB] [--previous FILE]
                                 [--json FILE] [--markdown FILE]
       perf-gate history noise [--history DIR] [--testbed ID] [--runs N] [--tolerance PCT]
       perf-gate history import [--history DIR] --testbed ID [--suite NAME]
                                [--bencher-branch B] [--bencher-testbed T] FILE
       perf-gate history prune [--history DIR] --before DATE
       perf-gate history compact [--history DIR] [--before DATE]
       perf-gate history verify [--history DIR] [--testbed ID]
       perf-gate history remove [--history DIR] RUN|FILE...

The run history: every run of the base branch, per testbed, one file per run
(see docs/history.md). compare and run choose their baseline from it with
--history (or history: in perf-gate.yml): the runs of the merge base.

  add     record the results in PATH (harness outputs, folders or ResultSets)
          as one run of a commit on a testbed; results identical to a run
          already recorded for that commit and testbed are not added again
  list    the runs, oldest first: created, testbed, commit, run id
  show    one run's ResultSet (JSON); RUN is a run id, or a commit (at least
          4 hex digits) that has exactly one run
  changes the change points of every benchmark × metric × testbed series
          (one point per run: its median, in the order of the commits'
          first-parent line), newest first: the commit range each step came
          in, its size with a 95 % interval, and its p-value (E-Divisive
          means with a t-test, as Apache Otava finds them)
  noise   the between-run drift each benchmark × metric shows in the newest
          runs of a testbed, the smallest change a comparison with a stored
          baseline can decide at that drift, and whether the tolerance can
          be gated (noisiest first)
  import  append the runs of github-action-benchmark's data.js or data.json
          (its gh-pages history) or of Bencher's perf export (bencher perf
          … JSON) as runs of their commits on testbed ID; importing the
          same file again adds nothing
  prune   remove the runs created before DATE (YYYY-MM-DD or an ISO time)
  compact turn every month before the month of DATE (default: the current
          month) into one file per testbed and month
  verify  read every file; list those that do not decode (exit 2 if any)
  remove  remove runs (a run id, or a commit with one run) or a damaged
          file, as verify and the readers' warnings name it

A file that does not decode is skipped by every reader, with a warning on
standard error that names it and the command that removes it.

  --history DIR   the history folder (default: history: in ./perf-gate.yml,
                  else .perf-gate/history)
  --commit SHA    add: the measured commit (default: the results' own, else HEAD)
  --testbed ID    the testbed (default: the results' own, else this machine's)
  --since REF     changes: only steps after REF (a commit or ref with a run
                  in the history) or after DATE (YYYY-MM-DD)
  --benchmark GLOB changes: only benchmarks whose id matches (\`parse/*\`)
  --previous FILE changes: compare with an earlier --json report of the same
                  history: each point is new, the same, or moved (from which
                  commit), and points no longer found are listed as gone
  --json FILE, --markdown FILE
                  changes: also write the change points as JSON or Markdown
                  (- for standard output)
  --runs N        noise: learn from the newest N runs (default 20)
  --tolerance PCT noise: the tolerance to check against (default 5%)
  --suite NAME    import: prefix the benchmark ids with NAME/ (the suite
                  of perf-gate.yml that measures them now)
  --bencher-branch B, --bencher-testbed T
                  import: the Bencher branch and testbed to read (slug or
                  name), when the export holds several
  --before DATE   prune: the oldest creation time to keep; compact: runs of
                  this month and later stay single files`;

const FLAGS = {
  history: 'string',
  commit: 'string',
  testbed: 'string',
  before: 'string',
  runs: 'string',
  tolerance: 'string',
  suite: 'string',
  'bencher-branch': 'string',
  'bencher-testbed': 'string',
  since: 'string',
  benchmark: 'string',
  json: 'string',
  markdown: 'string',
  previous: 'string',
} as const;

type Flags = Partial<Record<keyof typeof FLAGS, string>>;
const ACTIONS = 'add, list, show, changes, noise, import, prune, compact, verify or remove';

/** The `perf-gate history` command, with this machine's testbed injectable for tests. */
export function makeHistoryCommand(makeDeps: () => Pick<RunDeps, 'testbed'> = defaultDeps): Command {
  return {
    name: 'history',
    summary: 'record, list, show, verify and prune the run history that baselines are chosen from',
    usage: USAGE,
    async run(argv, ctx) {
      const [action, ...rest] = argv;
      const { flags, words } = parseFlagsAndWords(rest, FLAGS);
      // A --history that is written is checked like every output path (exit 2 naming it) before it is resolved.
      const writes = action === 'add' || action === 'prune' || action === 'import' || action === 'compact' || action === 'remove';
      if (flags.history !== undefined && writes) prepareOutputPaths([{ flag: '--history', path: flags.history, kind: 'folder' }], ctx.cwd);
      const location = historyLocation(flags.history, readConfigIfPresent('perf-gate.yml', ctx.cwd)?.history, ctx.cwd);
      // Only these write; reading a data branch needs no push access.
      const history = openHistoryAt(location, ctx.cwd, writes);
      try {
        return await runAction(action, flags, words, history, ctx);
      } finally {
        printSkipped(history, ctx);
      }
    },
  };

  async function runAction(action: string | undefined, flags: Flags, words: string[], history: HistoryStore, ctx: CliContext): Promise<number> {
    const only = (allowed: (keyof typeof FLAGS)[]): void => {
      const extra = (Object.keys(flags) as (keyof typeof FLAGS)[]).find((f) => !allowed.includes(f));
      if (extra) throw new UsageError(`history ${action} takes no --${extra}`);
    };
    switch (action) {
      case 'add': {
        only(['history', 'commit', 'testbed']);
        if (words.length === 0) throw new UsageError('history add needs the results to record: PATH...');
        // The folder is written: a path that cannot be is exit 2 naming it, before anything is read.
        const created = ctx.now().toISOString();
        const results = readResults(words, { cwd: ctx.cwd, created });
        const entry = await recordRun(history, results, {
          ...(flags.commit !== undefined ? { commit: flags.commit } : {}),
          ...(flags.testbed !== undefined ? { testbed: flags.testbed } : {}),
          repo: ctx.cwd,
          env: ctx.env,
          deps: makeDeps(),
        });
        ctx.stdout(
          entry.alreadyRecorded
            ? `perf-gate: these results are already recorded for ${entry.commit.slice(0, 12)} on testbed ${entry.testbed} as run ${entry.runId} in ${history.description}; nothing added\n`
            : `perf-gate: recorded ${entry.commit.slice(0, 12)} on testbed ${entry.testbed} as run ${entry.runId} in ${history.description}\n`,
        );
        return EXIT.pass;
      }
      case 'list': {
        only(['history', 'testbed']);
        if (words.length > 0) throw new UsageError(`unexpected argument "${words[0]}"`);
        const entries = await history.list(flags.testbed !== undefined ? { testbed: flags.testbed } : {});
        ctx.stdout(entries.length === 0 ? `no runs in ${history.description}\n` : runListText(entries));
        return EXIT.pass;
      }
      case 'show': {
        only(['history']);
        if (words.length !== 1) throw new UsageError('history show takes one RUN: a run id, or a commit');
        const entries = runsNamed(await history.list(), words[0]!);
        if (entries.length === 0)
          throw new InputError(history.description, `no run has the id or commit ${JSON.stringify(words[0])}; perf-gate history list shows them`);
        if (entries.length > 1)
          throw new InputError(
            history.description,
            `${entries.length} runs match ${JSON.stringify(words[0])}; give one of their run ids:\n${runListText(entries)}`,
          );
        ctx.stdout(`${JSON.stringify(await history.read(entries[0]!), null, 2)}\n`);
        return EXIT.pass;
      }
      case 'prune': {
        only(['history', 'before']);
        if (flags.before === undefined) throw new UsageError('history prune needs --before DATE');
        const before = new Date(flags.before);
        if (Number.isNaN(before.getTime())) throw new UsageError(`--before takes a date such as 2026-01-31, found "${flags.before}"`);
        const removed = await history.prune({ before });
        ctx.stdout(`perf-gate: removed ${removed.length} run(s) created before ${before.toISOString()} from ${history.description}\n`);
        return EXIT.pass;
      }
      case 'noise': {
        only(['history', 'testbed', 'runs', 'tolerance']);
        if (words.length > 0) throw new UsageError(`unexpected argument "${words[0]}"`);
        const runs = flags.runs === undefined ? DEFAULT_DRIFT_WINDOW : Number(flags.runs);
        if (!Number.isInteger(runs) || runs < 2) throw new UsageError(`--runs takes a whole number ≥ 2, found "${flags.runs}"`);
        const tolerance = flags.tolerance === undefined ? DEFAULT_BUDGET_DEFAULTS.regression : percentFlag(flags.tolerance);
        const testbed = flags.testbed ?? makeDeps().testbed(ctx.env)?.id;
        if (testbed === undefined) throw new InputError('--testbed', "this machine's testbed could not be read; give --testbed ID");
        const noise = await historyNoise(history, testbed, runs, tolerance);
        ctx.stdout(noiseText(noise.rows, noise.runs, testbed, tolerance));
        return EXIT.pass;
      }
      case 'changes': {
        only(['history', 'testbed', 'since', 'benchmark', 'json', 'markdown', 'previous']);
        if (words.length > 0) throw new UsageError(`unexpected argument "${words[0]}"`);
        const outputs = (['json', 'markdown'] as const)
          .filter((f) => flags[f] !== undefined)
          .map((f) => ({ flag: `--${f}`, path: flags[f]!, kind: 'file' as const }));
        prepareOutputPaths(outputs, ctx.cwd);
        const report = await historyChanges(history, {
          ...(flags.testbed !== undefined ? { testbed: flags.testbed } : {}),
          ...(flags.benchmark !== undefined ? { benchmark: flags.benchmark } : {}),
          ...(flags.since !== undefined ? { since: sinceRun(flags.since, ctx.cwd) } : {}),
          ...(flags.previous !== undefined ? { previous: readPreviousChanges(resolve(ctx.cwd, flags.previous)) } : {}),
          repo: ctx.cwd,
        });
        if (!takesStdout(flags.json, flags.markdown)) ctx.stdout(changesText(report));
        if (flags.json !== undefined) writeOutputFile(ctx.cwd, flags.json, `${JSON.stringify(report, null, 2)}\n`, '--json', ctx.stdout);
        if (flags.markdown !== undefined) writeOutputFile(ctx.cwd, flags.markdown, changesMarkdown(report), '--markdown', ctx.stdout);
        return EXIT.pass;
      }
      case 'import': {
        only(['history', 'testbed', 'suite', 'bencher-branch', 'bencher-testbed']);
        if (words.length !== 1) throw new UsageError("history import takes one FILE: github-action-benchmark's data.js or data.json, or Bencher's perf export");
        if (flags.testbed === undefined) throw new UsageError('history import needs --testbed ID: the machine the imported runs were measured on');
        const bencher = {
          ...(flags['bencher-branch'] !== undefined ? { branch: flags['bencher-branch'] } : {}),
          ...(flags['bencher-testbed'] !== undefined ? { testbed: flags['bencher-testbed'] } : {}),
        };
        const imported = await importHistory(history, resolve(ctx.cwd, words[0]!), {
          testbed: flags.testbed,
          ...(flags.suite !== undefined ? { suite: flags.suite } : {}),
          bencher,
        });
        ctx.stdout(
          `perf-gate: imported ${imported.runs} run(s) of ${imported.benchmarks} benchmark(s) from ${imported.source} on testbed ${flags.testbed} into ${history.description}\n`,
        );
        for (const note of imported.skipped) ctx.stdout(`  not imported: ${note}\n`);
        return EXIT.pass;
      }
      case 'verify': {
        only(['history', 'testbed']);
        if (words.length > 0) throw new UsageError(`unexpected argument "${words[0]}"`);
        return verifyHistory(history, flags.testbed, ctx);
      }
      case 'remove': {
        only(['history']);
        if (words.length === 0) throw new UsageError('history remove needs the runs or files to remove: RUN|FILE...');
        return removeFromHistory(history, words, ctx);
      }
      case 'compact': {
        only(['history', 'before']);
        if (words.length > 0) throw new UsageError(`unexpected argument "${words[0]}"`);
        const before = flags.before === undefined ? ctx.now() : new Date(flags.before);
        if (Number.isNaN(before.getTime())) throw new UsageError(`--before takes a date such as 2026-01-31, found "${flags.before}"`);
        return compactHistory(history, before, ctx);
      }
      default:
        throw new UsageError(action === undefined ? `history needs ${ACTIONS}` : `history takes ${ACTIONS}, found "${action}"`);
    }
  }
}

/** "5%" or "0.05" as a fraction (a quantity, as budgets read it). */
function percentFlag(text: string): number {
  const q = parseQuantity(text);
  const value = q !== undefined && (q.dimension === 'fraction' || q.dimension === 'count') ? q.value : NaN;
  if (!Number.isFinite(value) || value <= 0 || value >= 10) throw new UsageError(`--tolerance takes a percentage such as 5%, found "${text}"`);
  return value;
}

export const historyCommand: Command = makeHistoryCommand();
