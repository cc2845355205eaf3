import {
  defaultDeps, EXIT, historyFolder, openHistory, prepareOutputPaths, readConfigIfPresent, readResults, recordRun, runsNamed, UsageError, type Command, type HistoryEntry,
  type RunDeps,
} from '../pipeline/index.js';
import { InputError } from '../model/index.js';
import { parseFlagsAndWords } from './args.js';

const USAGE = `Usage: perf-gate history add [--history DIR] [--commit SHA] [--testbed ID] PATH...
       perf-gate history list [--history DIR] [--testbed ID]
       perf-gate history show [--history DIR] RUN
       perf-gate history prune [--history DIR] --before DATE

The run history: every run of the base branch, per testbed, one file per run
(see docs/history.md). compare and run choose their baseline from it with
--history (or history: in perf-gate.yml): the runs of the merge base.

  add     record the results in PATH (harness outputs, folders or ResultSets)
          as one run of a commit on a testbed
  list    the runs, oldest first: created, testbed, commit, run id
  show    one run's ResultSet (JSON); RUN is a run id, or a commit (at least
          4 hex digits) that has exactly one run
  prune   remove the runs created before DATE (YYYY-MM-DD or an ISO time)

  --history DIR   the history folder (default: history: in ./perf-gate.yml,
                  else .perf-gate/history)
  --commit SHA    the measured commit (default: the results' own, else HEAD)
  --testbed ID    the testbed (default: the results' own, else this machine's)
  --before DATE   prune: the oldest creation time to keep`;

const FLAGS = { history: 'string', commit: 'string', testbed: 'string', before: 'string' } as const;

/** The `perf-gate history` command, with this machine's testbed injectable for tests. */
export function makeHistoryCommand(makeDeps: () => Pick<RunDeps, 'testbed'> = defaultDeps): Command {
  return {
    name: 'history',
    summary: 'record, list, show and prune the run history that baselines are chosen from',
    usage: USAGE,
    async run(argv, ctx) {
      const [action, ...rest] = argv;
      const { flags, words } = parseFlagsAndWords(rest, FLAGS);
      const dir = historyFolder(flags.history, readConfigIfPresent('perf-gate.yml', ctx.cwd)?.history);
      const history = openHistory(dir, ctx.cwd);
      const only = (allowed: (keyof typeof FLAGS)[]): void => {
        const extra = (Object.keys(flags) as (keyof typeof FLAGS)[]).find((f) => !allowed.includes(f));
        if (extra) throw new UsageError(`history ${action} takes no --${extra}`);
      };
      switch (action) {
        case 'add': {
          only(['history', 'commit', 'testbed']);
          if (words.length === 0) throw new UsageError('history add needs the results to record: PATH...');
          // The folder is written: a path that cannot be is exit 2 naming it, before anything is read.
          prepareOutputPaths([{ flag: '--history', path: dir, kind: 'folder' }], ctx.cwd);
          const created = ctx.now().toISOString();
          const results = readResults(words, { cwd: ctx.cwd, created });
          const entry = await recordRun(history, results, {
            ...(flags.commit !== undefined ? { commit: flags.commit } : {}),
            ...(flags.testbed !== undefined ? { testbed: flags.testbed } : {}),
            repo: ctx.cwd,
            env: ctx.env,
            deps: makeDeps(),
          });
          ctx.stdout(`perf-gate: recorded ${entry.commit.slice(0, 12)} on testbed ${entry.testbed} as run ${entry.runId} in ${history.description}\n`);
          return EXIT.pass;
        }
        case 'list': {
          only(['history', 'testbed']);
          if (words.length > 0) throw new UsageError(`unexpected argument "${words[0]}"`);
          const entries = await history.list(flags.testbed !== undefined ? { testbed: flags.testbed } : {});
          ctx.stdout(entries.length === 0 ? `no runs in ${history.description}\n` : listText(entries));
          return EXIT.pass;
        }
        case 'show': {
          only(['history']);
          if (words.length !== 1) throw new UsageError('history show takes one RUN: a run id, or a commit');
          const entries = runsNamed(await history.list(), words[0]!);
          if (entries.length === 0) throw new InputError(history.description, `no run has the id or commit ${JSON.stringify(words[0])}; perf-gate history list shows them`);
          if (entries.length > 1) throw new InputError(history.description, `${entries.length} runs match ${JSON.stringify(words[0])}; give one of their run ids:\n${listText(entries)}`);
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
        default:
          throw new UsageError(action === undefined ? 'history needs add, list, show or prune' : `history takes add, list, show or prune, found "${action}"`);
      }
    },
  };
}

/** One run a line, columns aligned: created, testbed, commit (12), run id. */
function listText(entries: readonly HistoryEntry[]): string {
  const rows = [['created', 'testbed', 'commit', 'run'], ...entries.map((e) => [e.created, e.testbed, e.commit.slice(0, 12), e.runId])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n';
}

export const historyCommand: Command = makeHistoryCommand();
