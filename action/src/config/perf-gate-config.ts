import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import {
  InputError,
  paramEnvName,
  parseQuantity,
  quotedPlaceholders,
  type DerivedMetricConfig,
  type Direction,
  type QuotedPlaceholder,
} from '../model/index.js';
import { assertValid, compileSchema, parseYaml, type YamlSource } from './yaml-source.js';
import schema from '../../schemas/perf-gate-config.schema.json' with { type: 'json' };

/**
 * perf-gate.yml: which suites to run, how, where budgets and baselines live,
 * derived metrics and the interleaved A/B settings. Parsing is pure (text in,
 * typed config out); `loadPerfGateConfig` is the one place that reads the file.
 * Every problem is an InputError naming the file, the line and what was expected.
 */

/** Settings of interleaved A/B runs (`perf-gate run --ab REF`). */
export interface AbSettings {
  /** Rounds every suite runs first. */
  rounds: number;
  /** Most rounds a suite runs while some of its benchmarks are still inconclusive. */
  maxRounds: number;
  /** Rounds added per adaptive step. */
  step: number;
  /** Re-run regressed benchmarks in fresh rounds; only confirmed ones fail. */
  confirm: boolean;
  /** Rounds of the confirmation run. */
  confirmRounds: number;
  /** CPU list for `taskset -c` (e.g. "2,3"), or null for no pinning. */
  pin: string | null;
  /** Seed of the per-round order, so a run can be reproduced. */
  seed: number;
}

/**
 * The defaults: 10 rounds first (the paired signed-rank test cannot reach
 * alpha 0.01 with fewer than 8–9 pairs even when every pair agrees), up to
 * 30, 4 at a time; 12 fresh rounds to confirm.
 */
export const DEFAULT_AB: AbSettings = { rounds: 10, maxRounds: 30, step: 4, confirm: true, confirmRounds: 12, pin: null, seed: 1 };

/** One suite of perf-gate.yml. */
export interface SuiteConfig {
  /** Prefixes every benchmark id (`<name>/…`) and names the suite's log folder. */
  name: string;
  /** Shell command run once before the suite, or null. */
  build: string | null;
  /**
   * Shell command that runs the harness; `{output}` and `{param}` placeholders
   * are substituted. For a `commands:` suite it is the hyperfine line perf-gate
   * writes for them (empty when the suite measures counts only).
   */
  run: string;
  /** `commands:` (benchmark name → shell command, in file order) when perf-gate measures the commands itself, else null. */
  commands: readonly CommandConfig[] | null;
  /** A `commands:` suite's timed and warm-up runs per command (what its `run` line says), else null. */
  commandRuns: { runs: number; warmup: number } | null;
  /** What a `commands:` suite measures; `{ time: true, counts: false }` for every `run:` suite. */
  measure: { time: boolean; counts: boolean };
  /** Counted runs per command of a `commands:` suite that measures counts. */
  countRepeat: number;
  /** What counts them: valgrind's cachegrind (simulated, the default) or perf stat (the CPU's counters). */
  counter: 'cachegrind' | 'perf';
  /** Adapter name, or "auto" to detect from the output. */
  format: string;
  /** Options for the adapter (the keys of a `format:` mapping other than `name`), or null. */
  formatOptions: Readonly<Record<string, unknown>> | null;
  /** Seconds before build or run is killed (its whole process group). */
  timeout: number;
  env: Readonly<Record<string, string>>;
  /** Absolute directory build and run start in. */
  workdir: string;
  /** Harness invocations per run (samples concatenated); 1 by default. */
  repeat: number;
  /** Sweep: parameter name → values (one invocation per point of the product), or null. */
  params: Readonly<Record<string, readonly string[]>> | null;
  /** A/B settings after merging the suite's `ab:` over the file's. */
  ab: AbSettings;
  /** Does a pull request's screen send this suite's suspects to interleaved confirmation? (`confirm:`, the suite's over the file's.) */
  confirm: boolean;
  /**
   * `profile:` and `profile-command:`: which profiler records a confirmed
   * regression's benchmark on both sides, and the command it records for a
   * `run:` suite (`{benchmark}` for the name); null: no profile.
   */
  profile: { tool: ProfilerChoice; command: string | null } | null;
  /**
   * `filter:` how the second stage runs only named benchmarks of a `run:`
   * suite: words appended to the run line, with `{regex}` or `{names}`
   * (runner/select-benchmarks.ts); null: perf-gate's own for the format.
   */
  filter: string | null;
  /** Line of the suite in perf-gate.yml, for messages. */
  line: number;
  /** Line of the suite's `format:` key (the suite's line when it has none), for messages about the format. */
  formatLine: number;
}

/** One command of a `commands:` suite: its benchmark id is `<suite>/<name>`. */
export interface CommandConfig {
  name: string;
  command: string;
}

