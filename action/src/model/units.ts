import { minOf } from './large-arrays.js';

/**
 * Quantities as people write them ("10ms", "1.5 s", "20MB", "100/s", "5%") and
 * back. Parsing yields base units: seconds, bytes, per second, bytes per second,
 * a fraction for percentages, a plain number for counts.
 */

export type Dimension = 'time' | 'bytes' | 'rate' | 'byte-rate' | 'fraction' | 'count';

export interface Quantity {
  value: number;
  dimension: Dimension;
  /** The base unit symbol used in ResultSets: s, B, 1/s, B/s, fraction, count. */
  unit: string;
}

const TIME: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, μs: 1e-6, ms: 1e-3, s: 1, sec: 1, min: 60, m: 60, h: 3600 };
// Decimal and binary byte units: "20MB" is 20e6 bytes, "20MiB" 20 × 2^20.
const BYTES: Record<string, number> = {
  B: 1,
  kB: 1e3,
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
  TB: 1e12,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
  TiB: 1024 ** 4,
};

/** The base unit of each dimension, as stored in a ResultSet metric. */
export const BASE_UNIT: Record<Dimension, string> = {
  time: 's',
  bytes: 'B',
  rate: '1/s',
  'byte-rate': 'B/s',
  fraction: 'fraction',
  count: 'count',
};

const QUANTITY = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)\s*([^\s\d].*?)?\s*$/i;

/**
 * Parses a quantity; returns undefined (never throws) when the text is not one,
 * so callers can name their file and key in the error. A bare number is a count.
 */
export function parseQuantity(text: string | number): Quantity | undefined {
  const q = readQuantity(text);
  // A number that overflows once scaled to base units (`1e308GB`) is no quantity, never Infinity.
  return q !== undefined && Number.isFinite(q.value) ? q : undefined;
}

function readQuantity(text: string | number): Quantity | undefined {
  if (typeof text === 'number') return Number.isFinite(text) ? { value: text, dimension: 'count', unit: 'count' } : undefined;
  const m = QUANTITY.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  const suffix = (m[2] ?? '').trim();
  if (!Number.isFinite(n)) return undefined;
  if (suffix === '') return { value: n, dimension: 'count', unit: 'count' };
  if (suffix === '%') return { value: n / 100, dimension: 'fraction', unit: 'fraction' };
  if (suffix in TIME) return { value: n * TIME[suffix]!, dimension: 'time', unit: 's' };
  if (suffix in BYTES) return { value: n * BYTES[suffix]!, dimension: 'bytes', unit: 'B' };
  const rate = /^(?:([A-Za-z]+)\s*)?\/\s*(s|sec|ms|min)$/.exec(suffix) ?? /^([A-Za-z]+)ps$/.exec(suffix);
  if (rate) {
    const per = rate[2] ? TIME[rate[2]]! : 1;
    const numer = rate[1];
    if (!numer || /^(ops?|req|requests?|items?|msgs?|calls?)$/i.test(numer)) {
      return { value: n / per, dimension: 'rate', unit: '1/s' };
    }
    if (numer in BYTES) return { value: (n * BYTES[numer]!) / per, dimension: 'byte-rate', unit: 'B/s' };
    return undefined;
  }
  return undefined;
}

/**
 * `value × 10^exponent` without binary noise: `18149 * 1e-9 * 1e9` is
 * 18149.000000000004, because 1e-9 has no exact binary form. Shifting the
 * exponent of the number's shortest decimal form instead (`1.8149e4` →
 * `1.8149e-5`) and parsing that gives the double nearest the exact decimal
 * result, so a value read from a file converts to the same double as its
 * digits would parse to, and converting back restores the digits.
 */
export function shiftDecimal(value: number, exponent: number): number {
  if (exponent === 0 || value === 0 || !Number.isFinite(value)) return value;
  // The shortest decimal that reads back as `value`, with the exponent moved:
  // "18149" → "18149e-9". Parsing it rounds once, as the decimal input would.
  const text = String(value);
  const e = text.indexOf('e');
  return e < 0 ? Number(`${text}e${exponent}`) : Number(`${text.slice(0, e)}e${Number(text.slice(e + 1)) + exponent}`);
}

