import { InputError, maxOf, metricTraits, type BenchmarkResult, type Metric } from '../model/index.js';
import { describe } from '../stats/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { isRecord, jsonErrors, parseJsonText, type JsonErrors } from './json-text.js';

/**
 * hyperfine `--export-json`: one benchmark per command. `times` (seconds, in
 * run order) are the samples; `exit_codes` other than 0 make the benchmark
 * failed (hyperfine -i keeps timing failing commands, which would otherwise
 * look like a fast, healthy program); `parameters` (-P/-L) become params.
 * `memory_usage_byte` (hyperfine ≥ 1.20) is a running maximum over runs, so only
 * its largest value is kept, as max_rss.
 */
export const hyperfineAdapter: Adapter = {
  name: 'hyperfine',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 4096);
    if (!/^\s*\{\s*"results"\s*:\s*\[/.test(head)) return { match: false, reason: 'not a JSON object starting with "results": [' };
    if (!/"command"\s*:/.test(head) && !/"results"\s*:\s*\[\s*\]/.test(head)) return { match: false, reason: 'no "command" key in the results' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    const data = parseJsonText(text, path, 'hyperfine --export-json output ({"results": [...]})');
    const errors = jsonErrors(text, path);
    if (!isRecord(data) || !Array.isArray(data.results)) {
      throw new InputError(path, 'expected a JSON object with a "results" array (hyperfine --export-json)', 1);
    }
    if (data.results.length === 0) {
      throw new InputError(path, 'the "results" array is empty; expected at least one benchmarked command', errors.lineOf(['results']));
    }
    return data.results.map((result, index) => parseResult(result, index, errors));
  },
};

function parseResult(result: unknown, index: number, errors: JsonErrors): BenchmarkResult {
  const at = ['results', index];
  if (!isRecord(result) || typeof result.command !== 'string') {
    throw errors.error(isRecord(result) ? [...at, 'command'] : at, 'expected an object with a "command" string');
  }
  const times = result.times;
  if (!Array.isArray(times) || times.length === 0) {
    throw errors.error([...at, 'times'], `expected "times": a non-empty array of seconds for "${result.command}"`);
  }
  times.forEach((t, i) => {
    if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) {
      throw errors.error([...at, 'times', i], `expected a non-negative number of seconds, found ${JSON.stringify(t)}`);
    }
  });
  const samples = times as number[];
  const described = describe(samples);
  const { direction, exact } = metricTraits('time', 's');
  const metrics: Record<string, Metric> = {
    time: {
      unit: 's',
      direction,
      exact,
      sourceUnit: 's',
      samples: [...samples],
      summary: {
        n: samples.length,
        mean: numberOr(result.mean, described.mean),
        stddev: typeof result.stddev === 'number' ? result.stddev : null,
        median: numberOr(result.median, described.median),
        min: described.min,
        max: described.max,
      },
    },
  };
  if (Array.isArray(result.memory_usage_byte) && result.memory_usage_byte.length > 0) {
    const peak = maxOf(result.memory_usage_byte.filter((v): v is number => typeof v === 'number'));
    if (Number.isFinite(peak)) metrics.max_rss = { unit: 'B', ...metricTraits('max_rss', 'B'), sourceUnit: 'B', value: peak };
  }
  const benchmark: BenchmarkResult = { id: result.command, status: 'ok', metrics };
  if (isRecord(result.parameters)) {
    benchmark.params = Object.fromEntries(Object.entries(result.parameters).map(([k, v]) => [k, String(v)]));
  }
  const codes = Array.isArray(result.exit_codes) ? result.exit_codes : [];
  const failures = codes.filter((c) => c !== 0);
  if (failures.length > 0) {
    const distinct = [...new Set(failures.map((c) => (c === null ? 'none' : String(c))))];
    const signals = failures.filter((c): c is number => typeof c === 'number' && c > 128).map((c) => c - 128);
    benchmark.status = 'failed';
    benchmark.error = {
      message: `exited with code ${distinct.join(', ')} in ${failures.length} of ${codes.length} runs${signals.length ? ` (128 + signal ${[...new Set(signals)].join(', ')})` : ''}`,
      exitCode: Number.isInteger(failures[0]) ? (failures[0] as number) : null,
    };
  }
  return benchmark;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