/** Timed runs and warm-up runs per command of a `commands:` suite, as hyperfine's defaults would not be for a gate. */
export const DEFAULT_COMMAND_RUNS = 10;
export const DEFAULT_COMMAND_WARMUP = 1;
/** Counted runs per command: enough to see whether the counts move between identical runs. */
export const DEFAULT_COUNT_REPEAT = 3;

/** A metric computed from others of the same benchmark (evaluated by the gate side, not here). */
export type { DerivedMetricConfig } from '../model/index.js';

/** `profile:`: perf where it may sample (else callgrind), or one of them. */
export type ProfilerChoice = 'auto' | 'perf' | 'callgrind';

/** Default cap of one run's differential profiles: five minutes of runner time. */
export const DEFAULT_PROFILE_TIME_CAP_SECONDS = 300;

export interface PerfGateConfig {
  /** The config file as given (for messages). */
  file: string;
  /** The absolute folder of the config file: its relative paths, and the repository it measures, are found from here. */
  dir: string;
  version: 1;
  /** Absolute path of the budgets folder (or file). */
  budgets: string;
  /** Absolute path of the baselines folder. */
  baselines: string;
  /** Where the run history is (docs/history.md), or null: baselines come from `baselines`. */
  history: HistorySetting | null;
  suites: readonly SuiteConfig[];
  derived: readonly DerivedMetricConfig[];
  ab: AbSettings;
  /** The two-stage verdict's second stage: on unless `confirm: off`; `timeCap` bounds its runner time (seconds). */
  confirm: { on: boolean; timeCap: number };
  /** `profile-time-cap:` in seconds: the most the differential profiles of one run may take. */
  profileTimeCap: number;
  /** `toolchain:`: tools whose versions each run records beside those the suites' commands name (runner/toolchains.ts). */
  toolchain: readonly string[];
}

/** Default cap of the interleaved second stage: twenty minutes of runner time. */
export const DEFAULT_CONFIRM_TIME_CAP_SECONDS = 1200;

/** Default timeout of build and run: ten minutes. */
export const DEFAULT_TIMEOUT_SECONDS = 600;

interface RawAb {
  rounds?: number;
  'max-rounds'?: number;
  step?: number;
  confirm?: boolean;
  'confirm-rounds'?: number;
  pin?: string;
  seed?: number;
}

interface RawSuite {
  name: string;
  build?: string;
  run?: string;
  commands?: Record<string, string>;
  measure?: 'time' | 'counts' | ('time' | 'counts')[];
  runs?: number;
  warmup?: number;
  counter?: 'cachegrind' | 'perf';
  'count-repeat'?: number;
  format?: string | { name: string; [key: string]: unknown };
  timeout?: string;
  env?: Record<string, string | number | boolean>;
  workdir?: string;
  repeat?: number;
  params?: Record<string, (string | number | boolean)[]>;
  ab?: RawAb;
  confirm?: 'interleaved' | 'off';
  profile?: ProfilerChoice;
  'profile-command'?: string;
  filter?: string;
}

interface RawDerived {
  expr: string;
  unit?: string;
  direction?: Direction;
  benchmarks?: string;
}

/** perf-gate.yml's `history:`: a folder, or a data branch of a git remote. */
export interface HistorySetting {
  /** Absolute folder of the history; null when it is a data branch. */
  folder: string | null;
  /** The data branch and the remote holding it; null for a folder. */
  branch: { name: string; remote: string } | null;
  /** Runs the between-run drift is learned from; null: the default (20). */
  driftRuns: number | null;
}

interface RawHistory {
  folder?: string;
  branch?: string;
  remote?: string;
  'drift-runs'?: number;
}

interface RawConfig {
  version: 1;
  budgets?: string;
  baselines?: string;
  history?: string | RawHistory;
  suites: RawSuite[];
  derived?: Record<string, string | RawDerived>;
  ab?: RawAb;
  confirm?: 'interleaved' | 'off';
  'confirm-time-cap'?: string;
  'profile-time-cap'?: string;
  toolchain?: string[];
}

let validator: ValidateFunction | undefined;
function validate(source: YamlSource): RawConfig {
  validator ??= compileSchema(schema);
  assertValid(source, validator);
  return source.data as RawConfig;
}

