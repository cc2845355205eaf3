import { resolve } from 'node:path';
import {
  defaultDeps,
  EXIT,
  prepareOutputPaths,
  readBudgets,
  readConfig,
  UsageError,
  withInterruptCleanup,
  type Command,
  type RunDeps,
} from '../pipeline/index.js';
import { bisect, bisectMarkdown, bisectText, type BisectReport } from '../pipeline/history/bisect.js';
import { writeOutputFile } from '../pipeline/index.js';
import { parseFlags } from './args.js';

const USAGE = `Usage: perf-gate bisect --good REF --bad REF --benchmark ID [--metric NAME]
                        [--config FILE] [--suite NAME] [--json FILE] [--markdown FILE]
                        [--out DIR]

Finds the commit between good and bad that changed one benchmark, like
git bisect with interleaved A/B measurements (see docs/bisect.md). First
measures bad against good; if that is a change (regressed or improved),
binary-searches the first-parent path good..bad, measuring each midpoint
against good, until good and bad are neighbours. Exit status: 0 a culprit
was found, or there is no step between good and bad; 1 the search stopped
at a commit it could not place (inconclusive, a change of its own, or a
failure); 2 unusable input.

  --good REF        a commit without the change (an ancestor of --bad)
  --bad REF         a commit with the change
  --benchmark ID    the benchmark to follow: <suite>/<name>, as in the report
  --metric NAME     its metric (default: time)
  --config FILE     the suites (default: perf-gate.yml); this file is used
                    for every commit, as in run --ab
  --suite NAME      the suite that reports the benchmark (default: the one
                    its id names); only this suite runs
  --json FILE       also write the steps and the outcome as JSON
  --markdown FILE   also write them as Markdown
  --out DIR         each step's harness outputs, logs and ResultSets
                    (default: perf-gate-bisect)`;

/** Exit status of a finished search: a culprit or "no step" is an answer; a search stopped at a commit is not. */
export function bisectExit(report: BisectReport): number {
  return report.outcome.kind === 'culprit' || report.outcome.kind === 'no-step' ? EXIT.pass : EXIT.fail;
}

/** The `perf-gate bisect` command, with its outside world injectable for tests. */
export function makeBisectCommand(makeDeps: () => RunDeps = defaultDeps): Command {
  return {
    name: 'bisect',
    summary: 'find the commit between --good and --bad that changed a benchmark (interleaved A/B steps)',
    usage: USAGE,
    async run(argv, ctx) {
      const flags = parseFlags(argv, {
        good: 'string',
        bad: 'string',
        benchmark: 'string',
        metric: 'string',
        config: 'string',
        suite: 'string',
        json: 'string',
        markdown: 'string',
        out: 'string',
      });
      for (const required of ['good', 'bad', 'benchmark'] as const) {
        if (flags[required] === undefined) throw new UsageError(`--${required} is required`);
      }
      const outputs = (['json', 'markdown'] as const).map((f) => ({ flag: `--${f}`, path: flags[f], kind: 'file' as const }));
      prepareOutputPaths([...outputs, { flag: '--out', path: flags.out ?? 'perf-gate-bisect', kind: 'folder' }], ctx.cwd);
      const config = readConfig(flags.config ?? 'perf-gate.yml', ctx.cwd);
      const budgets = readBudgets([], config.budgets, ctx.cwd);
      const deps = makeDeps();
      const report = await withInterruptCleanup(deps.spawner, (cleanups) =>
        bisect({
          good: flags.good!,
          bad: flags.bad!,
          benchmark: flags.benchmark!,
          ...(flags.metric !== undefined ? { metric: flags.metric } : {}),
          ...(flags.suite !== undefined ? { suite: flags.suite } : {}),
          config,
          budgets,
          outDir: resolve(ctx.cwd, flags.out ?? 'perf-gate-bisect'),
          env: ctx.env,
          write: (t) => ctx.stdout(t),
          now: () => ctx.now(),
          deps,
          cleanups,
          groups: ctx.env.GITHUB_ACTIONS === 'true',
        }),
      );
      ctx.stdout(`\n${bisectText(report)}`);
      if (flags.json !== undefined) writeOutputFile(ctx.cwd, flags.json, `${JSON.stringify(report, null, 2)}\n`, '--json', ctx.stdout);
      if (flags.markdown !== undefined) writeOutputFile(ctx.cwd, flags.markdown, bisectMarkdown(report), '--markdown', ctx.stdout);
      return bisectExit(report);
    },
  };
}

export const bisectCommand: Command = makeBisectCommand();
