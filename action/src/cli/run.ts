import { resolve } from 'node:path';
import {
  configuredStore, DEFAULT_GATE_OPTIONS, defaultBaseBranch, defaultDeps, gate, historyLocationOf, historyStoreAt, measureAb, measuredRun, parseShard, prepareOutputPaths, prepareOutputs, publishToTerminal, readBaseline, readBudgets,
  readConfig, recordBaseline, runConfiguredSuites, shardSuites, UsageError, verdictExit, withInterruptCleanup, type Command, type RunDeps,
} from '../pipeline/index.js';
import { parseFlags } from './args.js';

const USAGE = `Usage: perf-gate run --config perf-gate.yml [--baseline PATH...] [--history DIR [--base REF]]
                     [--json FILE] [--markdown FILE] [--out DIR] [--ab REF] [--shard i/n]
                     [--mode pr|main|release]

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
                      release tag's run when there is a history`;

/** The `perf-gate run` command, with its outside world injectable for tests. */
export function makeRunCommand(makeDeps: () => RunDeps = defaultDeps): Command {
  return {
    name: 'run',
    summary: 'run the suites of perf-gate.yml, then compare like `compare` (or A/B against a ref)',
    usage: USAGE,
    async run(argv, ctx) {
      const flags = parseFlags(argv, {
        config: 'string', baseline: 'list', json: 'string', markdown: 'string', out: 'string', ab: 'string', shard: 'string', mode: 'string',
        history: 'string', base: 'string',
      });
      const mode = flags.mode ?? 'pr';
      if (mode !== 'pr' && mode !== 'main' && mode !== 'release') throw new UsageError(`--mode takes pr, main or release, found "${mode}"`);
      if (flags.ab !== undefined && flags.baseline) throw new UsageError('--ab measures its own baseline; it cannot be combined with --baseline');
      if (flags.ab !== undefined && mode === 'main') throw new UsageError('--mode main stores a baseline from a plain run; it cannot be combined with --ab');
      const shard = flags.shard !== undefined ? parseShard(flags.shard) : null;
      const outputs = { json: flags.json, markdown: flags.markdown };
      prepareOutputs(outputs, ctx.cwd);
      prepareOutputPaths([{ flag: '--out', path: flags.out ?? 'perf-gate-results', kind: 'folder' }], ctx.cwd);
      const outDir = resolve(ctx.cwd, flags.out ?? 'perf-gate-results');
      const config = readConfig(flags.config ?? 'perf-gate.yml', ctx.cwd);
      const created = ctx.now().toISOString();
      const history = flags.history !== undefined ? { location: { folder: resolve(ctx.cwd, flags.history) }, driftRuns: null } : config.history && { location: historyLocationOf(config.history), driftRuns: config.history.driftRuns };
      const historyName = history === null ? null : 'folder' in history.location ? history.location.folder : `branch ${history.location.branch} of ${history.location.remote}`;
      if (flags.base !== undefined && history === null) throw new UsageError('--base chooses a run from a history: give --history DIR (or history: in perf-gate.yml)');
      if (flags.history !== undefined && flags.baseline) throw new UsageError('--history chooses the baseline itself; it cannot be combined with --baseline');
      const start = flags.base !== undefined ? { base: flags.base } : mode === 'release' ? { release: true as const } : { mergeBaseWith: await defaultBaseBranch(config.dir) };
      const store = history !== null
        ? historyStoreAt({
          location: history.location, repo: config.dir, start, appends: mode === 'main',
          ...(history.driftRuns !== null ? { driftRuns: history.driftRuns } : {}),
          onNoBaseline: (text) => ctx.stdout(`perf-gate: ${text}\n`),
        })
        : configuredStore(config, created);
      if (mode === 'main') await store.checkWritable();
      const budgets = readBudgets([], config.budgets, ctx.cwd);
      const deps = makeDeps();
      const write = (t: string): void => ctx.stdout(t);

      if (flags.ab !== undefined) {
        const ref = flags.ab;
        return withInterruptCleanup(deps.spawner, async (cleanups) => {
          const ab = await measureAb({ ref, config, shard, outDir, budgets, cwd: ctx.cwd, env: ctx.env, write, now: () => ctx.now(), deps, cleanups });
          const report = gate({ baseline: ab.base, current: ab.head, budgets, confirmations: ab.confirmations, baselineInput: '--baseline', currentSource: `this run of ${config.file}`, sameConfig: true });
          publishToTerminal(report, outputs, ctx);
          return verdictExit(report);
        });
      }

      // A shard compares only its own suites: the other shards' benchmarks are not missing, they run elsewhere.
      const baseline = await readBaseline({
        paths: flags.baseline ?? [],
        store,
        query: measuredRun(config, ctx.env, deps),
        suites: shard ? shardSuites(config, shard) : null,
        read: { cwd: ctx.cwd, created },
      });
      if (baseline && historyName !== null && !flags.baseline) ctx.stdout(`perf-gate: baseline: ${baseline.source}\n`);
      const current = await withInterruptCleanup(deps.spawner, () =>
        runConfiguredSuites({ config, shard, outDir, expected: baseline?.results.benchmarks ?? [], env: ctx.env, write, now: () => ctx.now(), deps }),
      );
      const report = gate({ baseline: baseline?.results, current, budgets, options: DEFAULT_GATE_OPTIONS, baselineInput: flags.baseline ? '--baseline' : historyName !== null ? `the history ${historyName}` : `baselines: in ${config.file}`,
        ...(baseline ? { baselineSource: baseline.source } : {}),
        currentSource: `this run of ${config.file}`,
        ...(baseline?.driftRuns ? { driftRuns: baseline.driftRuns } : {}),
      });
      publishToTerminal(report, outputs, ctx);
      if (mode === 'main') ctx.stdout(`perf-gate: baseline written to ${await recordBaseline(store, current, shard)}\n`);
      return verdictExit(report);
    },
  };
}

export const runCommand: Command = makeRunCommand();
