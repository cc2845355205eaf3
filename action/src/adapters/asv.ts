import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric, finiteOrUndefined } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText, quoteNonFinite, type JsonErrors, type JsonPath } from './json-text.js';

/**
 * airspeed velocity (asv) results files, version 2 (asv ≥ 0.5):
 * `results/<machine>/<commit>-<env>.json`, holding
 * `{"version": 2, "result_columns": ["result", "params", …, "samples", …],
 * "results": {"<bench.name>": [<one value per column>]}}`. Each row is
 * positional, named by `result_columns`; asv leaves trailing empty columns
 * out. Python's json writes bare `NaN` and `Infinity` (not JSON), which are read.
 *
 * A parameterised benchmark's `result` has one entry per combination of its
 * `params` (in itertools.product order); each becomes a benchmark
 * `name(p1, p2)` with `params` named from `../benchmarks.json` (asv's
 * `param_names`; `param1`, `param2` … when that file is not next to the
 * results folder). Entries: a number is a measurement; `null` means the
 * benchmark failed (a failed result, never dropped); `NaN` means asv skipped
 * it (SkipNotImplemented): it is left out, as nothing was measured.
 *
 * The metric follows the benchmark type (`type` in benchmarks.json, else asv's
 * own rule, the function name's prefix):
 * - `time_*` / `timeraw_*` → `time` in seconds: the `samples` column (one
 *   time per repeat, in run order; written only by `asv run --record-samples`)
 *   when present, else the `result` (asv's median) as one value;
 * - `peakmem_*` → `max_rss` in bytes (asv's peak resident set size);
 * - `mem_*` → `memory` in bytes (the size of the returned object);
 * - `track_*` (and any other type) → `value` in the benchmark's own unit
 *   (benchmarks.json `unit`, asv's default "unit"): nothing says which way is
 *   better, so perf-gate does not guess; the metric is marked
 *   `directionUnknown` and the gate warns until a budget sets `direction`.
 *
 * `results/benchmarks.json` itself is recognised and gives no benchmark (so
 * a results folder reads cleanly). Version 1 files (asv < 0.5, no
 * `result_columns`) are not read.
 */
