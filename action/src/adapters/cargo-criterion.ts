import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { isRecord, parseJsonLines } from './json-text.js';

/**
 * cargo-criterion `--message-format=json`: one JSON object per line, `reason`
 * first. Each `benchmark-complete` line is a benchmark (cargo-criterion writes
 * no estimates.json, so this stream is the only machine-readable result).
 * Samples are per iteration, `measured_values[i] / iteration_count[i]`, in
 * sample order, converted from `unit` (ns for wall time) to seconds; a
 * `throughput` entry adds `bytes_per_second` (B/s) for bytes or `throughput`
 * (1/s) for elements.
 * Other reasons (`group-complete`, cargo's own build messages) are skipped.
 */
export const cargoCriterionAdapter: Adapter = {
  name: 'cargo-criterion',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (!/^\s*\{\s*"reason"\s*:/.test(head)) return { match: false, reason: 'not JSON lines starting with "reason"' };
    if (!/"reason"\s*:\s*"(?:benchmark-complete|group-complete)"/.test(head)) return { match: false, reason: 'no "benchmark-complete" message near the start' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected cargo criterion --message-format=json output');
    const results: BenchmarkResult[] = [];
    const messages = parseJsonLines(text, path, {
      cutOff: 'the last message is cut off (truncated?)',
      invalid: 'invalid JSON; expected one cargo-criterion message per line',
    });
    for (const { value: message, line } of messages) {
      if (!isRecord(message) || typeof message.reason !== 'string') {
        throw new InputError(path, 'expected a message object with a "reason" string', line);
      }
      if (message.reason === 'benchmark-complete') results.push(parseBenchmark(message, path, line));
    }
    if (results.length === 0) {
      throw new InputError(path, 'no "benchmark-complete" messages; expected at least one benchmark (did the filter match nothing?)');
    }
    return results;
  },
};

const TIME_UNITS: Record<string, number> = { ps: 1e-12, ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1 };

function parseBenchmark(message: Record<string, unknown>, path: string, line: number): BenchmarkResult {
  const { id, iteration_count: iters, measured_values: values, unit } = message;
  if (typeof id !== 'string') throw new InputError(path, 'expected an "id" string', line, 'id');
  if (typeof unit !== 'string') throw new InputError(path, `expected a "unit" string for ${id}`, line, 'unit');
  if (!Array.isArray(iters) || !Array.isArray(values) || iters.length === 0 || iters.length !== values.length) {
    throw new InputError(path, `expected "iteration_count" and "measured_values" of the same, non-zero length for ${id}`, line, 'measured_values');
  }
  const perIteration = values.map((v, i) => {
    const n = iters[i];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || typeof n !== 'number' || !(n > 0)) {
      throw new InputError(path, `expected a positive iteration count and a measured value at sample ${i} of ${id}`, line, `measured_values[${i}]`);
    }
    return v / n;
  });
  const factor = TIME_UNITS[unit];
  const metrics: Record<string, Metric> = {};
  if (factor !== undefined) {
    metrics.time = buildMetric('time', 's', { samples: perIteration.map((v) => v * factor) }, { sourceUnit: unit });
  } else {
    // A custom criterion Measurement (cycles, instructions …): kept in its own unit.
    metrics[unit] = buildMetric(unit, unit, { samples: perIteration }, { sourceUnit: unit });
  }
  const throughput = Array.isArray(message.throughput) ? message.throughput[0] : undefined;
  if (factor !== undefined && isRecord(throughput) && typeof throughput.per_iteration === 'number') {
    const [name, rateUnit] = throughput.unit === 'bytes' ? ['bytes_per_second', 'B/s'] : ['throughput', '1/s'];
    const rates = perIteration.map((v) => (throughput.per_iteration as number) / (v * factor));
    metrics[name] = buildMetric(name, rateUnit, { samples: rates }, { sourceUnit: `${String(throughput.unit)}/s` });
  }
  return { id, status: 'ok', metrics };
}
