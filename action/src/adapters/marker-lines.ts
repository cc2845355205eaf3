import { InputError, parseQuantity, type BenchmarkResult, type Direction, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';

/** One marker: which lines carry a metric, and how to read its value. */
export interface MarkerSpec {
  /**
   * A regular expression matched against each line. The value is the named group
   * `value`, else the first capture group; a named group `benchmark`, when
   * present, names the benchmark the line belongs to.
   */
  pattern: string;
  /** Metric name (`latency_p99`, `memory_peak`, or any custom name). */
  metric: string;
  /** The unit the program prints: `ms`, `s`, `MB`, `MiB`, `count`, `1/s`, `ops/s`, `MB/s`, `%`, or a custom word. */
  unit: string;
  /** Which way is better; default from the metric table (rates higher, everything else lower). */
  direction?: Direction;
  /** When true, a marker that never appears is not an error (by default it is: the program died before printing it). */
  optional?: boolean;
}

/** The `format:` block of a suite that reads marker lines. */
export interface MarkerLinesSpec {
  markers: MarkerSpec[];
  /**
   * Benchmark id for lines whose pattern has no `benchmark` group. Never taken
   * from the output file's name: the runner names its files per repeat and
   * sweep point (`run.r2.output`, `run.p1-n=100.output`), and an id that
   * changed with them would split one benchmark into one per invocation.
   */
  benchmark: string;
}

interface CompiledMarker extends MarkerSpec {
  regex: RegExp;
  scale: number;
  baseUnit: string;
}

/**
 * Builds an adapter for programs that print `KEY: value` lines
 * (`MIGRATION_COUNT: 27275`, `P99_LATENCY_MS: 12.5`, `HEAP_MB: 310`), as
 * configured in perf-gate.yml. Values are converted to base units with the
 * configured unit (`12.5` `ms` → 0.0125 s; `310` `MiB` → bytes); a marker seen
 * several times gives samples in output order, once a single value. Every
 * configured marker must appear unless `optional`, so output cut short by a
 * crash is an error rather than a silently smaller result. Not in the
 * auto-detect registry: it only makes sense with its configuration.
 * `source` names the config for errors in the spec itself.
 */
export function markerLinesAdapter(spec: MarkerLinesSpec, source = 'perf-gate.yml'): Adapter {
  const markers = compile(spec, source);
  return {
    name: 'marker-lines',

    detect({ text }: AdapterInput) {
      const lines = text.split('\n');
      if (markers.some((m) => lines.some((l) => m.regex.test(l)))) return { match: true };
      return { match: false, reason: `no line matches any configured marker (${markers.map((m) => m.pattern).join(', ')})` };
    },

    parse({ text, path }: AdapterInput): BenchmarkResult[] {
      if (text.trim() === '') throw new InputError(path, `the file is empty; expected lines matching ${markers.map((m) => m.pattern).join(', ')}`);
      const defaultId = spec.benchmark;
      const found = new Map<string, Map<CompiledMarker, number[]>>();
      text.split('\n').forEach((raw, i) => {
        const line = raw.replace(/\r$/, '');
        for (const marker of markers) {
          const m = marker.regex.exec(line);
          if (!m) continue;
          const captured = (m.groups?.value ?? m[1] ?? '').trim();
          const number = Number(captured.replace(/(\d),(?=\d{3}\b)/g, '$1'));
          if (captured === '' || !Number.isFinite(number)) {
            throw new InputError(path, `marker ${marker.metric} (${marker.pattern}) expected a number, found ${JSON.stringify(captured)}`, i + 1);
          }
          const id = m.groups?.benchmark?.trim() || defaultId;
          const byMarker = found.get(id) ?? new Map<CompiledMarker, number[]>();
          byMarker.set(marker, [...(byMarker.get(marker) ?? []), number * marker.scale]);
          found.set(id, byMarker);
        }
      });
      const lines = text.split('\n').length;
      if (found.size === 0) {
        throw new InputError(
          path,
          `no line matches any configured marker (${markers.map((m) => `${m.metric}: ${m.pattern}`).join('; ')}); the program's output is incomplete`,
          lines,
        );
      }
      return [...found.entries()].map(([id, byMarker]) => {
        const metrics: Record<string, Metric> = {};
        for (const marker of markers) {
          const values = byMarker.get(marker);
          if (!values) {
            if (marker.optional) continue;
            throw new InputError(
              path,
              `marker ${marker.metric} (${marker.pattern}) never appeared for ${id}; the program's output is incomplete (mark it optional if that is expected)`,
              lines,
            );
          }
          metrics[marker.metric] = buildMetric(marker.metric, marker.baseUnit, values.length === 1 ? { value: values[0]! } : { samples: values }, {
            sourceUnit: marker.unit,
            ...(marker.direction ? { direction: marker.direction } : {}),
          });
        }
        return { id, status: 'ok', metrics } satisfies BenchmarkResult;
      });
    },
  };
}

function compile(spec: MarkerLinesSpec, source: string): CompiledMarker[] {
  if (!Array.isArray(spec.markers) || spec.markers.length === 0) {
    throw new InputError(source, 'expected format.markers to list at least one { pattern, metric, unit }', undefined, 'format.markers');
  }
  const names = new Set<string>();
  return spec.markers.map((marker, k) => {
    const key = `format.markers[${k}]`;
    let regex: RegExp;
    try {
      regex = new RegExp(marker.pattern);
    } catch (error) {
      throw new InputError(source, `invalid regular expression: ${(error as Error).message}`, undefined, `${key}.pattern`);
    }
    if (!/\((?!\?[:=!<])|\(\?<value>/.test(marker.pattern)) {
      throw new InputError(source, 'expected a capture group for the value, e.g. "P99_LATENCY_MS: (\\S+)"', undefined, `${key}.pattern`);
    }
    if (typeof marker.metric !== 'string' || marker.metric === '') throw new InputError(source, 'expected a metric name', undefined, `${key}.metric`);
    if (names.has(marker.metric)) throw new InputError(source, `metric ${marker.metric} is configured twice`, undefined, `${key}.metric`);
    names.add(marker.metric);
    if (marker.direction !== undefined && marker.direction !== 'lower' && marker.direction !== 'higher') {
      throw new InputError(source, `expected direction "lower" or "higher", found ${JSON.stringify(marker.direction)}`, undefined, `${key}.direction`);
    }
    const { scale, baseUnit } = unitScale(marker.unit);
    return { ...marker, regex, scale, baseUnit };
  });
}

/** How one configured unit maps to a base unit: `ms` → s × 1e-3; `count` and custom words stay as they are. */
function unitScale(unit: string): { scale: number; baseUnit: string } {
  const u = (unit ?? '').trim();
  if (u === '' || u === 'count') return { scale: 1, baseUnit: 'count' };
  if (u === '1/s') return { scale: 1, baseUnit: '1/s' };
  const q = parseQuantity(`1 ${u}`) ?? parseQuantity(`1${u}`);
  if (q) return { scale: q.value, baseUnit: q.unit };
  return { scale: 1, baseUnit: u };
}

/**
 * Builds the adapter from a suite's `format:` mapping in perf-gate.yml (its keys
 * other than `name`), checking the shape so a typo is an error naming the key
 * instead of a marker that silently never matches. Without `benchmark:` the
 * benchmark is named after the suite (`suite`), so its id is `<suite>/<suite>`
 * whatever file the harness wrote.
 */
export function markerLinesFromOptions(options: Readonly<Record<string, unknown>>, source: string, suite: string): Adapter {
  for (const key of Object.keys(options)) {
    if (key !== 'markers' && key !== 'benchmark')
      throw new InputError(source, `unknown option "${key}"; expected markers and benchmark`, undefined, `format.${key}`);
  }
  if (options.benchmark !== undefined && (typeof options.benchmark !== 'string' || options.benchmark === '')) {
    throw new InputError(source, 'expected a benchmark name', undefined, 'format.benchmark');
  }
  if (!Array.isArray(options.markers)) throw new InputError(source, 'expected markers: a list of { pattern, metric, unit }', undefined, 'format.markers');
  const markers = options.markers.map((raw: unknown, k): MarkerSpec => {
    const key = `format.markers[${k}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InputError(source, 'expected { pattern, metric, unit }', undefined, key);
    const m = raw as Record<string, unknown>;
    for (const field of Object.keys(m)) {
      if (!['pattern', 'metric', 'unit', 'direction', 'optional'].includes(field)) {
        throw new InputError(source, `unknown field "${field}"; expected pattern, metric, unit, direction, optional`, undefined, `${key}.${field}`);
      }
    }
    for (const field of ['pattern', 'metric', 'unit'] as const) {
      if (typeof m[field] !== 'string' || m[field] === '') throw new InputError(source, `expected ${field} as a string`, undefined, `${key}.${field}`);
    }
    if (m.optional !== undefined && typeof m.optional !== 'boolean')
      throw new InputError(source, 'expected optional: true or false', undefined, `${key}.optional`);
    const spec: MarkerSpec = { pattern: m.pattern as string, metric: m.metric as string, unit: m.unit as string };
    if (m.direction !== undefined) spec.direction = m.direction as Direction;
    if (m.optional === true) spec.optional = true;
    return spec;
  });
  return markerLinesAdapter({ markers, benchmark: options.benchmark === undefined ? suite : (options.benchmark as string) }, source);
}
