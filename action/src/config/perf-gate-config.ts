import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { InputError, paramEnvName, parseQuantity, quotedPlaceholders, type DerivedMetricConfig, type QuotedPlaceholder } from '../model/index.js';
import { assertValid, compileSchema, parseYaml, type YamlSource } from './yaml-source.js';
import { commandSuite } from './command-suite.js';
import {
  DEFAULT_AB,
  DEFAULT_CONFIRM_TIME_CAP_SECONDS,
  DEFAULT_COUNT_REPEAT,
  DEFAULT_PROFILE_TIME_CAP_SECONDS,
  DEFAULT_TIMEOUT_SECONDS,
  type AbSettings,
  type HistorySetting,
  type PerfGateConfig,
  type SuiteConfig,
} from './config-types.js';
import type { RawAb, RawConfig, RawDerived, RawSuite } from './raw-config.js';
import schema from '../../schemas/perf-gate-config.schema.json' with { type: 'json' };

/**
 * perf-gate.yml: which suites to run, how, where budgets and baselines live,
 * derived metrics and the interleaved A/B settings. Parsing is pure (text in,
 * typed config out: config-types.ts, exported from here too); `loadPerfGateConfig`
 * is the one place that reads the file. Every problem is an InputError naming
 * the file, the line and what was expected. `commands:` suites are checked
 * and turned into a hyperfine line in command-suite.ts.
 */

export * from './config-types.js';

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
