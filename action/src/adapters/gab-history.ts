/**
 * github-action-benchmark's history: the `data.js` it keeps on its gh-pages
 * branch (`window.BENCHMARK_DATA = {…}`), or the same object as `data.json`.
 * `entries` maps a benchmark set's name to its runs in order, each with the
 * commit, a date in milliseconds, the tool and one value per benchmark
 * (`{ name, value, unit, range?, extra? }`). Read into one ResultSet per
 * commit and date, so `perf-gate history import` can keep a project's past.
 *
 * github-action-benchmark stores one number per benchmark (no samples), so
 * each metric is a single value. Units it writes are mapped to perf-gate's
 * base units and directions (gab-units.ts); a unit it does not know keeps its
 * name as metric and unit. The custom tools set the direction of every unit
 * (`customBiggerIsBetter` → higher).
 */
import { newResultSet, type BenchmarkResult, type Metric, type ResultSet } from '../model/index.js';
import { gabUnit } from './gab-units.js';
import { isRecord, jsonErrors, parseJsonText } from './json-text.js';

/** One run of the history: the commit it measured, when, and what it measured. */
export interface ImportedRun {
  commit: string;
  created: string;
  set: ResultSet;
}

interface UnitMapping {
  metric: string;
  unit: string;
  direction: 'lower' | 'higher';
  /** Multiplier to the base unit. */
  scale: number;
}

/**
 * The units github-action-benchmark's tools write, through the table its
 * custom JSON adapter uses too (gab-units.ts), so imported history and new
 * custom-JSON runs name the same metrics. The custom tools' direction holds
 * for every unit, as in the action; other tools' units say theirs, and a unit
 * that does not is lower-is-better.
 */
function mappingOf(unit: string, tool: string): UnitMapping {
  const mapped = gabUnit(unit);
  const direction = tool === 'customBiggerIsBetter' ? 'higher' : tool === 'customSmallerIsBetter' ? 'lower' : (mapped.direction ?? 'lower');
  return { metric: mapped.metric, unit: mapped.unit, direction, scale: mapped.scale };
}

/** Runs in the history, oldest first; InputError naming the file and line for anything unusable. */
export function parseGabHistory(text: string, file: string): ImportedRun[] {
  // data.js is a script assigning the object; data.json is the object itself.
  const body = text.replace(/^\s*window\.BENCHMARK_DATA\s*=\s*/, (m) => ' '.repeat(m.length)).replace(/;\s*$/, '');
  const data = parseJsonText(body, file, "github-action-benchmark's data.js (window.BENCHMARK_DATA = {…}) or data.json");
  const errors = jsonErrors(body, file);
  if (!isRecord(data) || !isRecord(data['entries'])) throw errors.error([], 'expected an object with "entries": { "<name>": [runs…] }');
  const runs = new Map<string, ImportedRun>();
  for (const [setName, list] of Object.entries(data['entries'])) {
    if (!Array.isArray(list)) throw errors.error(['entries', setName], `expected a list of runs under "${setName}"`);
    list.forEach((entry: unknown, i) => {
      const at = ['entries', setName, i];
      if (!isRecord(entry) || !isRecord(entry['commit']) || !Array.isArray(entry['benches']))
        throw errors.error(at, 'expected a run with "commit", "date" and "benches"');
      const commit = entry['commit']['id'];
      if (typeof commit !== 'string' || !/^[0-9a-f]{40}$/.test(commit))
        throw errors.error([...at, 'commit', 'id'], `expected a full commit id (40 hex digits), found ${JSON.stringify(commit)}`);
      const date = entry['date'];
      if (typeof date !== 'number' || !Number.isFinite(date))
        throw errors.error([...at, 'date'], `expected a time in milliseconds, found ${JSON.stringify(date)}`);
      const created = new Date(date).toISOString();
      const tool = typeof entry['tool'] === 'string' ? entry['tool'] : '';
      const key = `${commit}@${created}`;
      const run = runs.get(key) ?? { commit, created, set: { ...newResultSet(created), commit } };
      runs.set(key, run);
      entry['benches'].forEach((bench: unknown, j) => {
        const benchAt = [...at, 'benches', j];
        if (
          !isRecord(bench) ||
          typeof bench['name'] !== 'string' ||
          typeof bench['value'] !== 'number' ||
          !Number.isFinite(bench['value']) ||
          typeof bench['unit'] !== 'string'
        ) {
          throw errors.error(benchAt, 'expected { "name": string, "value": a finite number, "unit": string }');
        }
        addValue(run.set.benchmarks, bench['name'], mappingOf(bench['unit'], tool), bench['value'], bench['unit']);
      });
    });
  }
  return [...runs.values()].sort((p, q) => (p.created < q.created ? -1 : p.created > q.created ? 1 : 0));
}

function addValue(benchmarks: BenchmarkResult[], id: string, m: UnitMapping, value: number, sourceUnit: string): void {
  let b = benchmarks.find((x) => x.id === id);
  if (b === undefined) {
    b = { id, status: 'ok', metrics: {} };
    benchmarks.push(b);
  }
  const metric: Metric = { unit: m.unit, direction: m.direction, value: value * m.scale, sourceUnit };
  b.metrics[m.metric] = metric;
}
