import { BMF_MEASURES, InputError, metricTraits, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { isRecord, jsonErrors, parseJsonText } from './json-text.js';

/**
 * Bencher Metric Format: `{ "<benchmark>": { "<measure>": { "value": n,
 * "lower_value"?: n, "upper_value"?: n } } }`. Bencher's built-in measures are
 * mapped to perf-gate's vocabulary in base units (latency is in nanoseconds)
 * through model's BMF_MEASURES; other measures keep their slug as the metric
 * name. BMF carries one value per measure, so these metrics are single values.
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
        const known = BMF_MEASURES[slug];
        const metric = known?.metric ?? slug;
        const unit = known?.unit ?? 'count';
        const scale = known?.toBase ?? 1;
        metrics[metric] = { unit, ...metricTraits(metric, unit), sourceUnit: slug === 'latency' ? 'ns' : unit, value: measure.value * scale };
      }
      return { id: name, status: 'ok', metrics } satisfies BenchmarkResult;
    });
  },
};
