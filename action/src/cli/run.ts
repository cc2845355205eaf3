import { resolve } from 'node:path';
import {
  DEFAULT_GATE_OPTIONS,
  defaultDeps,
  historyLocationOf,
  historyStart,
  parseShard,
  prepareOutputPaths,
  prepareOutputs,
  publishToTerminal,
  readBudgets,
  readConfig,
  runGate,
  secondStageOn,
  UsageError,
  EXIT,
  DEFAULT_CHECK_POLICY,
  withInterruptCleanup,
  type Command,
  type RunDeps,
  type StoreAt,
} from '../pipeline/index.js';
import { parseFlags } from './args.js';

const USAGE = `Usage: perf-gate run --config perf-gate.yml [--baseline PATH...] [--history DIR [--base REF]]
                     [--json FILE] [--markdown FILE] [--out DIR] [--ab REF] [--shard i/n]
                     [--mode pr|main|release] [--confirm interleaved|off] [--fail-on fail|suspected]

Runs the suites of perf-gate.yml (build, then run), compares the results with the
baseline and the budgets, prints the regression table, and exits 0 (pass), 1 (fail)
or 2 (unusable input).

  --config FILE       the suites to run (default: perf-gate.yml)
  --baseline PATH...  stored results to compare with (default: the config's
                      history:, else its baselines: folder when it holds results)
  --history DIR       the run history to choose the baseline from (the run of
                      the merge base with the base branch on this testbed) and,
                      with --mode main, to append this run to (default: the
                      config's history:)
  --base REF          with a history: compare with the runs of REF (or its
                      nearest first-parent ancestor that has one) instead of
                      the merge base
  --json FILE         write the JSON report
  --markdown FILE     write the Markdown report (a PR comment body)
  --out DIR           harness outputs, logs and results.json, for the artifact
                      (default: perf-gate-results)
  --ab REF            interleaved A/B: check REF out in a git worktree, run base
                      and head in alternating rounds, compare them paired
  --shard i/n         run only this runner's share of the suites (round-robin
                      by position in the config)
  --mode MODE         pr (default), release, or main: main also stores the
                      results (in the history, else where the config's
                      baselines: points); release compares with the previous
                      release tag's run when there is a history
  --confirm MODE      the two-stage verdict: interleaved measures the rows the
                      comparison with the baseline suspects again, interleaved
                      against the baseline's commit, and lets that decide; off
                      lets the comparison decide alone (default: interleaved
                      in mode pr against the history or the baselines: folder,
                      unless the config says confirm: off; off with --baseline
                      files, --mode release)
  --fail-on WHAT      fail (default): the gate's verdict decides; suspected:
                      also fail on a suspect that could not be confirmed`;