export const asvAdapter: Adapter = {
  name: 'asv',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (!/^\s*\{/.test(head)) return { match: false, reason: 'not a JSON object' };
    if (isBenchmarksJson(head)) return { match: true };
    if (!/"result_columns"\s*:/.test(head)) return { match: false, reason: 'no asv "result_columns" key' };
    if (!/"results"\s*:/.test(text) || !/"(?:commit_hash|env_name)"\s*:/.test(head)) {
      return { match: false, reason: 'no asv "results" with "commit_hash" / "env_name"' };
    }
    return { match: true };
  },

  parse({ text, path, readRelated }: AdapterInput): BenchmarkResult[] {
    // results/benchmarks.json describes the benchmarks (types, units, parameter names); the results are next to it.
    if (/^\s*\{/.test(text) && isBenchmarksJson(text.slice(0, 65536)) && !/"result_columns"\s*:/.test(text)) return [];
    const quoted = quoteNonFinite(text);
    const what = 'an asv results file (results/<machine>/<commit>-<env>.json, version 2)';
    const data = parseJsonText(quoted, path, what);
    const errors = jsonErrors(quoted, path);
    if (!isRecord(data)) throw new InputError(path, `expected ${what}`, 1);
    if (data.version !== 2) {
      throw errors.error(
        ['version'],
        `asv results version ${JSON.stringify(data.version)}; perf-gate reads version 2 (asv 0.5 or later; rerun asv to rewrite old results)`,
      );
    }
    const columns = columnIndexes(data.result_columns, errors);
    if (!isRecord(data.results) || Object.keys(data.results).length === 0) {
      throw errors.error(['results'], 'expected a non-empty "results" object (did the benchmark filter match nothing?)');
    }
    const info = benchmarkInfo(readRelated);
    const out: BenchmarkResult[] = [];
    let skipped = 0;
    for (const [name, row] of Object.entries(data.results)) {
      const read = readBenchmark(name, row, columns, info[name], errors);
      out.push(...read.results);
      skipped += read.skipped;
    }
    if (out.length === 0) throw errors.error(['results'], `all ${skipped} results were skipped (NaN); nothing was measured`);
    return out;
  },
};

interface Columns {
  result: number;
  params?: number;
  samples?: number;
}

function columnIndexes(value: unknown, errors: JsonErrors): Columns {
  if (!Array.isArray(value) || !value.every((c) => typeof c === 'string')) {
    throw errors.error(['result_columns'], 'expected "result_columns" to be an array of column names');
  }
  const names = value as string[];
  const at = (name: string): number | undefined => (names.includes(name) ? names.indexOf(name) : undefined);
  const result = at('result');
  if (result === undefined) throw errors.error(['result_columns'], 'no "result" column in "result_columns"');
  const columns: Columns = { result };
  const params = at('params');
  const samples = at('samples');
  if (params !== undefined) columns.params = params;
  if (samples !== undefined) columns.samples = samples;
  return columns;
}

/** asv's results/benchmarks.json: one entry per benchmark with its code, type and parameter names. */
function isBenchmarksJson(head: string): boolean {
  return /"code"\s*:\s*"/.test(head) && /"param_names"\s*:/.test(head) && /"type"\s*:\s*"(?:time|memory|peakmemory|track)"/.test(head);
}

/** What benchmarks.json (written by asv next to the machine folders) says of one benchmark. */
interface BenchmarkInfo {
  type?: string;
  unit?: string;
  paramNames?: string[];
}

function benchmarkInfo(readRelated: AdapterInput['readRelated']): Record<string, BenchmarkInfo> {
  const text = readRelated('../benchmarks.json');
  if (text === undefined) return {};
  let data: unknown;
  try {
    data = JSON.parse(quoteNonFinite(text));
  } catch {
    return {}; // a broken sidecar only loses names and units; the results file is still read by prefix
  }
  if (!isRecord(data)) return {};
  const info: Record<string, BenchmarkInfo> = {};
  for (const [name, b] of Object.entries(data)) {
    if (!isRecord(b)) continue;
    const entry: BenchmarkInfo = {};
    if (typeof b.type === 'string') entry.type = b.type;
    if (typeof b.unit === 'string') entry.unit = b.unit;
    if (Array.isArray(b.param_names) && b.param_names.every((p) => typeof p === 'string')) entry.paramNames = b.param_names as string[];
    info[name] = entry;
  }
  return info;
}

/** asv's benchmark type from the function name, as asv itself decides it when benchmarks.json is absent. */
function typeFromName(name: string): string {
  const fn = name.split('.').pop() ?? name;
  if (/^(?:time_|timeraw_|Time[A-Z_]|Timeraw[A-Z_])/.test(fn)) return 'time';
  if (/^(?:peakmem_|PeakMem[A-Z_])/.test(fn)) return 'peakmemory';
  if (/^(?:mem_|Mem[A-Z_])/.test(fn)) return 'memory';
  return 'track';
}

function readBenchmark(
  name: string,
  row: unknown,
  columns: Columns,
  info: BenchmarkInfo | undefined,
  errors: JsonErrors,
): { results: BenchmarkResult[]; skipped: number } {
  const at: JsonPath = ['results', name];
  if (!Array.isArray(row) || row.length <= columns.result) {
    throw errors.error(at, `expected an array with a "result" at position ${columns.result + 1} for "${name}"`);
  }
  const params = readParams(columns.params !== undefined ? row[columns.params] : undefined, [...at, columns.params ?? 0], errors);
  const combos = combinations(params);
  const value = row[columns.result] as unknown;
  if (value === null) {
    return {
      results: [
        {
          id: name,
          status: 'failed',
          error: { message: 'asv recorded no result: the benchmark failed (its traceback is in the asv run output)' },
          metrics: {},
        },
      ],
      skipped: 0,
    };
  }
  if (!Array.isArray(value) || value.length !== combos.length) {
    throw errors.error([...at, columns.result], `expected "result" to be an array of ${combos.length} value(s), one per parameter combination, for "${name}"`);
  }
  const samplesColumn = columns.samples !== undefined ? (row[columns.samples] as unknown) : undefined;
  const type = info?.type ?? typeFromName(name);
  const names = params.map((_, k) => info?.paramNames?.[k] ?? `param${k + 1}`);
  const results: BenchmarkResult[] = [];
  let skipped = 0;
  value.forEach((v: unknown, i) => {
    const combo = combos[i]!;
    const id = combo.length > 0 ? `${name}(${combo.join(', ')})` : name;
    const base: Pick<BenchmarkResult, 'id' | 'params'> = combo.length > 0 ? { id, params: Object.fromEntries(names.map((n, k) => [n, combo[k]!])) } : { id };
    if (v === null) {
      results.push({
        ...base,
        status: 'failed',
        error: { message: 'asv recorded no result for this parameter combination: it failed (see the asv run output)' },
        metrics: {},
      });
      return;
    }
    if (v === 'NaN') {
      skipped++;
      return;
    }
    const number = finiteOrUndefined(v);
    if (number === undefined) throw errors.error([...at, columns.result, i], `expected a number, null (failed) or NaN (skipped), found ${JSON.stringify(v)}`);
    const samples = Array.isArray(samplesColumn) ? readSamples(samplesColumn[i], [...at, columns.samples!, i], errors) : undefined;
    results.push({ ...base, status: 'ok', metrics: metricsFor(type, number, samples, info?.unit) });
  });
  return { results, skipped };
}

function readParams(value: unknown, at: JsonPath, errors: JsonErrors): string[][] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((p) => Array.isArray(p) && p.length > 0 && p.every((x) => typeof x === 'string'))) {
    throw errors.error(at, 'expected "params" to be an array of lists of parameter values (strings)');
  }
  return value as string[][];
}

/** All parameter combinations, the last parameter varying fastest (itertools.product, as asv orders results). */
function combinations(params: string[][]): string[][] {
  return params.reduce<string[][]>((acc, values) => acc.flatMap((prefix) => values.map((v) => [...prefix, v])), [[]]);
}

function readSamples(value: unknown, at: JsonPath, errors: JsonErrors): number[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw errors.error(at, 'expected a list of samples');
  if (value.length === 0) return undefined;
  return value.map((s: unknown, k) => {
    const n = finiteOrUndefined(s);
    if (n === undefined || n < 0) throw errors.error([...at, k], `expected a sample (a non-negative number), found ${JSON.stringify(s)}`);
    return n;
  });
}

function metricsFor(type: string, value: number, samples: number[] | undefined, unit: string | undefined): Record<string, Metric> {
  switch (type) {
    case 'time':
      return { time: buildMetric('time', 's', samples ? { samples } : { value }, { sourceUnit: 'seconds' }) };
    case 'peakmemory':
      return { max_rss: buildMetric('max_rss', 'B', { value }, { sourceUnit: 'bytes' }) };
    case 'memory':
      return { memory: buildMetric('memory', 'B', { value }, { sourceUnit: 'bytes' }) };
    default: {
      // track_* and plugin types: an arbitrary quantity; the direction is a placeholder the gate warns about.
      const metric = buildMetric('value', unit ?? 'unit', samples ? { samples } : { value }, { direction: 'lower' });
      metric.directionUnknown = true;
      return { value: metric };
    }
  }
}
