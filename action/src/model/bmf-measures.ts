import { isKnownMetricName, metricTraits } from './metrics.js';
import type { Direction } from './result-set.js';

/**
 * Bencher Metric Format's built-in measures in perf-gate's vocabulary: the
 * metric each measure is, its base unit, and the factors to and from BMF's
 * units (latency is in nanoseconds). One table read both ways: by the BMF
 * adapter (adapters/bmf.ts) and by the BMF export (store/bmf.ts).
 */
export const BMF_MEASURES: Record<string, { metric: string; unit: string; toBase: number; fromBase: number }> = {
  latency: { metric: 'time', unit: 's', toBase: 1e-9, fromBase: 1e9 },
  throughput: { metric: 'throughput', unit: '1/s', toBase: 1, fromBase: 1 },
  'file-size': { metric: 'file_size', unit: 'B', toBase: 1, fromBase: 1 },
  'build-time': { metric: 'build_time', unit: 's', toBase: 1, fromBase: 1 },
};

/**
 * Measures perf-gate writes under their own names, with the base unit each is
 * in; the direction then comes from the metric table (metricTraits). Bencher
 * accepts any measure name as a key, so these travel as they are.
 */
const NAMED_UNITS: Record<string, string> = {
  cpu_time: 's',
  user_time: 's',
  system_time: 's',
  'gc.time': 's',
  'syscalls.seconds': 's',
  memory_peak: 'B',
  max_rss: 'B',
  alloc_bytes: 'B',
  'gc.alloc.rate.norm': 'B',
  bytes_per_second: 'B/s',
  transfer_per_sec: 'B/s',
  'gc.alloc.rate': 'B/s',
  items_per_second: '1/s',
  requests_per_sec: '1/s',
  allocs: 'count',
  instructions: 'count',
  cycles: 'count',
  syscalls: 'count',
  'syscalls.errors': 'count',
  errors: 'count',
  'gc.count': 'count',
};

/** What a BMF measure name says about the metric: its name, unit and direction, or that the direction is unknown. */
export interface BmfMeasureMeaning {
  metric: string;
  unit: string;
  direction: Direction;
  /** The factor from BMF's value into the base unit (1e-9 for latency's ns). */
  toBase: number;
  directionUnknown?: true;
}

/** `name (unit, higher is better)`: the form perf-gate writes when the name alone would not say both. */
const ANNOTATED = /^(.+) \(([^(),]+), (higher|lower) is better\)$/;

/** A measure name that is itself a rate: `items_per_second`, `requests_per_sec`, `MS/s`, `ops/sec`. */
function rateUnitOf(name: string): string | undefined {
  if (/_per_sec(?:ond)?$/.test(name)) return '1/s';
  if (/^[^/\s]+\/(?:s|sec)$/.test(name)) return name;
  return undefined;
}

/**
 * Reads a BMF measure name, by this rule (first match wins): Bencher's
 * built-in slugs (latency in ns, throughput, file-size, build-time); the
 * annotated form `name (unit, higher|lower is better)`; a name perf-gate
 * writes with a fixed unit (NAMED_UNITS, `latency_p<N>` in s,
 * `syscalls.<name>.seconds` in s, any other name of the metric vocabulary
 * (model/metrics.ts) a count); a name that is a rate
 * (`…_per_second`, `…_per_sec`, `<x>/s`: higher is better). Anything else is
 * a count whose direction is unknown: `direction` is a placeholder ('lower')
 * and `directionUnknown` is set, so the gate warns instead of guessing.
 */
export function bmfMeasureMeaning(slug: string): BmfMeasureMeaning {
  const builtIn = BMF_MEASURES[slug];
  if (builtIn) return { metric: builtIn.metric, unit: builtIn.unit, direction: metricTraits(builtIn.metric, builtIn.unit).direction, toBase: builtIn.toBase };
  const annotated = ANNOTATED.exec(slug);
  if (annotated) return { metric: annotated[1]!, unit: annotated[2]!, direction: annotated[3] as Direction, toBase: 1 };
  const unit = namedUnitOf(slug) ?? rateUnitOf(slug);
  if (unit !== undefined) return { metric: slug, unit, direction: metricTraits(slug, unit).direction, toBase: 1 };
  return { metric: slug, unit: 'count', direction: 'lower', toBase: 1, directionUnknown: true };
}

function namedUnitOf(name: string): string | undefined {
  if (NAMED_UNITS[name] !== undefined) return NAMED_UNITS[name];
  if (/^latency_p\d+(?:\.\d+)?$/.test(name) || /^syscalls\..+\.seconds$/.test(name)) return 's';
  // The rest of the metric vocabulary (l1_hits, syscalls.<name>.calls, errors.<kind> …) are counts;
  // bmfSlugFor writes the explicit form for any of them that is not.
  if (isKnownMetricName(name)) return 'count';
  return undefined;
}

/**
 * The BMF measure name for a perf-gate metric, and the factor from its base
 * unit into BMF's: the built-in slug when the metric is one (time → latency in
 * ns), else the metric's own name when bmfMeasureMeaning reads that back to the
 * same unit and direction (or the direction was never known), else the
 * annotated `name (unit, higher|lower is better)`, so that ResultSet → BMF →
 * ResultSet keeps every metric's unit and direction.
 */
export function bmfSlugFor(name: string, unit: string, direction: Direction, directionUnknown = false): { slug: string; fromBase: number } {
  for (const [slug, m] of Object.entries(BMF_MEASURES)) {
    if (m.metric === name && m.unit === unit && metricTraits(name, unit).direction === direction) return { slug, fromBase: m.fromBase };
  }
  const plain = bmfMeasureMeaning(name);
  const readsBack = plain.metric === name && plain.unit === unit && plain.toBase === 1;
  if (readsBack && (directionUnknown ? plain.directionUnknown === true : plain.directionUnknown !== true && plain.direction === direction)) {
    return { slug: name, fromBase: 1 };
  }
  return { slug: `${name} (${unit}, ${direction} is better)`, fromBase: 1 };
}