function mergeAb(base: AbSettings, raw: RawAb | undefined, source: YamlSource, path: (string | number)[]): AbSettings {
  if (!raw) return base;
  const merged: AbSettings = {
    rounds: raw.rounds ?? base.rounds,
    maxRounds: raw['max-rounds'] ?? Math.max(base.maxRounds, raw.rounds ?? base.rounds),
    step: raw.step ?? base.step,
    confirm: raw.confirm ?? base.confirm,
    confirmRounds: raw['confirm-rounds'] ?? base.confirmRounds,
    pin: raw.pin ?? base.pin,
    seed: raw.seed ?? base.seed,
  };
  if (merged.maxRounds < merged.rounds) {
    throw new InputError(
      source.file,
      `expected max-rounds (${merged.maxRounds}) to be at least rounds (${merged.rounds})`,
      source.lineOf([...path, 'max-rounds']),
      [...path, 'max-rounds'].join('.'),
    );
  }
  return merged;
}

/** A duration key's value in seconds, or an InputError naming the key's line. */
function positiveDuration(text: string, source: YamlSource, path: (string | number)[]): number {
  const q = parseQuantity(text);
  if (!q || q.dimension !== 'time' || !(q.value > 0)) {
    throw new InputError(
      source.file,
      `expected a positive duration such as "90s" or "10m", found ${JSON.stringify(text)}`,
      source.lineOf(path),
      path.join('.'),
    );
  }
  return q.value;
}

function scalarText(v: string | number | boolean): string {
  return typeof v === 'string' ? v : String(v);
}

/**
 * Parses perf-gate.yml text. `file` names it in errors; relative paths
 * (budgets, baselines, workdir) resolve against `baseDir` (the file's folder).
 */
export function parsePerfGateConfig(text: string, file: string, baseDir: string): PerfGateConfig {
  const source = parseYaml(text, file);
  const raw = validate(source);
  const ab = mergeAb(DEFAULT_AB, raw.ab, source, ['ab']);
  const confirmOn = raw.confirm !== 'off';
  const timeCap =
    raw['confirm-time-cap'] !== undefined ? positiveDuration(raw['confirm-time-cap'], source, ['confirm-time-cap']) : DEFAULT_CONFIRM_TIME_CAP_SECONDS;
  const seen = new Map<string, number>();
  const suites = raw.suites.map((s, i): SuiteConfig => {
    const line = source.lineOf(['suites', i]) ?? 1;
    const earlier = seen.get(s.name);
    if (earlier !== undefined) {
      throw new InputError(
        file,
        `duplicate suite name "${s.name}" (first used on line ${earlier}); suite names must be unique`,
        source.lineOf(['suites', i, 'name']),
        `suites.${i}.name`,
      );
    }
    seen.set(s.name, line);
    const timeout = s.timeout !== undefined ? positiveDuration(s.timeout, source, ['suites', i, 'timeout']) : DEFAULT_TIMEOUT_SECONDS;
    const { name: formatName, ...formatRest } = typeof s.format === 'object' ? s.format : { name: s.format ?? 'auto' };
    const params = s.params ? Object.fromEntries(Object.entries(s.params).map(([k, vs]) => [k, vs.map(scalarText)])) : null;
    if (params) {
      for (const [k, vs] of Object.entries(params)) {
        const dup = vs.find((v, j) => vs.indexOf(v) !== j);
        if (dup !== undefined)
          throw new InputError(
            file,
            `duplicate value ${JSON.stringify(dup)} in the sweep of "${k}"`,
            source.lineOf(['suites', i, 'params', k]),
            `suites.${i}.params.${k}`,
          );
      }
    }
    const commands = commandSuite(s, source, i);
    const run = commands?.run ?? s.run!;
    const names = ['output', ...Object.keys(params ?? {})];
    const [quoted] = commands ? [] : quotedPlaceholders(run, names);
    if (quoted) {
      const env = quoted.name === 'output' ? '$PERF_GATE_OUTPUT' : `$${paramEnvName(quoted.name)}`;
      throw new InputError(file, placeholderInQuotes(quoted, env), source.lineOf(['suites', i, 'run']), `suites.${i}.run`);
    }
    return {
      name: s.name,
      build: s.build ?? null,
      run,
      commands: commands?.commands ?? null,
      commandRuns: commands?.runs ?? null,
      measure: commands?.measure ?? { time: true, counts: false },
      countRepeat: s['count-repeat'] ?? DEFAULT_COUNT_REPEAT,
      counter: s.counter ?? 'cachegrind',
      format: commands ? 'hyperfine' : formatName,
      formatOptions: typeof s.format === 'object' ? formatRest : null,
      timeout,
      env: Object.fromEntries(Object.entries(s.env ?? {}).map(([k, v]) => [k, scalarText(v)])),
      workdir: resolve(baseDir, s.workdir ?? '.'),
      repeat: s.repeat ?? 1,
      params,
      ab: mergeAb(ab, s.ab, source, ['suites', i, 'ab']),
      confirm: (s.confirm ?? (confirmOn ? 'interleaved' : 'off')) === 'interleaved',
      profile: suiteProfile(s, commands !== undefined, source, i),
      filter: suiteFilter(s, commands !== undefined, source, i),
      line,
      formatLine: source.lineOf(['suites', i, 'format']) ?? line,
    };
  });
  const derived = Object.entries(raw.derived ?? {}).map(([name, d]): DerivedMetricConfig => {
    const full: RawDerived = typeof d === 'string' ? { expr: d } : d;
    return {
      name,
      expr: full.expr,
      unit: full.unit ?? null,
      direction: full.direction ?? null,
      benchmarks: full.benchmarks ?? null,
      source: `${file}:${source.lineOf(['derived', name]) ?? 1}`,
    };
  });
  return {
    file,
    dir: resolve(baseDir),
    version: 1,
    budgets: resolve(baseDir, raw.budgets ?? 'budgets'),
    baselines: resolve(baseDir, raw.baselines ?? 'baselines'),
    history: historySetting(raw.history, baseDir),
    suites,
    derived,
    ab,
    confirm: { on: confirmOn, timeCap },
    profileTimeCap:
      raw['profile-time-cap'] !== undefined ? positiveDuration(raw['profile-time-cap'], source, ['profile-time-cap']) : DEFAULT_PROFILE_TIME_CAP_SECONDS,
    toolchain: (raw.toolchain ?? []).map((t) => t.trim()),
  };
}

