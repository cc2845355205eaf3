/**
 * adapters/ turns harness output into BenchmarkResults: one format per file,
 * pure parsing, base units. This index owns the registry (format name →
 * adapter) and the only file reading of the folder: `readInputs` reads files
 * or folders once, picks the adapter (given or detected from content), and
 * merges the results. Adapters must never spawn processes or decide verdicts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import {
  dimensionOfUnit,
  InputError,
  MAX_BENCHMARK_ID_LENGTH,
  newResultSet,
  type BenchmarkResult,
  type Metric,
  type ResultSet,
  type Testbed,
} from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { whySkipped } from './folder-files.js';
import { resultSetAdapter } from './result-set.js';
import { bmfAdapter } from './bmf.js';
import { hyperfineAdapter } from './hyperfine.js';
import { pytestBenchmarkAdapter } from './pytest-benchmark.js';
import { benchmarkDotNetAdapter } from './benchmarkdotnet.js';
import { tinybenchAdapter } from './tinybench.js';
import { mitataAdapter } from './mitata.js';
import { benchmarkJsAdapter } from './benchmarkjs.js';
import { junitAdapter } from './junit.js';
import { wrkAdapter } from './wrk.js';
import { gnuTimeAdapter } from './gnu-time.js';
import { massifAdapter } from './massif.js';
import { callgrindAdapter } from './callgrind.js';
import { cachegrindAdapter } from './cachegrind.js';
import { straceAdapter } from './strace.js';
import { perfStatAdapter } from './perf-stat.js';
import { criterionAdapter } from './criterion.js';
import { cargoCriterionAdapter } from './cargo-criterion.js';
import { libtestAdapter } from './libtest.js';
import { jmhAdapter } from './jmh.js';
import { jmhCsvAdapter } from './jmh-csv.js';
import { jmhTextAdapter } from './jmh-text.js';
import { divanAdapter } from './divan.js';
import { goBenchAdapter } from './go-bench.js';
import { gbenchAdapter } from './gbench.js';
import { catch2Adapter } from './catch2.js';
import { criterionConsoleAdapter } from './criterion-console.js';
import { juliaBenchmarkToolsAdapter } from './julia-benchmarktools.js';
import { benchmarkIpsAdapter } from './benchmark-ips.js';
import { rubyBenchmarkAdapter } from './ruby-benchmark.js';
import { dartBenchmarkHarnessAdapter } from './dart-benchmark-harness.js';
import { benchmarkLuauAdapter } from './benchmarkluau.js';
import { consoleTimeAdapter } from './console-time.js';
import { customBiggerAdapter, customSmallerAdapter } from './custom-json.js';
import { iaiAdapter } from './iai.js';
import { vitestBenchAdapter } from './vitest-bench.js';
import { asvAdapter } from './asv.js';
import { vegetaAdapter } from './vegeta.js';
import { heyAdapter } from './hey.js';
import { h2loadAdapter } from './h2load.js';
import { abAdapter } from './apache-bench.js';
import { ohaAdapter } from './oha.js';
import { pyperfAdapter } from './pyperf.js';

export type { Adapter, AdapterInput, Detection } from './adapter.js';

/**
 * Every format perf-gate reads, by name. Auto-detection tries them in this
 * order, so the most specific formats come first. A new format is one file and
 * one line here.
 */
