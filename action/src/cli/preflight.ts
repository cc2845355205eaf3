import { resolve } from 'node:path';
import {
  checkMachine,
  DEFAULT_PROBE_OPTIONS,
  EXIT,
  PREFLIGHT_LEVELS,
  prepareOutputPaths,
  preflightAnnotations,
  preflightText,
  UsageError,
  writeOutputFile,
  type Command,
  type PreflightLevel,
} from '../pipeline/index.js';
import { parseFlags } from './args.js';

const USAGE = `Usage: perf-gate preflight [--level strict|warn|off] [--json FILE] [--no-probe]
                          [--probe-seconds N] [--aslr on|off|any] [--root DIR]

Checks that this machine can produce timings worth gating on: CPU governor,
turbo/boost, SMT, isolated CPUs, load, swap, thermal throttling, ASLR,
perf_event_paranoid, CPU model and frequency limits, kernel, and a short
noise probe (CV of a fixed CPU loop). Each problem comes with a fix.

  --level strict   exit 1 when a check warns
  --level warn     report and annotate, exit 0 (default)
  --level off      check nothing
  --root DIR       read /sys and /proc under DIR (for testing)
Environment: RUNNER_NAME is recorded in the testbed; GITHUB_ACTIONS=true adds annotations.`;

export const preflightCommand: Command = {
  name: 'preflight',
  summary: 'check the runner for stable timings (governor, turbo, noise …)',
  usage: USAGE,
  async run(argv, ctx) {
    const flags = parseFlags(argv, { level: 'string', json: 'string', 'no-probe': 'boolean', 'probe-seconds': 'string', aslr: 'string', root: 'string' });
    const level = (flags.level ?? 'warn') as PreflightLevel;
    if (!PREFLIGHT_LEVELS.includes(level)) throw new UsageError(`--level takes ${PREFLIGHT_LEVELS.join(', ')}; found "${flags.level}"`);
    const aslr = flags.aslr ?? 'any';
    if (aslr !== 'on' && aslr !== 'off' && aslr !== 'any') throw new UsageError(`--aslr takes on, off or any; found "${aslr}"`);
    let durationMs = DEFAULT_PROBE_OPTIONS.durationMs;
    if (flags['probe-seconds'] !== undefined) {
      const seconds = Number(flags['probe-seconds']);
      if (!(seconds > 0 && seconds <= 30)) throw new UsageError(`--probe-seconds takes a number of seconds in (0, 30]; found "${flags['probe-seconds']}"`);
      durationMs = seconds * 1000;
    }
    prepareOutputPaths([{ flag: '--json', path: flags.json, kind: 'file' }], ctx.cwd);
    const report = checkMachine({
      root: flags.root === undefined ? '/' : resolve(ctx.cwd, flags.root),
      level,
      options: { aslr },
      probe: flags['no-probe'] ? false : { ...DEFAULT_PROBE_OPTIONS, durationMs },
      env: ctx.env,
      ...(ctx.env.RUNNER_NAME ? { runner: ctx.env.RUNNER_NAME } : {}),
    });
    ctx.stdout(preflightText(report));
    if (ctx.env.GITHUB_ACTIONS === 'true') ctx.stdout(preflightAnnotations(report));
    if (flags.json !== undefined) writeOutputFile(ctx.cwd, flags.json, `${JSON.stringify(report, null, 2)}\n`, '--json', ctx.stdout);
    return report.fails ? EXIT.fail : EXIT.pass;
  },
};