/**
 * `value × factor`, decimally when the factor is a power of ten (ns → s, MB → B)
 * so exact inputs stay exact; other factors (60, 2^20) multiply as usual.
 */
export function scaleValue(value: number, factor: number): number {
  const exponent = Math.round(Math.log10(factor));
  return Number(`1e${exponent}`) === factor ? shiftDecimal(value, exponent) : value * factor;
}

/** Describes the accepted syntax, for error messages. */
export const QUANTITY_HELP =
  'a number with a unit: time (ns, us, ms, s, min), bytes (B, kB, MB, GB, KiB, MiB, GiB), rate (100/s, 5 ops/s, 20MB/s), or a percentage (5%)';

/** The dimension a metric's base unit belongs to, for checking budgets against metrics. */
export function dimensionOfUnit(unit: string): Dimension | undefined {
  for (const [dim, base] of Object.entries(BASE_UNIT)) if (base === unit) return dim as Dimension;
  return undefined;
}

interface Scale {
  factor: number;
  symbol: string;
}

const SCALES: Record<string, Scale[]> = {
  s: [
    { factor: 1e-9, symbol: 'ns' },
    { factor: 1e-6, symbol: 'µs' },
    { factor: 1e-3, symbol: 'ms' },
    { factor: 1, symbol: 's' },
  ],
  B: [
    { factor: 1, symbol: 'B' },
    { factor: 1e3, symbol: 'kB' },
    { factor: 1e6, symbol: 'MB' },
    { factor: 1e9, symbol: 'GB' },
  ],
  '1/s': [
    { factor: 1, symbol: '/s' },
    { factor: 1e3, symbol: 'k/s' },
    { factor: 1e6, symbol: 'M/s' },
    { factor: 1e9, symbol: 'G/s' },
  ],
  'B/s': [
    { factor: 1, symbol: 'B/s' },
    { factor: 1e3, symbol: 'kB/s' },
    { factor: 1e6, symbol: 'MB/s' },
    { factor: 1e9, symbol: 'GB/s' },
  ],
  count: [
    { factor: 1, symbol: '' },
    { factor: 1e3, symbol: 'k' },
    { factor: 1e6, symbol: 'M' },
    { factor: 1e9, symbol: 'G' },
  ],
};

/**
 * Picks one display scale for a set of values in a base unit, so a row's
 * baseline and current share a prefix ("4.46 ms" and "5.10 ms", never "0.0051 s").
 */
export function pickScale(unit: string, values: number[]): Scale {
  const scales = SCALES[unit];
  if (!scales) return { factor: 1, symbol: unit === 'fraction' ? '' : unit };
  const finite = values.filter((v) => Number.isFinite(v) && v !== 0).map(Math.abs);
  if (finite.length === 0) return scales.find((s) => s.factor === 1) ?? scales[0]!;
  const ref = minOf(finite);
  let chosen = scales[0]!;
  for (const s of scales) if (ref >= s.factor * 0.9995) chosen = s;
  return chosen;
}

/** Formats a number with 3 significant digits (more for large integers), without exponent noise. */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const abs = Math.abs(x);
  if (abs >= 100) return x.toFixed(abs >= 1000 ? 0 : 1);
  if (abs >= 10) return x.toFixed(2);
  if (abs >= 1 || abs === 0) return x.toFixed(2);
  return x.toPrecision(3);
}

/** Formats a value of a base unit in the given scale: "4.46 ms", "1.20 MB", "830 /s". */
export function formatInScale(value: number, scale: Scale): string {
  const s = formatNumber(value / scale.factor);
  return scale.symbol ? `${s} ${scale.symbol}` : s;
}

/** Formats one value with its own best scale. */
export function formatQuantity(value: number, unit: string): string {
  return formatInScale(value, pickScale(unit, [value]));
}
