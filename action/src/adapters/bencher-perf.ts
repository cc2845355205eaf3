/**
 * Bencher's history export: the JSON of a perf query (`bencher perf --project P
 * --branches … --testbeds … --benchmarks … --measures …`, or the API's
 * `GET /v0/projects/{project}/perf`). `results` holds one line per branch ×
 * testbed × benchmark × measure, and each line's `metrics` one point per
 * report and iteration: `{ report, iteration, start_time, version: { number,
 * hash }, metric: { value, lower_value?, upper_value? } }`. Read into one
 * ResultSet per report, so `perf-gate history import` keeps a project's past
 * when it moves from Bencher.
 *
 * - A report's iterations (`bencher run --iter N`) are the samples of one run;
 *   one iteration is a single value, as Bencher stores one number per point.
 * - Bencher's built-in measures (latency in ns, throughput, file-size,
 *   build-time) map to perf-gate's metrics in base units. Another measure's
 *   direction is not in the export; it is taken from its `units` when they
 *   name a rate ("… / second": higher is better) or a time or size (lower),
 *   and otherwise the measure is left out and named in `skipped`, never
 *   guessed.
 * - perf-gate keys runs by commit, so a point whose version has no git hash is
 *   left out and counted in `skipped`.
 * - An export can mix branches and testbeds; importing them into one testbed's
 *   history would mix machines, so more than one of either is an error unless
 *   `branch` / `testbed` pick one (by slug or name).
 */
import { BMF_MEASURES, newResultSet, type BenchmarkResult, type Metric } from '../model/index.js';
import type { ImportedRun } from './gab-history.js';
import { isRecord, jsonErrors, parseJsonText, type JsonErrors } from './json-text.js';

export interface BencherPerfChoice {
  /** The Bencher branch to read (slug or name); needed when the export holds several. */
  branch?: string;
  /** The Bencher testbed to read (slug or name); needed when the export holds several. */
  testbed?: string;
}

export interface BencherPerfImport {
  runs: ImportedRun[];
  /** What was left out and why, one line each ("measure cpu-temp: its direction is not in the export"). */
  skipped: string[];
}

interface MeasureMapping {
  metric: string;
  unit: string;
  direction: 'lower' | 'higher';
  scale: number;
  sourceUnit: string;
}

export function parseBencherPerf(text: string, file: string, choice: BencherPerfChoice = {}): BencherPerfImport {
  const data = parseJsonText(text, file, 'Bencher\'s perf export ({"project": …, "results": [ … ]})');
  const errors = jsonErrors(text, file);
  if (!isRecord(data) || !Array.isArray(data['results']))
    throw errors.error([], 'expected an object with "results": [ one line per branch, testbed, benchmark and measure ]');
  const lines = data['results'].map((line: unknown, i) => checkedLine(line, i, errors));
  const chosen = lines.filter((l) => matches(l.branch, choice.branch) && matches(l.testbed, choice.testbed));
  requireOne(
    'branch',
    'branches',
    chosen.map((l) => l.branch),
    choice.branch,
    errors,
  );
  requireOne(
    'testbed',
    'testbeds',
    chosen.map((l) => l.testbed),
    choice.testbed,
    errors,
  );

  const skipped: string[] = [];
  const runs = new Map<string, ImportedRun & { points: Map<string, { mapping: MeasureMapping; values: number[] }> }>();
  let withoutHash = 0;
  for (const line of chosen) {
    const mapping = mappingOf(line.measure);
    if (mapping === undefined) {
      const note = `measure ${line.measure.slug}: its direction is not in the export (units ${JSON.stringify(line.measure.units)})`;
      if (!skipped.includes(note)) skipped.push(note);
      continue;
    }
    line.points.forEach((point, j) => {
      const at = ['results', line.index, 'metrics', j];
      if (!isRecord(point) || !isRecord(point['metric']) || typeof point['metric']['value'] !== 'number' || !Number.isFinite(point['metric']['value'])) {
        throw errors.error([...at, 'metric', 'value'], 'expected a point with "metric": { "value": a finite number }');
      }
      if (typeof point['report'] !== 'string' || typeof point['start_time'] !== 'string' || Number.isNaN(Date.parse(point['start_time']))) {
        throw errors.error(at, 'expected a point with "report" (its id) and "start_time" (a date)');
      }
      const hash = isRecord(point['version']) ? point['version']['hash'] : undefined;
      if (typeof hash !== 'string' || !/^[0-9a-f]{40}$/.test(hash)) {
        withoutHash++;
        return;
      }
      const created = new Date(point['start_time']).toISOString();
      const run = runs.get(point['report']) ?? { commit: hash, created, set: { ...newResultSet(created), commit: hash }, points: new Map() };
      runs.set(point['report'], run);
      const key = `${line.benchmark}\u0000${mapping.metric}`;
      const values = run.points.get(key) ?? { mapping, values: [] };
      values.values[typeof point['iteration'] === 'number' ? point['iteration'] : values.values.length] = point['metric']['value'] * mapping.scale;
      run.points.set(key, values);
    });
  }
  if (withoutHash > 0) skipped.push(`${withoutHash} point(s) without a git hash: perf-gate keys runs by commit`);
  const out = [...runs.values()].map(({ points, ...run }) => ({ ...run, set: { ...run.set, benchmarks: benchmarksOf(points) } }));
  return { runs: out.sort((p, q) => (p.created < q.created ? -1 : p.created > q.created ? 1 : 0)), skipped };
}