export const ADAPTERS: Record<string, Adapter> = {
  [resultSetAdapter.name]: resultSetAdapter,
  [bmfAdapter.name]: bmfAdapter,
  [hyperfineAdapter.name]: hyperfineAdapter,
  [pytestBenchmarkAdapter.name]: pytestBenchmarkAdapter,
  [pyperfAdapter.name]: pyperfAdapter,
  [benchmarkDotNetAdapter.name]: benchmarkDotNetAdapter,
  [tinybenchAdapter.name]: tinybenchAdapter,
  [mitataAdapter.name]: mitataAdapter,
  [benchmarkJsAdapter.name]: benchmarkJsAdapter,
  [junitAdapter.name]: junitAdapter,
  [wrkAdapter.name]: wrkAdapter,
  [vegetaAdapter.name]: vegetaAdapter,
  [heyAdapter.name]: heyAdapter,
  [h2loadAdapter.name]: h2loadAdapter,
  [abAdapter.name]: abAdapter,
  [ohaAdapter.name]: ohaAdapter,
  [gnuTimeAdapter.name]: gnuTimeAdapter,
  [massifAdapter.name]: massifAdapter,
  [callgrindAdapter.name]: callgrindAdapter,
  [cachegrindAdapter.name]: cachegrindAdapter,
  [straceAdapter.name]: straceAdapter,
  [perfStatAdapter.name]: perfStatAdapter,
  [criterionAdapter.name]: criterionAdapter,
  [cargoCriterionAdapter.name]: cargoCriterionAdapter,
  [libtestAdapter.name]: libtestAdapter,
  [jmhAdapter.name]: jmhAdapter,
  [jmhCsvAdapter.name]: jmhCsvAdapter,
  [jmhTextAdapter.name]: jmhTextAdapter,
  [divanAdapter.name]: divanAdapter,
  [goBenchAdapter.name]: goBenchAdapter,
  [gbenchAdapter.name]: gbenchAdapter,
  [catch2Adapter.name]: catch2Adapter,
  [criterionConsoleAdapter.name]: criterionConsoleAdapter,
  [juliaBenchmarkToolsAdapter.name]: juliaBenchmarkToolsAdapter,
  [benchmarkIpsAdapter.name]: benchmarkIpsAdapter,
  [rubyBenchmarkAdapter.name]: rubyBenchmarkAdapter,
  [dartBenchmarkHarnessAdapter.name]: dartBenchmarkHarnessAdapter,
  [benchmarkLuauAdapter.name]: benchmarkLuauAdapter,
  [iaiAdapter.name]: iaiAdapter,
  [vitestBenchAdapter.name]: vitestBenchAdapter,
  [asvAdapter.name]: asvAdapter,
  // Last of the detected ones: its lines carry no mark of their tool, so it only takes files made of nothing else.
  [consoleTimeAdapter.name]: consoleTimeAdapter,
  // Never detected (the direction is not in the file); named with --format, they say so when nothing matches.
  [customSmallerAdapter.name]: customSmallerAdapter,
  [customBiggerAdapter.name]: customBiggerAdapter,
};

/** Names accepted by --format: every adapter, plus "auto". */
export function formatNames(): string[] {
  return ['auto', ...Object.keys(ADAPTERS)];
}

