import { InputError, shiftDecimal } from '../../model/index.js';

/**
 * How the history store keeps samples small (pure). A history of 10,000 runs
 * of 4,000 samples is 40 million numbers; written to the nanosecond they cost
 * about 4 bytes each gzip'd, almost all of it the noise's last digits. The
 * store keeps each metric's samples to a resolution fine against their own
 * spread instead:
 *
 * - the step is the largest 1, 2 or 5 × 10^k that is at most a quarter of the
 *   samples' robust spread (1.4826 × their median absolute deviation), so
 *   rounding adds at most 1/192 (0.5 %) to the variance a test sees;
 * - samples whose spread is zero (more than half of them equal: counts,
 *   allocations, deterministic memory) are kept exactly, and whole numbers
 *   never get a step below 1, so they stay whole;
 * - a metric of fewer than 3 samples is kept exactly (no spread to speak of).
 *
 * A packed metric's sample i is (at + dᵢ) × m × 10^k, computed decimally, in
 * the original order (paired designs need it), with every dᵢ in −32…31 (one
 * character each); a metric whose offsets do not fit (a far outlier) keeps
 * its samples exactly. The packed numbers are stored in columns at the top
 * of the run, `packed: { steps, at, d }`, and the metric's `samples` holds
 * only their count: gzip codes each column far better than the same numbers
 * interleaved with JSON keys (a run of 4,000 samples: 4.2 KiB against 5.7).
 * Everything else in the ResultSet is kept as it is.
 */

/** A metric's packed samples: sample i is (at + d[i]) × m × 10^k. */
export interface PackedSamples {
  m: 1 | 2 | 5;
  k: number;
  /** The median, in steps. */
  at: number;
  /** Each sample's offset from `at`, in steps, each in −32…31. */
  d: number[];
}

/** The columns of a packed run, in the order of its packed metrics. */
export interface PackedColumns {
  /** Each metric's step, "<m>e<k>", separated by spaces. */
  steps: string;
  at: number[];
  /** Every offset, one DIGITS character each. */
  d: string;
}

/** One character per offset −32…31 (base64url's alphabet, so JSON never escapes it). */
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const OFFSET = 32;
/** Rounding error variance = step²/12 ≤ (spread/4)²/12: at most 1/192 of the variance. */
const STEPS_PER_SPREAD = 4;
/** 1.4826 × MAD estimates σ for normal noise. */
const MAD_TO_SIGMA = 1.4826;
const MIN_SAMPLES = 3;

/** The step for `samples` as m × 10^k, or undefined to keep them exactly. */
export function chooseStep(samples: readonly number[]): { m: 1 | 2 | 5; k: number } | undefined {
  if (samples.length < MIN_SAMPLES || !samples.every(Number.isFinite)) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = medianOfSorted(sorted);
  const spread = MAD_TO_SIGMA * medianOfSorted(sorted.map((x) => Math.abs(x - mid)).sort((a, b) => a - b));
  if (!(spread > 0)) return undefined;
  const limit = spread / STEPS_PER_SPREAD;
  let k = Math.floor(Math.log10(limit));
  let m: 1 | 2 | 5 = limit >= 5 * 10 ** k ? 5 : limit >= 2 * 10 ** k ? 2 : 1;
  // log10 can land one off at an exact power of ten; the step must not exceed the limit either way.
  if (m * 10 ** k > limit) [m, k] = m === 1 ? [5, k - 1] : [m === 5 ? 2 : 1, k];
  if (k < 0 && samples.every(Number.isInteger)) return { m: 1, k: 0 };
  return { m, k };
}

/** `samples` packed at the step chooseStep gives, or undefined to store them as they are. */
export function packSamples(samples: readonly number[]): PackedSamples | undefined {
  const step = chooseStep(samples);
  if (step === undefined) return undefined;
  const units = samples.map((x) => Math.round(shiftDecimal(x, -step.k) / step.m));
  // A spread tiny against the level (1 ns on 10^17 ns) would need steps beyond exact whole numbers.
  if (!units.every(Number.isSafeInteger)) return undefined;
  const at = Math.round(medianOfSorted([...units].sort((a, b) => a - b)));
  const d = units.map((u) => u - at);
  return d.every((x) => x >= -OFFSET && x < OFFSET) ? { ...step, at, d } : undefined;
}

/** The samples `packed` stands for. */
export function unpackSamples(packed: PackedSamples): number[] {
  return packed.d.map((x) => shiftDecimal((packed.at + x) * packed.m, packed.k));
}