interface Line {
  index: number;
  branch: string[];
  testbed: string[];
  benchmark: string;
  measure: { slug: string; units: string };
  points: unknown[];
}

function checkedLine(line: unknown, index: number, errors: JsonErrors): Line {
  const at = ['results', index];
  if (!isRecord(line)) throw errors.error(at, 'expected a result line with "branch", "testbed", "benchmark", "measure" and "metrics"');
  const named = (key: string): string[] => {
    const value = line[key];
    if (!isRecord(value) || typeof value['name'] !== 'string') throw errors.error([...at, key], `expected "${key}": { "name": …, "slug": … }`);
    return typeof value['slug'] === 'string' ? [value['slug'], value['name']] : [value['name']];
  };
  const measure = line['measure'];
  if (!isRecord(measure) || typeof measure['slug'] !== 'string') {
    throw errors.error([...at, 'measure'], 'expected "measure": { "slug": …, "units": … } (exports from Bencher before measures existed are not read)');
  }
  if (!Array.isArray(line['metrics'])) throw errors.error([...at, 'metrics'], 'expected "metrics": [ points ]');
  return {
    index,
    branch: named('branch'),
    testbed: named('testbed'),
    benchmark: named('benchmark').at(-1)!,
    measure: { slug: measure['slug'], units: typeof measure['units'] === 'string' ? measure['units'] : '' },
    points: line['metrics'],
  };
}

function matches(names: string[], wanted: string | undefined): boolean {
  return wanted === undefined || names.includes(wanted);
}

function requireOne(what: string, plural: string, found: string[][], wanted: string | undefined, errors: JsonErrors): void {
  const distinct = [...new Set(found.map((n) => n[0]!))];
  if (wanted !== undefined && distinct.length === 0) throw errors.error(['results'], `no result line is on ${what} "${wanted}"`);
  if (distinct.length > 1) {
    throw errors.error(
      ['results'],
      `the export holds ${distinct.length} ${plural} (${distinct.join(', ')}); choose one with --bencher-${what} so one machine's history is not mixed with another's`,
    );
  }
}

const TIME_UNITS: Record<string, number> = {
  ns: 1e-9,
  nanoseconds: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  microseconds: 1e-6,
  ms: 1e-3,
  milliseconds: 1e-3,
  s: 1,
  seconds: 1,
};

/** A measure's metric, base unit and direction; undefined when the export does not say which way is better. */
function mappingOf(measure: { slug: string; units: string }): MeasureMapping | undefined {
  const known = BMF_MEASURES[measure.slug];
  if (known)
    return {
      metric: known.metric,
      unit: known.unit,
      direction: known.metric === 'throughput' ? 'higher' : 'lower',
      scale: known.toBase,
      sourceUnit: measure.units || measure.slug,
    };
  const units = measure.units.trim();
  const metric = measure.slug.replace(/-/g, '_');
  // "operations / second (ops/s)", "bytes / second", "MB/s": a rate, higher is better.
  if (/\/\s*(?:second|sec|s)\b/i.test(units)) return { metric, unit: '1/s', direction: 'higher', scale: 1, sourceUnit: units };
  // "nanoseconds (ns)", "milliseconds": a time, lower is better.
  const abbreviation = /\(([^)]+)\)\s*$/.exec(units)?.[1] ?? units;
  const time = TIME_UNITS[abbreviation] ?? TIME_UNITS[units.split(/\s/)[0]!.toLowerCase()];
  if (time !== undefined) return { metric, unit: 's', direction: 'lower', scale: time, sourceUnit: units };
  if (/^(?:bytes?|B)\b|\(B\)$/.test(units)) return { metric, unit: 'B', direction: 'lower', scale: 1, sourceUnit: units };
  return undefined;
}

function benchmarksOf(points: Map<string, { mapping: MeasureMapping; values: number[] }>): BenchmarkResult[] {
  const benchmarks = new Map<string, BenchmarkResult>();
  for (const [key, { mapping, values }] of points) {
    const [id] = key.split('\u0000') as [string];
    const present = values.filter((v) => v !== undefined);
    const metric: Metric = {
      unit: mapping.unit,
      direction: mapping.direction,
      sourceUnit: mapping.sourceUnit,
      ...(present.length === 1 ? { value: present[0]! } : { samples: present }),
    };
    const result = benchmarks.get(id) ?? { id, status: 'ok', metrics: {} };
    result.metrics[mapping.metric] = metric;
    benchmarks.set(id, result);
  }
  return [...benchmarks.values()];
}
