/**
 * Phase 1 of a run: read what it starts from — perf-gate.yml, the budgets,
 * results measured elsewhere, and the baseline (named files, else the
 * store's choice; stores.ts opens the store). The one place that knows the
 * defaults (the config's `budgets:`, the conventional ./budgets folder) for
 * both faces.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { readInputs, type Adapter } from '../adapters/index.js';
import { validateResultSet } from '../adapters/result-set.js';
import { loadBudgets } from '../config/budgets.js';
import { loadPerfGateConfig, type PerfGateConfig } from '../config/perf-gate-config.js';
import type { SkippedFile } from '../gate/types.js';
import { EMPTY_BUDGETS, InputError, type BenchmarkResult, type Budgets, type ResultSet } from '../model/index.js';
import type { BaselineQuery, BaselineStore, ChosenBaseline } from '../store/index.js';
import { checkSuiteFormats } from './output-parser.js';

export type { PerfGateConfig } from '../config/perf-gate-config.js';
export type { Budgets } from '../model/index.js';
export type { BaselineQuery, BaselineStore, ChosenBaseline } from '../store/index.js';

/**
 * Reads perf-gate.yml (InputError naming file and line when it is wrong),
 * including each suite's format, so a misspelt one stops the run before
 * anything builds.
 */
export function readConfig(path: string, cwd: string): PerfGateConfig {
  const config = loadPerfGateConfig(path, cwd);
  checkSuiteFormats(config);
  return config;
}

/** perf-gate.yml when it exists, else null (a run gating given results needs none). */
export function readConfigIfPresent(path: string, cwd: string): PerfGateConfig | null {
  return existsSync(resolve(cwd, path)) ? readConfig(path, cwd) : null;
}

/** The conventional `budgets/` folder of the working directory, when there is one (`compare`'s default). */
export function conventionalBudgets(cwd: string): string | undefined {
  const conventional = resolve(cwd, 'budgets');
  return existsSync(conventional) && statSync(conventional).isDirectory() ? 'budgets' : undefined;
}

/**
 * The budgets of the given paths; with none given, those of `fallback` (the
 * config's `budgets:`, or the conventional folder) when it exists; else no
 * budgets at all, and only the baseline decides.
 */
export function readBudgets(paths: readonly string[] | undefined, fallback: string | undefined, cwd: string): Budgets {
  if (paths && paths.length > 0) return loadBudgets(paths, cwd);
  if (fallback !== undefined && existsSync(resolve(cwd, fallback))) return loadBudgets([fallback], cwd);
  return EMPTY_BUDGETS;
}

export interface ReadOptions {
  cwd: string;
  /** The moment of the run, for ResultSets assembled from several files. */
  created: string;
  /** Harness format of the files (default: detected per file). */
  format?: string | Adapter;
  /** The benchmark's name for formats whose output does not name it (default: the file's name). */
  name?: string;
}

/** Harness output files, folders of them, or ResultSets, as one ResultSet. */
export function readResults(paths: readonly string[], options: ReadOptions): ResultSet {
  return readResultFiles(paths, options).results;
}

/** The results of files and folders, and the files inside the folders that were not read as results (for the report). */
export function readResultFiles(paths: readonly string[], options: ReadOptions): { results: ResultSet; skipped: SkippedFile[] } {
  const read = readInputs(paths, options);
  return { results: read.resultSet, skipped: read.skipped };
}

/**
 * A ResultSet someone else wrote (the two-stage artifact), already parsed as
 * JSON, checked strictly against the schema; errors name the file and line.
 */
export function validateResults(data: unknown, file: string, text: string): ResultSet {
  return validateResultSet(data, file, text);
}

export interface BaselineRequest {
  /** Paths named on the command line or in an input (harness files or ResultSets); empty means ask the store. */
  paths: readonly string[];
  /**
   * The input that named the paths, blamed when one does not exist
   * ("no such baseline file or folder (<input>)"); absent: the reader's own message.
   */
  input?: string;
  /** Where stored baselines live; null when there is no config. */
  store: BaselineStore | null;
  /** The run about to be gated, so the store can choose. */
  query: BaselineQuery;
  /** Only these suites' benchmarks (a shard's share: the others run elsewhere); null for all. */
  suites: readonly string[] | null;
  read: ReadOptions;
}

/** A chosen baseline, with the files of named folders that were not read as results. */
export type BaselineRead = ChosenBaseline & { skipped?: SkippedFile[] };

/**
 * The baseline of a run: the named paths, else what the store chooses for
 * this commit and testbed; undefined when there is none (then every row is
 * "new" and only the budgets decide).
 */
export async function readBaseline(request: BaselineRequest): Promise<BaselineRead | undefined> {
  let chosen: BaselineRead | undefined;
  if (request.paths.length > 0) {
    if (request.input !== undefined) {
      for (const p of request.paths)
        if (!existsSync(resolve(request.read.cwd, p))) throw new InputError(p, `no such baseline file or folder (${request.input})`);
    }
    const read = readResultFiles(request.paths, request.read);
    chosen = { results: read.results, source: request.paths.join(', '), skipped: read.skipped };
  } else {
    chosen = await request.store?.select(request.query);
  }
  return chosen && request.suites ? { ...chosen, results: onlySuites(chosen.results, request.suites) } : chosen;
}

/** The benchmarks of the given suites (ids are `<suite>/…`). */
function onlySuites(set: ResultSet, suites: readonly string[]): ResultSet {
  const names = new Set(suites);
  const suiteOf = (b: BenchmarkResult): string => b.suite ?? (b.id.includes('/') ? b.id.slice(0, b.id.indexOf('/')) : b.id);
  return { ...set, benchmarks: set.benchmarks.filter((b) => names.has(suiteOf(b))) };
}