/** The `perf-gate run` command, with its outside world injectable for tests. */
export function makeRunCommand(makeDeps: () => RunDeps = defaultDeps): Command {
  return {
    name: 'run',
    summary: 'run the suites of perf-gate.yml, then compare like `compare` (or A/B against a ref)',
    usage: USAGE,
    async run(argv, ctx) {
      const flags = parseFlags(argv, {
        config: 'string',
        baseline: 'list',
        json: 'string',
        markdown: 'string',
        out: 'string',
        ab: 'string',
        shard: 'string',
        mode: 'string',
        history: 'string',
        base: 'string',
        confirm: 'string',
        'fail-on': 'string',
      });
      const mode = flags.mode ?? 'pr';
      if (mode !== 'pr' && mode !== 'main' && mode !== 'release') throw new UsageError(`--mode takes pr, main or release, found "${mode}"`);
      if (flags.ab !== undefined && flags.baseline) throw new UsageError('--ab measures its own baseline; it cannot be combined with --baseline');
      if (flags.ab !== undefined && mode === 'main') throw new UsageError('--mode main stores a baseline from a plain run; it cannot be combined with --ab');
      if (flags.confirm !== undefined && flags.confirm !== 'interleaved' && flags.confirm !== 'off')
        throw new UsageError(`--confirm takes interleaved or off, found "${flags.confirm}"`);
      if (flags['fail-on'] !== undefined && flags['fail-on'] !== 'fail' && flags['fail-on'] !== 'suspected')
        throw new UsageError(`--fail-on takes fail or suspected, found "${flags['fail-on']}"`);
      if (flags.confirm === 'interleaved' && (flags.ab !== undefined || mode === 'main'))
        throw new UsageError('--confirm interleaved confirms a comparison with a stored baseline; --ab and --mode main have none');
      const shard = flags.shard !== undefined ? parseShard(flags.shard) : null;
      const outputs = { json: flags.json, markdown: flags.markdown };
      prepareOutputs(outputs, ctx.cwd);
      prepareOutputPaths([{ flag: '--out', path: flags.out ?? 'perf-gate-results', kind: 'folder' }], ctx.cwd);
      const outDir = resolve(ctx.cwd, flags.out ?? 'perf-gate-results');
      const config = readConfig(flags.config ?? 'perf-gate.yml', ctx.cwd);
      const created = ctx.now().toISOString();
      const history =
        flags.history !== undefined
          ? { location: { folder: resolve(ctx.cwd, flags.history) }, driftRuns: null }
          : config.history && { location: historyLocationOf(config.history), driftRuns: config.history.driftRuns };
      const historyName =
        history === null ? null : 'folder' in history.location ? history.location.folder : `branch ${history.location.branch} of ${history.location.remote}`;
      if (flags.base !== undefined && history === null)
        throw new UsageError('--base chooses a run from a history: give --history DIR (or history: in perf-gate.yml)');
      if (flags.history !== undefined && flags.baseline) throw new UsageError('--history chooses the baseline itself; it cannot be combined with --baseline');
      const start = await historyStart(config.dir, { ...(flags.base !== undefined ? { base: flags.base } : {}), release: mode === 'release' });
      const store: StoreAt =
        history !== null
          ? { history: history.location, repo: config.dir, start, ...(history.driftRuns !== null ? { driftRuns: history.driftRuns } : {}) }
          : { baselines: config, created };
      const budgets = readBudgets([], config.budgets, ctx.cwd);
      const deps = makeDeps();
      const read = { cwd: ctx.cwd, created };
      const outcome = await withInterruptCleanup(deps.spawner, (cleanups) =>
        runGate(
          {
            current: flags.ab !== undefined ? { interleaved: config, ref: flags.ab, shard, outDir } : { suites: config, shard, outDir },
            store,
            baseline: flags.ab !== undefined ? null : { paths: flags.baseline ?? [], read },
            budgets,
            options: DEFAULT_GATE_OPTIONS,
            labels: {
              baselineInput:
                flags.baseline || flags.ab !== undefined ? '--baseline' : historyName !== null ? `the history ${historyName}` : `baselines: in ${config.file}`,
              current: `this run of ${config.file}`,
            },
            record: mode === 'main' ? { shard } : null,
            confirm: secondStageOn((flags.confirm as 'interleaved' | 'off' | undefined) ?? 'auto', {
              mode,
              measuresSuites: flags.ab === undefined,
              baseline: flags.baseline ? 'files' : 'store',
              configOn: config.confirm.on,
            })
              ? { failSuspected: flags['fail-on'] === 'suspected', asked: flags.confirm === 'interleaved' }
              : null,
            policy: { ...DEFAULT_CHECK_POLICY, failOn: flags['fail-on'] === 'suspected' ? 'suspected' : 'fail' },
          },
          {
            env: ctx.env,
            write: (t) => ctx.stdout(t),
            now: () => ctx.now(),
            deps,
            cleanups,
            // In an Actions `run:` step a warning is an annotation and a suite's output a log group; this face may say so, nothing below it does.
            warn: (t) => ctx.stdout(`${ctx.env.GITHUB_ACTIONS === 'true' ? '::warning::' : ''}${t}\n`),
            groups: ctx.env.GITHUB_ACTIONS === 'true',
          },
          // The baseline the history chose is named before the suites run (their output follows).
          {
            onBaseline: (baseline) => {
              if (baseline && historyName !== null && !flags.baseline) ctx.stdout(`perf-gate: baseline: ${baseline.source}\n`);
            },
            onNoBaseline: (text) => ctx.stdout(`perf-gate: ${text}\n`),
          },
        ),
      );
      publishToTerminal(outcome.report, outputs, ctx);
      if (outcome.stored !== null) {
        if ('error' in outcome.stored) throw outcome.stored.error;
        ctx.stdout(`perf-gate: baseline written to ${outcome.stored.at}\n`);
      }
      return outcome.fails ? EXIT.fail : EXIT.pass;
    },
  };
}

export const runCommand: Command = makeRunCommand();