type MetricsHolder = { benchmarks: readonly { metrics: Record<string, { samples?: number[] }> }[] };

/**
 * A ResultSet-shaped value with the samples of every metric that packs
 * replaced by their count, and the columns in `packed`. The input is not
 * changed; a set with nothing to pack comes back as it is.
 */
export function packResultSet<T extends MetricsHolder>(set: T): unknown {
  const steps: string[] = [];
  const at: number[] = [];
  const d: string[] = [];
  const benchmarks = set.benchmarks.map((b) => ({
    ...b,
    metrics: Object.fromEntries(
      Object.entries(b.metrics).map(([name, metric]) => {
        const packed = metric.samples === undefined ? undefined : packSamples(metric.samples);
        if (packed === undefined) return [name, metric];
        steps.push(`${packed.m}e${packed.k}`);
        at.push(packed.at);
        for (const x of packed.d) d.push(DIGITS[x + OFFSET]!);
        return [name, { ...metric, samples: packed.d.length }];
      }),
    ),
  }));
  if (steps.length === 0) return set;
  const packed: PackedColumns = { steps: steps.join(' '), at, d: d.join('') };
  return { ...set, benchmarks, packed };
}

/**
 * Parsed JSON with packed samples turned back into arrays, ready for the
 * ResultSet schema check. A value without `packed` is passed through for that
 * check to judge; packed columns that do not match the metrics are an
 * InputError naming `file`.
 */
export function unpackResultSet(data: unknown, file: string): unknown {
  if (data === null || typeof data !== 'object' || !('packed' in data)) return data;
  const { packed, ...set } = data as { packed: unknown; benchmarks?: unknown };
  const columns = checkColumns(packed, file);
  const steps = columns.steps === '' ? [] : columns.steps.split(' ');
  let metricIndex = 0;
  let offsetIndex = 0;
  const unpackMetric = (metric: unknown, where: string): unknown => {
    const count = (metric as { samples?: unknown } | null)?.samples;
    if (typeof count !== 'number') return metric;
    const step = /^([125])e(-?\d+)$/.exec(steps[metricIndex] ?? '');
    const chars = columns.d.slice(offsetIndex, offsetIndex + count);
    if (!Number.isInteger(count) || count < 0 || step === null || chars.length !== count) {
      throw new InputError(
        file,
        `${where}: its ${count} packed samples do not match the packed columns (step ${metricIndex + 1} of ${steps.length}, offset ${offsetIndex} of ${columns.d.length})`,
      );
    }
    const samples = unpackSamples({
      m: Number(step[1]) as 1 | 2 | 5,
      k: Number(step[2]),
      at: columns.at[metricIndex]!,
      d: [...chars].map((c) => DIGITS.indexOf(c) - OFFSET),
    });
    metricIndex++;
    offsetIndex += count;
    return { ...(metric as object), samples };
  };
  const benchmarks = Array.isArray(set.benchmarks)
    ? set.benchmarks.map((b: unknown, i: number) => {
        const metrics = (b as { metrics?: unknown } | null)?.metrics;
        if (metrics === null || typeof metrics !== 'object' || Array.isArray(metrics)) return b;
        const entries = Object.entries(metrics as Record<string, unknown>).map(([name, m]) => [
          name,
          unpackMetric(m, `benchmarks[${i}].metrics.${name}.samples`),
        ]);
        return { ...(b as object), metrics: Object.fromEntries(entries) };
      })
    : set.benchmarks;
  if (metricIndex !== steps.length || offsetIndex !== columns.d.length) {
    throw new InputError(
      file,
      `the packed columns hold ${steps.length} metrics and ${columns.d.length} samples, but the benchmarks name ${metricIndex} and ${offsetIndex}`,
    );
  }
  return { ...set, benchmarks };
}

function checkColumns(packed: unknown, file: string): PackedColumns {
  const p = packed as Partial<PackedColumns> | null;
  const ok =
    p !== null &&
    typeof p === 'object' &&
    typeof p.steps === 'string' &&
    Array.isArray(p.at) &&
    p.at.every(Number.isSafeInteger) &&
    p.at.length === (p.steps === '' ? 0 : p.steps.split(' ').length) &&
    typeof p.d === 'string' &&
    /^[A-Za-z0-9_-]*$/.test(p.d);
  if (!ok) throw new InputError(file, '"packed" must be { steps: "<m>e<k> …", at: [one whole number per step], d: "<one base64url character per sample>" }');
  return p as PackedColumns;
}

function medianOfSorted(sorted: readonly number[]): number {
  const n = sorted.length;
  return n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}
