import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { idFromPath } from './file-name-id.js';
import { isRecord, jsonErrors, parseJsonText, type JsonErrors } from './json-text.js';
import { loadTestMetrics } from './load-test.js';

/**
 * oha `--output-format json` (oha 1.16; `--no-tui` keeps the terminal quiet).
 * Read: `summary.requestsPerSec` → `requests_per_sec`, `summary.sizePerSec`
 * → `transfer_per_sec`, `summary.average` → `latency_mean`,
 * `summary.slowest` → `latency_max`, `latencyPercentiles` (seconds) →
 * `latency_p10` … `latency_p99.99`. Errors: `statusCodeDistribution`
 * counts with a status of 400 or more are `errors.status`, the
 * `errorDistribution` counts (requests with no answer: refused, timed out,
 * reset) `errors.transport`, with `errors` and `error_ratio` over all
 * requests. oha's own `successRate` counts a 503 as a success (it only
 * leaves out requests without an answer), so it is not read. The report
 * names no target, so the id is the suite's name, else the file's. A run in
 * which no request got an answer is a failed row.
 */
export const ohaAdapter: Adapter = {
  name: 'oha',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 8192);
    if (!/^\s*\{/.test(head)) return { match: false, reason: 'not a JSON object' };
    if (!/"summary"\s*:\s*\{/.test(head) || !/"requestsPerSec"\s*:/.test(head))
      return { match: false, reason: 'no "summary" with "requestsPerSec" near the start' };
    return { match: true };
  },

  parse({ text, path, name }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, `the file is empty; expected oha JSON (oha --output-format json)`);
    const data = parseJsonText(text, path, 'oha JSON (oha --output-format json)');
    const errors = jsonErrors(text, path);
    if (!isRecord(data) || !isRecord(data.summary))
      throw errors.error(isRecord(data) ? ['summary'] : [], 'expected an object with a "summary" (oha --output-format json)');
    const id = name ?? idFromPath(path);
    const statuses = counts(data.statusCodeDistribution, 'statusCodeDistribution', errors);
    const failures = counts(data.errorDistribution, 'errorDistribution', errors);
    const answered = statuses.reduce((sum, [, n]) => sum + n, 0);
    const transport = failures.reduce((sum, [, n]) => sum + n, 0);
    if (answered === 0) {
      const why = failures[0] ? `: ${failures[0][0]}` : '';
      return [{ id, status: 'failed', error: { message: `oha got no answer to any of its ${transport} requests${why}` }, metrics: {} }];
    }
    const summary = data.summary;
    const seconds = (value: unknown, at: (string | number)[]): number => {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
        throw errors.error(at, `expected a non-negative number, found ${JSON.stringify(value)}`);
      return value;
    };
    const values: Record<string, number> = {
      requests_per_sec: seconds(summary.requestsPerSec, ['summary', 'requestsPerSec']),
      transfer_per_sec: seconds(summary.sizePerSec, ['summary', 'sizePerSec']),
      latency_mean: seconds(summary.average, ['summary', 'average']),
      latency_max: seconds(summary.slowest, ['summary', 'slowest']),
    };
    if (data.latencyPercentiles !== undefined) {
      if (!isRecord(data.latencyPercentiles)) throw errors.error(['latencyPercentiles'], 'expected "latencyPercentiles" to be an object of seconds');
      for (const [key, value] of Object.entries(data.latencyPercentiles)) {
        const m = /^p(\d+(?:\.\d+)?)$/.exec(key);
        if (!m) throw errors.error(['latencyPercentiles', key], `expected percentiles named like p50 or p99.9, found ${JSON.stringify(key)}`);
        values[`latency_p${m[1]}`] = seconds(value, ['latencyPercentiles', key]);
      }
    }
    const status = statuses.filter(([code]) => Number(code) >= 400).reduce((sum, [, n]) => sum + n, 0);
    const metrics = loadTestMetrics([{ values, errors: { status, transport }, requests: answered + transport }]);
    return [{ id, status: 'ok', metrics }];
  },
};

/** A distribution object (`{"200": 400}`, `{"Connection refused (os error 111)": 20}`) as [key, count] pairs. */
function counts(value: unknown, key: string, errors: JsonErrors): [string, number][] {
  if (value === undefined) return [];
  if (!isRecord(value)) throw errors.error([key], `expected "${key}" to be an object of counts`);
  return Object.entries(value).map(([k, n]) => {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw errors.error([key, k], `expected a count, found ${JSON.stringify(n)}`);
    return [k, n];
  });
}