/** Why a placeholder may not stand inside quotes, and the safe ways (its environment variable, where the run line has one). */
function placeholderInQuotes(quoted: QuotedPlaceholder, envVariable?: string): string {
  const alternative = envVariable ? `, or the environment variable "${envVariable}" inside double quotes` : '';
  return `placeholder {${quoted.name}} stands inside ${quoted.quote} quotes, where its value could run as shell code or split; use the placeholder outside quotes (it becomes one safely quoted word)${alternative}`;
}

/** A suite's `profile:` and `profile-command:`; the command only beside a profiler, on a run: suite, with placeholders outside quotes. */
function suiteProfile(s: RawSuite, isCommands: boolean, source: YamlSource, i: number): SuiteConfig['profile'] {
  const file = source.file;
  const command = s['profile-command'];
  const at = (message: string): InputError => new InputError(file, message, source.lineOf(['suites', i, 'profile-command']), `suites.${i}.profile-command`);
  if (command !== undefined && isCommands) throw at("profile-command: is for a run: suite; a commands: suite profiles the benchmark's own command");
  if (command !== undefined && s.profile === undefined) throw at('profile-command: needs profile: (auto, perf or callgrind) beside it');
  const [quoted] = command !== undefined ? quotedPlaceholders(command, ['benchmark', 'output']) : [];
  if (quoted) throw at(placeholderInQuotes(quoted));
  return s.profile !== undefined ? { tool: s.profile, command: command ?? null } : null;
}

/** A `run:` suite's `filter:`, with {regex} or {names} outside quotes (each becomes quoted words). */
function suiteFilter(s: RawSuite, isCommands: boolean, source: YamlSource, i: number): string | null {
  if (s.filter === undefined) return null;
  const at = (message: string): InputError => new InputError(source.file, message, source.lineOf(['suites', i, 'filter']), `suites.${i}.filter`);
  if (isCommands) throw at('filter: is for a run: suite; a commands: suite runs only its suspect commands already');
  if (!/\{(regex|names)\}/.test(s.filter)) throw at('expected {regex} or {names} in the filter, where the names of the benchmarks to run go');
  const [quoted] = quotedPlaceholders(s.filter, ['regex', 'names']);
  if (quoted) throw at(placeholderInQuotes(quoted));
  return s.filter;
}

/** Keys that only mean something beside `commands:`. */
const COMMAND_KEYS = ['measure', 'runs', 'warmup', 'counter', 'count-repeat'] as const;

/**
 * A `commands:` suite's commands, what it measures and the hyperfine line
 * that times them; undefined for a `run:` suite. Exactly one of `run:` and
 * `commands:` is required, and the keys of the one are errors beside the other.
 */
function commandSuite(
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

/** Reads and parses perf-gate.yml; a missing file is an InputError too. */
export function loadPerfGateConfig(path: string, cwd: string): PerfGateConfig {
  const absolute = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    throw new InputError(path, `cannot read the config file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return parsePerfGateConfig(text, path, dirname(absolute));
}

function historySetting(raw: RawConfig['history'], baseDir: string): HistorySetting | null {
  if (raw === undefined) return null;
  if (typeof raw === 'string') return { folder: resolve(baseDir, raw), branch: null, driftRuns: null };
  return {
    folder: raw.folder !== undefined ? resolve(baseDir, raw.folder) : null,
    branch: raw.branch !== undefined ? { name: raw.branch, remote: raw.remote ?? 'origin' } : null,
    driftRuns: raw['drift-runs'] ?? null,
  };
}