/** Builds the adapter input for a file, reading related files lazily from its folder; `name` as in AdapterInput. */
export function fileInput(path: string, text: string, name?: string): AdapterInput {
  return {
    path,
    text,
    ...(name !== undefined ? { name } : {}),
    readRelated(relativePath: string): string | undefined {
      try {
        return readFileSync(join(dirname(path), relativePath), 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * Chooses the adapter for one input: the named one, or the first whose
 * detect() matches. When nothing matches, the error lists every adapter and
 * its reason, so the user sees what was tried.
 */
export function chooseAdapter(input: AdapterInput, format: string | Adapter = 'auto'): Adapter {
  if (typeof format !== 'string') return format;
  if (format !== 'auto') {
    // A stored baseline stays a ResultSet whatever harness format the other inputs have.
    if (resultSetAdapter.detect(input).match) return resultSetAdapter;
    const adapter = ADAPTERS[format];
    if (!adapter) throw new InputError(input.path, `unknown format "${format}"; expected one of ${formatNames().join(', ')}`);
    return adapter;
  }
  if (input.text.trim() === '') {
    throw new InputError(input.path, 'the file is empty; expected benchmark results (a harness that failed before writing its output leaves an empty file)');
  }
  const reasons: string[] = [];
  for (const adapter of Object.values(ADAPTERS)) {
    const detection = adapter.detect(input);
    if (detection.match) return adapter;
    reasons.push(`  ${adapter.name}: ${detection.reason}`);
  }
  throw new InputError(input.path, `no format recognised this file; tried:\n${reasons.join('\n')}`);
}

/** Parses one file's text with the given or detected format. */
export function parseInput(input: AdapterInput, format: string | Adapter = 'auto'): BenchmarkResult[] {
  return checkedParse(chooseAdapter(input, format), input);
}

/**
 * An adapter's parse, with the checks every format needs and no adapter
 * should have to repeat: a benchmark has a name, no name comes twice in one
 * file, every number is finite (a harness that printed `inf`, or a value past
 * 1.8e308, would otherwise reach the statistics as Infinity or NaN), a sample
 * count is a whole number and a spread is not negative. What the ResultSet
 * schema demands of a stored run, demanded of every parse, with a message.
 */
function checkedParse(adapter: Adapter, input: AdapterInput): BenchmarkResult[] {
  const results = adapter.parse(input);
  const seen = new Set<string>();
  for (const b of results) {
    if (b.id === '') throw new InputError(input.path, `a benchmark in this ${adapter.name} file has an empty name; expected every benchmark to be named`);
    if (b.id.length > MAX_BENCHMARK_ID_LENGTH) {
      throw new InputError(
        input.path,
        `a benchmark name in this ${adapter.name} file is ${b.id.length.toLocaleString('en')} characters long ("${b.id.slice(0, 40)}…"); expected at most ${MAX_BENCHMARK_ID_LENGTH.toLocaleString('en')} (a name this long is usually a harness printing its input)`,
      );
    }
    if (seen.has(b.id)) throw new InputError(input.path, `benchmark "${b.id}" appears twice in this ${adapter.name} file; each benchmark must appear once`);
    seen.add(b.id);
    for (const [name, m] of Object.entries(b.metrics)) {
      const problem = metricProblem(m);
      if (problem !== undefined) throw new InputError(input.path, `benchmark "${b.id}", metric "${name}": ${problem}`);
    }
    if (b.error?.exitCode !== undefined && b.error.exitCode !== null && !Number.isInteger(b.error.exitCode)) {
      throw new InputError(input.path, `benchmark "${b.id}": its exit code ${b.error.exitCode} is not a whole number`);
    }
  }
  return results;
}

/** What is wrong with a metric's numbers, or undefined when nothing is. */
function metricProblem(m: Metric): string | undefined {
  const finite = `expected finite ${m.sourceUnit ?? m.unit} values (a value out of range, or "inf"/"nan" in the harness output?)`;
  const i = m.samples?.findIndex((x) => !Number.isFinite(x)) ?? -1;
  if (i >= 0) return `sample ${i + 1} (${m.samples![i]}) is not a finite number; ${finite}`;
  if (m.value !== undefined && !Number.isFinite(m.value)) return `its value (${m.value}) is not a finite number; ${finite}`;
  // No duration, size or rate is below zero: a negative one is a harness's arithmetic gone wrong, never a fast benchmark.
  const dimension = dimensionOfUnit(m.unit);
  if (dimension !== undefined && dimension !== 'count' && dimension !== 'fraction') {
    const negative = [...(m.samples ?? []), ...(m.value !== undefined ? [m.value] : []), ...(m.summary ? [m.summary.mean] : [])].find((x) => x < 0);
    if (negative !== undefined) return `${negative} ${m.unit} is negative; expected a ${dimension} of 0 or more`;
  }
  const s = m.summary;
  if (s === undefined) return undefined;
  for (const [key, x] of Object.entries(s)) if (typeof x === 'number' && !Number.isFinite(x)) return `its ${key} (${x}) is not a finite number; ${finite}`;
  if (!Number.isInteger(s.n) || s.n < 1) return `its sample count (${s.n}) is not a whole number of at least 1`;
  if (typeof s.stddev === 'number' && s.stddev < 0) return `its standard deviation (${s.stddev}) is negative`;
  return undefined;
}

export interface ReadResult {
  /** The merged results; ResultSet metadata (commit, testbed …) kept when one ResultSet was read. */
  resultSet: ResultSet;
  /** Files read, with the format each was read as. */
  files: { path: string; format: string; benchmarks: number }[];
  /**
   * Files inside folders that are clearly not results (a README, a binary,
   * valid JSON no format knows), with the reason; the report lists them.
   * Named files never end up here, nor do broken results inside a folder
   * (empty, truncated): those are errors. See folder-files.ts.
   */
  skipped: { path: string; reason: string }[];
}

/**
 * The files of a results folder, in name order. A symbolic link inside it is
 * not followed (it could lead anywhere on the runner) but listed in `skipped`,
 * so nothing is dropped unseen.
 */
function listFiles(dir: string, skipped: ReadResult['skipped']): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      // Hidden entries are never results: .git, editor files, and the temporary files of an interrupted atomic write.
      if (entry.name.startsWith('.')) return [];
      if (entry.isSymbolicLink()) {
        skipped.push({ path, reason: 'a symbolic link: links inside a results folder are not followed (give the file itself)' });
        return [];
      }
      if (entry.isDirectory()) return listFiles(path, skipped);
      return entry.isFile() ? [path] : [];
    });
}

/** Why a path cannot be read, in words: a loop of links is not "no such file". */
function unreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'ELOOP') return 'a loop of symbolic links (each points on to the next and none reaches a file)';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return `cannot read: ${code ?? String(error)}`;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(path, unreadable(error));
  }
}

