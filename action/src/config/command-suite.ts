/**
 * `commands:` suites: perf-gate measures each named command itself, timing
 * them with one hyperfine line it writes. Checking a suite's command keys,
 * building that line, and cutting a suite down to some of its commands (the
 * second stage measures only its suspects).
 */
import { InputError } from '../model/index.js';
import { DEFAULT_COMMAND_RUNS, DEFAULT_COMMAND_WARMUP, type CommandConfig, type SuiteConfig } from './config-types.js';
import type { RawSuite } from './raw-config.js';
import type { YamlSource } from './yaml-source.js';

/** Keys that only mean something beside `commands:`. */
const COMMAND_KEYS = ['measure', 'runs', 'warmup', 'counter', 'count-repeat'] as const;

/**
 * A `commands:` suite's commands, what it measures and the hyperfine line
 * that times them; undefined for a `run:` suite. Exactly one of `run:` and
 * `commands:` is required, and the keys of the one are errors beside the other.
 */
export function commandSuite(
  s: RawSuite,
  source: YamlSource,
  i: number,
): { commands: CommandConfig[]; measure: SuiteConfig['measure']; run: string; runs: NonNullable<SuiteConfig['commandRuns']> } | undefined {
  const where = (key: string): [number | undefined, string] => [source.lineOf(['suites', i, key]) ?? source.lineOf(['suites', i]), `suites.${i}.${key}`];
  if (s.commands === undefined) {
    if (s.run === undefined) {
      throw new InputError(
        source.file,
        'missing required key "run" (a harness command), or "commands:" (benchmark name → command, measured by perf-gate)',
        source.lineOf(['suites', i]),
        `suites.${i}`,
      );
    }
    const stray = COMMAND_KEYS.find((k) => s[k] !== undefined);
    if (stray)
      throw new InputError(
        source.file,
        `"${stray}:" applies to "commands:" suites only: perf-gate measures a "run:" suite's harness as it reports itself (docs/counting.md says how to count with a harness)`,
        ...where(stray),
      );
    return undefined;
  }
  if (s.run !== undefined)
    throw new InputError(
      source.file,
      'a suite has "run:" or "commands:", not both: with "commands:" perf-gate runs hyperfine and the counter itself',
      ...where('run'),
    );
  for (const key of ['format', 'params', 'repeat'] as const) {
    if (s[key] !== undefined)
      throw new InputError(
        source.file,
        `"${key}:" does not apply to a "commands:" suite (perf-gate reads the measurements it takes itself; use "runs:" and "count-repeat:" for more samples)`,
        ...where(key),
      );
  }
  const listed = s.measure === undefined ? ['time'] : typeof s.measure === 'string' ? [s.measure] : s.measure;
  const measure = { time: listed.includes('time'), counts: listed.includes('counts') };
  const commands = Object.entries(s.commands).map(([name, command]) => ({ name, command }));
  const runs = { runs: s.runs ?? DEFAULT_COMMAND_RUNS, warmup: s.warmup ?? DEFAULT_COMMAND_WARMUP };
  return { commands, measure, run: measure.time ? hyperfineLine(commands, runs.runs, runs.warmup) : '', runs };
}

/**
 * A `commands:` suite cut down to the commands `keep` accepts, its hyperfine
 * line rebuilt for them with the same runs: the two-stage verdict's second
 * stage measures only the commands it suspects, not the whole suite. Any
 * other suite is returned as it is (its harness decides what it runs).
 */
export function withCommandsOnly(suite: SuiteConfig, keep: (command: CommandConfig) => boolean): SuiteConfig {
  if (suite.commands === null || suite.commandRuns === null) return suite;
  const commands = suite.commands.filter(keep);
  if (commands.length === suite.commands.length || commands.length === 0) return suite;
  const { runs, warmup } = suite.commandRuns;
  return { ...suite, commands, run: suite.measure.time ? hyperfineLine(commands, runs, warmup) : '' };
}

/**
 * The hyperfine invocation timing `commands`: each named with --command-name,
 * so the benchmark ids are the config's names; --ignore-failure so a crashing
 * command is a failed row (its exit codes recorded) and the others still run.
 * Each command runs as `sh -c CMD` under --shell=none: hyperfine then times
 * the shell too (about a millisecond, the same on both sides) instead of
 * subtracting a start-up time it estimated, which on a busy machine can
 * exceed a short command's own time and record it as 0 s.
 */
export function hyperfineLine(commands: readonly CommandConfig[], runs: number, warmup: number): string {
  const words = [
    'hyperfine',
    '--export-json',
    '{output}',
    '--runs',
    String(runs),
    '--warmup',
    String(warmup),
    '--ignore-failure',
    '--shell=none',
    '--style',
    'basic',
  ];
  for (const c of commands) words.push('--command-name', shellWord(c.name), shellWord(`sh -c ${shellWord(c.command)}`));
  return words.join(' ');
}

/** One single-quoted shell word (a `'` inside becomes `'\''`). */
function shellWord(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
