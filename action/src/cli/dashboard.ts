import { relative, resolve } from 'node:path';
import { EXIT, historyLocation, openHistoryAt, prepareOutputPaths, readConfig, readConfigIfPresent, UsageError, type Command } from '../pipeline/index.js';
import { writeDashboard } from '../pipeline/history/dashboard.js';
import { parseFlags } from './args.js';

const USAGE = `Usage: perf-gate dashboard --out DIR [--history PATH] [--testbed ID] [--config FILE]
                          [--tags GLOB]

Writes a static site of the run history into DIR (see docs/dashboard.md):
one trend chart per benchmark × metric × testbed, each point a run (its
median, with the middle half of its samples as a band), the change points of
perf-gate history changes and the release tags marked, the regressions since
the last release tag listed first, and a search box. Open DIR/index.html from
disk, upload DIR as an artifact or publish it on GitHub Pages: it loads
nothing from the network.

  --out DIR       the folder to write (created; its files are replaced)
  --history PATH  the history folder (default: history: in the config, else
                  .perf-gate/history)
  --testbed ID    only this testbed's runs (default: every testbed)
  --config FILE   the perf-gate.yml whose history: to read (default:
                  ./perf-gate.yml when there is one)
  --tags GLOB     the release tags to mark (default: v*)`;

const FLAGS = { out: 'string', history: 'string', testbed: 'string', config: 'string', tags: 'string' } as const;

export const dashboardCommand: Command = {
  name: 'dashboard',
  summary: 'write a static site of the run history: trend charts with change points and release tags',
  usage: USAGE,
  async run(argv, ctx) {
    const flags = parseFlags(argv, FLAGS);
    if (flags.out === undefined) throw new UsageError('--out DIR is required: the folder to write the site into');
    if (flags.tags !== undefined && flags.tags.trim() === '') throw new UsageError('--tags takes a glob such as v*, found an empty value');
    prepareOutputPaths([{ flag: '--out', path: flags.out, kind: 'folder' }], ctx.cwd);
    const config = flags.config !== undefined ? readConfig(flags.config, ctx.cwd) : readConfigIfPresent('perf-gate.yml', ctx.cwd);
    const repo = config?.dir ?? ctx.cwd;
    const history = openHistoryAt(historyLocation(flags.history, config?.history, ctx.cwd), repo, false);
    const out = resolve(ctx.cwd, flags.out);
    const written = await writeDashboard({
      history,
      repo,
      out,
      now: ctx.now(),
      ...(flags.testbed !== undefined ? { testbed: flags.testbed } : {}),
      ...(flags.tags !== undefined ? { tagPattern: flags.tags } : {}),
    });
    if (written.gitNote !== null) ctx.stderr(`perf-gate dashboard: note: ${written.gitNote}\n`);
    const { model } = written;
    const runs = model.testbeds.map((t) => `${t.runs.length} run(s) on ${t.id}`).join(' and ');
    const regressed = model.series.filter((s) => s.regressedSinceTag).length;
    const shown = relative(ctx.cwd, out) || '.';
    ctx.stdout(`perf-gate: wrote ${model.series.length} chart(s) from ${runs}, ${regressed} regressed since the last release tag, to ${shown}/index.html\n`);
    return EXIT.pass;
  },
};
