import { bmfMeasureMeaning, InputError, metricTraits, scaleValue, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { isRecord, jsonErrors, parseJsonText } from './json-text.js';

/**
 * Bencher Metric Format: `{ "<benchmark>": { "<measure>": { "value": n,
 * "lower_value"?: n, "upper_value"?: n } } }`. BMF has no field for a unit or
 * a direction, so both come from the measure's name, by one rule
 * (model/bmf-measures.ts, bmfMeasureMeaning): Bencher's built-in measures map
 * to perf-gate's vocabulary in base units (latency is in nanoseconds, converted
 * decimally so exact values stay exact); `name (unit, higher is better)` says
 * both outright (perf-gate writes that form when the name alone would not);
 * names perf-gate writes (`bytes_per_second`, `alloc_bytes`, `latency_p99` …)
 * and rates (`items_per_second`, `…_per_sec`, `<x>/s`: higher is better) carry
 * their unit. Any other measure is a count whose direction is unknown: it is
 * read with `directionUnknown`, and the gate warns about it rather than
 * silently taking lower as better. BMF carries one value per measure, so these
 * metrics are single values.
 */

export const bmfAdapter: Adapter = {
  name: 'bmf',

  detect({ text }: AdapterInput) {
    if (!/^\s*\{/.test(text)) return { match: false, reason: 'not a JSON object' };
    if (/"schema"\s*:\s*"perf-gate\//.test(text.slice(0, 512)) || /^\s*\{\s*"results"\s*:/.test(text)) {
      return { match: false, reason: 'a perf-gate ResultSet or hyperfine file, not BMF' };
    }
    // Cheap shape check on the first entry: "name": { "measure": { "value": number
    if (!/^\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\{\s*"(?:value|lower_value|upper_value)"\s*:/.test(text)) {
      return { match: false, reason: 'not shaped like {"<benchmark>": {"<measure>": {"value": …}}}' };
    }
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    const data = parseJsonText(text, path, 'Bencher Metric Format JSON');
    if (!isRecord(data)) throw new InputError(path, 'expected a JSON object of benchmarks (Bencher Metric Format)', 1);
    const entries = Object.entries(data);
    if (entries.length === 0) throw new InputError(path, 'no benchmarks in the file; expected {"<benchmark>": {"<measure>": {"value": …}}}', 1);
    const errors = jsonErrors(text, path);
    return entries.map(([name, measures]) => {
      if (!isRecord(measures)) throw errors.error([name], 'expected an object of measures');
      const metrics: Record<string, Metric> = {};
      for (const [slug, measure] of Object.entries(measures)) {
        if (!isRecord(measure) || typeof measure.value !== 'number' || !Number.isFinite(measure.value)) {
          throw errors.error(isRecord(measure) ? [name, slug, 'value'] : [name, slug], `expected {"value": <finite number>}, found ${JSON.stringify(measure)}`);
        }
        const meaning = bmfMeasureMeaning(slug);
        const { metric, unit } = meaning;
        const { exact } = metricTraits(metric, unit);
        metrics[metric] = {
          unit,
          direction: meaning.direction,
          ...(exact ? { exact } : {}),
          ...(meaning.directionUnknown ? { directionUnknown: true } : {}),
          sourceUnit: slug === 'latency' ? 'ns' : unit,
          value: scaleValue(measure.value, meaning.toBase),
        };
      }
      return { id: name, status: 'ok', metrics } satisfies BenchmarkResult;
    });
  },
};