/**
 * Reads harness output files, folders of them, or ResultSets, and merges them
 * into one ResultSet. Benchmark ids must be unique across the inputs: two files
 * giving the same id is an error naming both, never a silent overwrite.
 */
export function readInputs(paths: readonly string[], options: { format?: string | Adapter; cwd: string; created: string; name?: string }): ReadResult {
  const files: ReadResult['files'] = [];
  const skipped: ReadResult['skipped'] = [];
  const benchmarks: BenchmarkResult[] = [];
  const origin = new Map<string, string>();
  let metadata: Omit<ResultSet, 'benchmarks'> | undefined;
  let resultSetsRead = 0;
  const fileTestbeds: Testbed[] = [];

  const addFile = (path: string, insideFolder: boolean): void => {
    const text = readText(path);
    const input = fileInput(path, text, options.name);
    let adapter: Adapter;
    try {
      adapter = chooseAdapter(input, options.format ?? 'auto');
    } catch (error) {
      if (insideFolder && error instanceof InputError && (options.format ?? 'auto') === 'auto') {
        skipped.push({ path, reason: whySkipped(path, text) });
        return;
      }
      throw error;
    }
    const parsed = checkedParse(adapter, input);
    if (parsed.length === 0 && !insideFolder) {
      throw new InputError(
        path,
        `this ${adapter.name} file holds no benchmark of its own (for criterion: base/, change/ and sample.json are read through new/estimates.json); point at the results file or its folder`,
      );
    }
    const testbed = adapter.testbed?.(input);
    if (testbed) fileTestbeds.push(testbed);
    if (adapter === resultSetAdapter) {
      resultSetsRead++;
      const { benchmarks: _ignored, ...meta } = JSON.parse(text) as ResultSet;
      void _ignored;
      metadata = meta;
    }
    for (const b of parsed) {
      const previous = origin.get(b.id);
      if (previous !== undefined) {
        // (checkedParse already refused a repeat inside one file.)
        throw new InputError(path, `benchmark "${b.id}" also appears in ${previous}; each benchmark id must come from one input`);
      }
      origin.set(b.id, path);
      benchmarks.push(b);
    }
    files.push({ path, format: adapter.name, benchmarks: parsed.length });
  };

  for (const given of paths) {
    const path = resolve(options.cwd, given);
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch (error) {
      throw new InputError(given, unreadable(error));
    }
    if (isDir) {
      const before = benchmarks.length;
      for (const file of listFiles(path, skipped)) addFile(file, true);
      if (benchmarks.length === before) {
        const why = skipped.filter((s) => s.path.startsWith(path)).map((s) => `${relative(path, s.path)} (${s.reason})`);
        throw new InputError(given, `the folder holds no benchmark results${why.length ? `; skipped: ${why.slice(0, 10).join(', ')}` : ''}`);
      }
    } else {
      addFile(path, false);
    }
  }

  const resultSet: ResultSet =
    resultSetsRead === 1 && files.length === 1 && metadata
      ? { ...metadata, benchmarks }
      : { ...newResultSet(options.created), ...(resultSetsRead > 0 && metadata ? pickShared(metadata) : {}), benchmarks };
  if (resultSet.testbed === undefined && resultSetsRead === 0) {
    const testbed = agreedTestbed(fileTestbeds);
    if (testbed) resultSet.testbed = testbed;
  }
  return { resultSet, files, skipped };
}

/**
 * The testbed harness files recorded (pyperf's metadata), when every file
 * that recorded one names the same machine; files from different machines
 * give none, since a ResultSet has one testbed.
 */
function agreedTestbed(testbeds: Testbed[]): Testbed | undefined {
  const ids = new Set(testbeds.map((t) => t.id));
  return ids.size === 1 ? testbeds[0] : undefined;
}

/** Metadata worth keeping when several inputs are merged: the testbed (identity of the machine). */
function pickShared(meta: Omit<ResultSet, 'benchmarks'>): Partial<ResultSet> {
  return meta.testbed ? { testbed: meta.testbed } : {};
}
