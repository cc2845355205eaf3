import {
  conventionalBudgets,
  EXIT,
  historyLocation,
  openHistoryAt,
  prepareOutputPaths,
  readBudgets,
  readConfig,
  readConfigIfPresent,
  UsageError,
  type Command,
} from '../pipeline/index.js';
import { releaseTerminalText, terminalColor, writeReleaseOutputs } from '../pipeline/index.js';
import { releaseFromHistory } from '../pipeline/history/release-report.js';
import { repositoryWebUrl } from '../pipeline/history/repository-url.js';
import { parseFlagsAndWords } from './args.js';

const USAGE = `Usage: perf-gate report release --from TAG --to REF [--history PATH] [--testbed ID]
                               [--config FILE] [--json FILE] [--markdown FILE] [--out DIR]

Reports from the run history. The one kind of report so far:

  release   the release report of REF (the candidate) against TAG (the
            previous release), both from the runs the history holds of their
            commits (several runs of a commit are pooled): go / no-go and
            why, every benchmark with its change and interval, the benchmarks
            that became noisier, every budget checked, the change points of
            the runs between the two on the first-parent line with their
            commit ranges, and what to bisect, re-measure or watch. Exits 0
            (go), 1 (no-go) or 2 (unusable input).

  --from TAG      the previous release: a tag, a ref or a commit with a run
  --to REF        the release candidate: a ref or a commit with a run
  --history PATH  the history folder (default: history: in the config, else
                  .perf-gate/history)
  --testbed ID    whose runs (default: the one testbed with runs of both)
  --config FILE   perf-gate.yml: its history: and budgets: (default:
                  ./perf-gate.yml when present; else the budgets/ folder)
  --json FILE     write the report as JSON (schema perf-gate/release@1)
  --markdown FILE write the report as Markdown for a job summary: at most
                  1 MiB, its tables cut (saying so) when longer
  --out DIR       write the whole report: DIR/release-report.md and
                  DIR/release-report.json`;

const FLAGS = {
  from: 'string',
  to: 'string',
  history: 'string',
  testbed: 'string',
  config: 'string',
  json: 'string',
  markdown: 'string',
  out: 'string',
} as const;

/** The kinds of report; the word after `report` picks one. */
const KINDS = ['release'] as const;

export const reportCommand: Command = {
  name: 'report',
  summary: 'reports from the run history: the release report (go / no-go, change points, what to bisect)',
  usage: USAGE,
  async run(argv, ctx) {
    const { flags, words } = parseFlagsAndWords(argv, FLAGS);
    const [kind, ...extra] = words;
    if (kind === undefined) throw new UsageError(`report needs the kind of report: ${KINDS.join(', ')}`);
    if (!(KINDS as readonly string[]).includes(kind)) throw new UsageError(`report takes ${KINDS.join(', ')}, found "${kind}"`);
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    if (flags.from === undefined) throw new UsageError('report release needs --from TAG: the previous release');
    if (flags.to === undefined) throw new UsageError('report release needs --to REF: the release candidate');
    // Every output path is checked (exit 2 naming it) before the history is read.
    prepareOutputPaths(
      [
        ...(['json', 'markdown'] as const).map((f) => ({ flag: `--${f}`, path: flags[f], kind: 'file' as const })),
        { flag: '--out', path: flags.out, kind: 'folder' as const },
      ],
      ctx.cwd,
    );
    const config = flags.config !== undefined ? readConfig(flags.config, ctx.cwd) : readConfigIfPresent('perf-gate.yml', ctx.cwd);
    const history = openHistoryAt(historyLocation(flags.history, config?.history, ctx.cwd), ctx.cwd, false);
    const budgets = readBudgets(undefined, config?.budgets ?? conventionalBudgets(ctx.cwd), ctx.cwd);
    const release = await releaseFromHistory({
      history,
      repo: ctx.cwd,
      from: flags.from,
      to: flags.to,
      ...(flags.testbed !== undefined ? { testbed: flags.testbed } : {}),
      budgets,
      ...(config?.history?.driftRuns != null ? { driftRuns: config.history.driftRuns } : {}),
      repositoryUrl: repositoryWebUrl(ctx.env, ctx.cwd),
    });
    // A report on standard output (`--json -`) is all that goes there.
    const toStdout = flags.json === '-' || flags.markdown === '-';
    const say = toStdout ? ctx.stderr : ctx.stdout;
    say(`perf-gate: release ${flags.to}: ${release.candidateSource}\nperf-gate: previous ${flags.from}: ${release.previousSource}\n`);
    const outputs = {
      ...(flags.out !== undefined ? { out: flags.out } : {}),
      ...(flags.json !== undefined ? { json: flags.json } : {}),
      ...(flags.markdown !== undefined ? { markdown: flags.markdown } : {}),
    };
    const written = writeReleaseOutputs(release.model, outputs, ctx.cwd, ctx.stdout).filter((path) => path !== '-');
    if (written.length > 0) say(`perf-gate: wrote ${written.join(', ')}\n`);
    if (!toStdout) ctx.stdout(releaseTerminalText(release.model, terminalColor(ctx.env)));
    return release.model.verdict === 'go' ? EXIT.pass : EXIT.fail;
  },
};
