import { InputError, scaleValue, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { idFromPath } from './file-name-id.js';
import { isRecord, jsonErrors, parseJsonLines, parseJsonText, type JsonErrors } from './json-text.js';
import { loadTestMetrics, type LoadRun } from './load-test.js';

/**
 * vegeta `vegeta report -type=json` (vegeta 12): one JSON object a report;
 * several reports in one file (one a line, `vegeta report` run once per
 * attack) are repeated runs of one target and become samples, in order.
 * Latencies are nanoseconds; `duration` is the attack's length.
 *
 * Metrics (the shared load-test vocabulary, adapters/load-test.ts):
 * `requests_per_sec` is vegeta's `rate` (requests sent per second of the
 * attack: the rate asked for, unless the server could not keep up with
 * `-rate=0`), `success_per_sec` its `throughput` (successful answers per
 * second, the figure that falls when a server answers errors);
 * `latency_mean`, `latency_p50`, `latency_p90`, `latency_p95`, `latency_p99`,
 * `latency_max`; `transfer_per_sec` from `bytes_in`. Errors from
 * `status_codes`: any status of 400 or more is `errors.status`, code 0 (no
 * answer: refused, timed out, reset; its texts are in `errors`) is
 * `errors.transport`, with `errors` and `error_ratio` over `requests`. The
 * report names no target, so the id is the suite's name, else the file's.
 * A report of requests that all failed without an answer is a failed row.
 */
export const vegetaAdapter: Adapter = {
  name: 'vegeta',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 8192);
    if (!/^\s*\{/.test(head)) return { match: false, reason: 'not a JSON object' };
    if (!/"latencies"\s*:\s*\{/.test(head)) return { match: false, reason: 'no "latencies" object near the start' };
    if (!/"status_codes"\s*:/.test(head) || !/"bytes_in"\s*:/.test(head)) return { match: false, reason: 'no "status_codes" and "bytes_in" keys' };
    return { match: true };
  },

  parse({ text, path, name }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, `the file is empty; expected vegeta JSON reports (vegeta report -type=json)`);
    const id = name ?? idFromPath(path);
    const runs: LoadRun[] = [];
    for (const report of reportsOf(text, path)) {
      const run = readReport(report.value, report.errorAt);
      if (run.answered === 0) {
        const texts = (report.value as Record<string, unknown>).errors;
        const why = Array.isArray(texts) && texts.length > 0 ? `: ${String(texts[0])}` : '';
        return [{ id, status: 'failed', error: { message: `vegeta got no answer to any of its ${run.run.requests} requests${why}` }, metrics: {} }];
      }
      runs.push(run.run);
    }
    return [{ id, status: 'ok', metrics: loadTestMetrics(runs) }];
  },
};

const NS = 1e-9;
const LATENCIES: [string, string][] = [
  ['mean', 'latency_mean'],
  ['50th', 'latency_p50'],
  ['90th', 'latency_p90'],
  ['95th', 'latency_p95'],
  ['99th', 'latency_p99'],
  ['max', 'latency_max'],
];

type ErrorAt = (key: string | undefined, detail: string) => InputError;

/**
 * The reports of a file: one JSON document (as vegeta writes it, or
 * pretty-printed), else one report a line. `errorAt` names the report's line
 * and the key.
 */
function reportsOf(text: string, path: string): { value: unknown; errorAt: ErrorAt }[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length > 1 && lines.every((l) => /^\s*\{.*\}\s*$/.test(l))) {
    const parsed = parseJsonLines(text, path, {
      cutOff: 'the vegeta report is cut off; expected complete JSON reports, one a line (vegeta report -type=json)',
      invalid: 'expected a vegeta JSON report (vegeta report -type=json)',
    });
    return parsed.map(({ value, line }) => ({ value, errorAt: (key, detail) => new InputError(path, detail, line, key) }));
  }
  const whole = parseJsonText(text, path, 'a vegeta JSON report (vegeta report -type=json)');
  const errors: JsonErrors = jsonErrors(text, path);
  return [{ value: whole, errorAt: (key, detail) => errors.error(key === undefined ? [] : [key], detail) }];
}

function readReport(report: unknown, errorAt: ErrorAt): { run: LoadRun; answered: number } {
  const at = (key: string, detail: string): never => {
    throw errorAt(key, detail);
  };
  if (!isRecord(report)) throw errorAt(undefined, 'expected a vegeta report object (vegeta report -type=json)');
  const number = (value: unknown, key: string): number => {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) at(key, `expected a non-negative number, found ${JSON.stringify(value)}`);
    return value as number;
  };
  if (!isRecord(report.latencies)) at('latencies', 'expected "latencies" to be an object of nanoseconds');
  const latencies = report.latencies as Record<string, unknown>;
  const requests = number(report.requests, 'requests');
  const seconds = scaleValue(number(report.duration, 'duration'), NS);
  if (!isRecord(report.status_codes)) at('status_codes', 'expected "status_codes" to be an object of counts by status');
  const values: Record<string, number> = {
    requests_per_sec: number(report.rate, 'rate'),
    success_per_sec: number(report.throughput, 'throughput'),
  };
  for (const [key, metric] of LATENCIES) values[metric] = scaleValue(number(latencies[key], 'latencies'), NS);
  const bytesIn = isRecord(report.bytes_in) ? number(report.bytes_in.total, 'bytes_in') : at('bytes_in', 'expected "bytes_in" with a "total"');
  if (seconds > 0) values.transfer_per_sec = bytesIn / seconds;
  const errors = { status: 0, transport: 0 };
  for (const [code, count] of Object.entries(report.status_codes as Record<string, unknown>)) {
    const n = number(count, 'status_codes');
    if (!/^\d+$/.test(code)) at('status_codes', `expected status codes as numbers, found ${JSON.stringify(code)}`);
    if (Number(code) === 0) errors.transport += n;
    else if (Number(code) >= 400) errors.status += n;
  }
  const sourceUnits = Object.fromEntries(LATENCIES.map(([, metric]) => [metric, 'ns']));
  return { run: { values, errors, requests, sourceUnits }, answered: requests - errors.transport };
}
