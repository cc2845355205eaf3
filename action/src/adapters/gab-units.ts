/**
 * The units github-action-benchmark writes, mapped to perf-gate metrics. One
 * table for its custom JSON (custom-json.ts) and its history (gab-history.ts),
 * so a history imported from data.js and a fresh run of the same custom JSON
 * name the same metric in the same unit and can be compared.
 *
 * Its tools write `ns/iter`, `us/op`, `ops/sec`, `B/op`, `allocs/op`; custom
 * JSON writes whatever the user chose (`ns`, `ms`, `bytes`, `req/s`,
 * `Megabytes`, `Percent`). Time, byte and rate units perf-gate can parse
 * become base units (s, B, 1/s, B/s) with their natural direction; anything
 * else keeps its own name as both metric and unit, value untouched.
 */
import { parseQuantity } from '../model/index.js';

export interface GabUnit {
  /** The metric name: time, throughput, bytes, bytes_per_second, alloc_bytes, allocs, percent, or the unit's own name. */
  metric: string;
  /** perf-gate's base unit, or the unit as written when perf-gate does not know it. */
  unit: string;
  /** Multiplier from the written unit to `unit`. */
  scale: number;
  /** Which way is better for this unit; undefined when the unit does not say (the tool must). */
  direction: 'lower' | 'higher' | undefined;
}

/** Spellings of a byte that parseQuantity does not know ("bytes" is the usual custom-JSON unit). */
const BYTE_WORDS = new Set(['byte', 'bytes', 'Byte', 'Bytes']);

/** Maps one github-action-benchmark unit (surrounding blanks ignored). */
export function gabUnit(written: string): GabUnit {
  const u = written.trim();
  const perIteration = /^(.+?)\/(?:iter|op)$/.exec(u);
  if (perIteration) {
    if (u === 'B/op') return { metric: 'alloc_bytes', unit: 'B', scale: 1, direction: 'lower' };
    if (u === 'allocs/op') return { metric: 'allocs', unit: 'count', scale: 1, direction: 'lower' };
    const q = parseQuantity(`1 ${perIteration[1]!}`);
    if (q?.dimension === 'time') return { metric: 'time', unit: 's', scale: q.value, direction: 'lower' };
  }
  if (/^(?:ops?|iters?)\/(?:sec|s)$/.test(u)) return { metric: 'throughput', unit: '1/s', scale: 1, direction: 'higher' };
  if (BYTE_WORDS.has(u)) return { metric: 'bytes', unit: 'B', scale: 1, direction: 'lower' };
  // Only a unit symbol is looked up ("5" or "2 ms" as a unit is not one); a bare
  // "m" or "h" in custom JSON is as likely metres or hits as minutes or hours.
  const q = /^[^\d\s.+-]/.test(u) && u !== 'm' && u !== 'h' ? parseQuantity(`1 ${u}`) : undefined;
  switch (q?.dimension) {
    case 'time':
      return { metric: 'time', unit: 's', scale: q.value, direction: 'lower' };
    case 'bytes':
      return { metric: 'bytes', unit: 'B', scale: q.value, direction: 'lower' };
    case 'rate':
      return { metric: 'throughput', unit: '1/s', scale: q.value, direction: 'higher' };
    case 'byte-rate':
      return { metric: 'bytes_per_second', unit: 'B/s', scale: q.value, direction: 'higher' };
    case 'fraction':
      return { metric: 'percent', unit: 'fraction', scale: q.value, direction: undefined };
    default: {
      const name = u.replace(/\s+/g, '_') || 'value';
      return { metric: name, unit: u || 'count', scale: 1, direction: undefined };
    }
  }
}
