import { InputError, scaleValue, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { idFromPath } from './file-name-id.js';
import { loadTestMetrics, type LoadRun } from './load-test.js';

/**
 * ApacheBench (`ab`, 2.3): its report on standard output, or the
 * percentile CSV of `-e file.csv`.
 *
 * The report: `Requests per second:` → `requests_per_sec`, `Transfer rate:`
 * → `transfer_per_sec` (ab's Kbytes are 1024 bytes), `Time per request: …
 * (mean)` → `latency_mean`, the `Percentage of the requests served within a
 * certain time (ms)` table → `latency_p50`, `latency_p66` … `latency_p99`
 * and `latency_max` (its 100 % row; whole milliseconds, as ab prints them).
 * Errors: `Non-2xx responses:` → `errors.status`, the `Failed requests:`
 * breakdown's connect, receive and exception counts → `errors.connect`,
 * `errors.receive`, `errors.exceptions`, `Write errors:` → `errors.write`,
 * with `errors` and `error_ratio` over the requests. ab counts a response
 * whose length differs from the first one's as failed ("Length"): on a page
 * with dynamic content that is every other answer, not an error, so it is
 * `length_mismatches` (count ↓), outside `errors`. The id is the suite's
 * name, else the URL (`Server Hostname`, `Server Port`, `Document Path`);
 * `Concurrency Level` is the param `concurrency`. A run that stopped on a
 * socket error (`apr_socket_recv: Connection refused (111)`: ab's only
 * output when nothing listens) is a failed row.
 *
 * The CSV: `Percentage served,Time in ms`, one row a percent, 0 to 100,
 * with three decimals: the same percentiles as the report's table, more
 * precisely, and nothing else (no rate, no errors). Its id is the suite's
 * name, else the file's.
 */
export const abAdapter: Adapter = {
  name: 'ab',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 4096);
    if (/^Percentage served,Time in ms\s*$/m.test(head.split('\n')[0] ?? '')) return { match: true };
    if (!/^This is ApacheBench, Version /m.test(head))
      return { match: false, reason: 'no "This is ApacheBench, Version" line, and not ab\'s -e CSV ("Percentage served,Time in ms")' };
    return { match: true };
  },

  parse({ text, path, name }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, `the file is empty; expected ApacheBench's report or its -e CSV`);
    if (/^Percentage served,Time in ms\s*$/.test(text.split('\n')[0] ?? '')) return [readCsv(text, path, name ?? idFromPath(path))];
    return [readReport(text, path, name)];
  },
};

/** The report's percentile table (`  50%      2`, whole milliseconds; `100%` is the longest request) in seconds. */
function percentileTable(lines: string[]): Record<string, number> {
  const values: Record<string, number> = {};
  const start = lines.findIndex((l) => l.startsWith('Percentage of the requests served within a certain time (ms)'));
  if (start < 0) return values;
  for (let i = start + 1; i < lines.length; i++) {
    const m = /^\s*(\d+)%\s+(\d+)(?: \(longest request\))?\s*$/.exec(lines[i]!);
    if (!m) break;
    values[m[1] === '100' ? 'latency_max' : `latency_p${m[1]}`] = scaleValue(Number(m[2]), 1e-3);
  }
  return values;
}

/** The URL ab loaded, from its `Server Hostname`, `Server Port` and `Document Path` (https when it names a TLS protocol). */
function urlOf(field: Field): string | undefined {
  const host = field('Server Hostname')?.value;
  const port = field('Server Port')?.value;
  const path = field('Document Path')?.value;
  if (host === undefined || path === undefined) return undefined;
  return `${field('SSL/TLS Protocol') !== undefined ? 'https' : 'http'}://${host}${port ? `:${port}` : ''}${path}`;
}

type Field = (label: string) => { value: string; n: number } | undefined;
type NumberOf = (f: { value: string; n: number } | undefined, re: RegExp, what: string) => number | undefined;

/** The error counts of the report: Non-2xx, write errors, and the Failed requests breakdown (its Length count kept apart). */
function errorCounts(field: Field, number: NumberOf, lines: string[], path: string): { errors: Record<string, number>; lengthMismatches: number } {
  const errors: Record<string, number> = { status: number(field('Non-2xx responses'), /^(\d+)$/, 'a count of responses') ?? 0 };
  const write = number(field('Write errors'), /^(\d+)$/, 'a count of write errors');
  if (write !== undefined) errors.write = write;
  const failed = field('Failed requests');
  if (!failed || failed.value === '0') return { errors, lengthMismatches: 0 };
  const detail = /^\s*\(Connect: (\d+), Receive: (\d+), Length: (\d+), Exceptions: (\d+)\)\s*$/.exec(lines[failed.n] ?? '');
  if (!detail) throw new InputError(path, 'expected the "(Connect: N, Receive: N, Length: N, Exceptions: N)" line under "Failed requests:"', failed.n + 1);
  errors.connect = Number(detail[1]);
  errors.receive = Number(detail[2]);
  errors.exceptions = Number(detail[4]);
  return { errors, lengthMismatches: Number(detail[3]) };
}

/** The percentiles ab's report table and this adapter read, in percent. */
const PERCENTS = [50, 66, 75, 80, 90, 95, 98, 99];

function readCsv(text: string, path: string, id: string): BenchmarkResult {
  const byPercent = new Map<number, number>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (i === 0 || line === '') return;
    const m = /^(\d+),(\d+(?:\.\d+)?)$/.exec(line);
    if (!m) throw new InputError(path, `expected "percent,milliseconds" such as "50,2.215", found ${JSON.stringify(line)}`, i + 1);
    byPercent.set(Number(m[1]), scaleValue(Number(m[2]), 1e-3));
  });
  if (!byPercent.has(100)) throw new InputError(path, `ab's percentile CSV stops before its 100 % row (${byPercent.size} rows of 101); the file is truncated`);
  const values: Record<string, number> = {};
  for (const p of PERCENTS) if (byPercent.has(p)) values[`latency_p${p}`] = byPercent.get(p)!;
  values.latency_max = byPercent.get(100)!;
  const metrics = loadTestMetrics([{ values, errors: {}, sourceUnits: Object.fromEntries(Object.keys(values).map((k) => [k, 'ms'])) }]);
  // The CSV counts no errors: an `errors` of 0 would claim what was never measured.
  delete metrics.errors;
  return { id, status: 'ok', metrics };
}

function readReport(text: string, path: string, name: string | undefined): BenchmarkResult {
  // Trailing spaces and CRLF do not matter (a report copied from a terminal or a Windows editor).
  const lines = text.split('\n').map((l) => l.trimEnd());
  const field = (label: string): { value: string; n: number } | undefined => {
    const i = lines.findIndex((l) => l.startsWith(`${label}:`));
    return i < 0 ? undefined : { value: lines[i]!.slice(label.length + 1).trim(), n: i + 1 };
  };
  const id = name ?? urlOf(field) ?? /^Benchmarking (\S+)/m.exec(text)?.[1] ?? idFromPath(path);
  const refused = lines.map((l) => /(apr_\w+: .*\(\d+\))\s*$/.exec(l)).find((m) => m !== null);
  const rps = field('Requests per second');
  if (!rps) {
    if (refused) return { id, status: 'failed', error: { message: `ab stopped: ${refused[1]}` }, metrics: {} };
    throw new InputError(path, 'the ab report has no "Requests per second:" line; the output is truncated (ab prints it after every request finished)');
  }
  const number = (f: { value: string; n: number } | undefined, re: RegExp, what: string): number | undefined => {
    if (!f) return undefined;
    const m = re.exec(f.value);
    if (!m) throw new InputError(path, `expected ${what}, found ${JSON.stringify(f.value)}`, f.n);
    return Number(m[1]);
  };
  const values: Record<string, number> = { requests_per_sec: number(rps, /^(\d+(?:\.\d+)?) \[#\/sec\] \(mean\)$/, '"1346.05 [#/sec] (mean)"')! };
  const transfer = number(field('Transfer rate'), /^(\d+(?:\.\d+)?) \[Kbytes\/sec\] received/, '"186.66 [Kbytes/sec] received"');
  if (transfer !== undefined) values.transfer_per_sec = transfer * 1024;
  const mean = lines.map((l, i) => ({ l, n: i + 1 })).find((x) => /^Time per request:.*\(mean\)$/.test(x.l));
  if (mean)
    values.latency_mean = scaleValue(
      number({ value: mean.l.slice('Time per request:'.length).trim(), n: mean.n }, /^(\d+(?:\.\d+)?) \[ms\] \(mean\)$/, '"2.972 [ms] (mean)"')!,
      1e-3,
    );
  Object.assign(values, percentileTable(lines));
  const complete = number(field('Complete requests'), /^(\d+)$/, 'a count of requests');
  const { errors, lengthMismatches } = errorCounts(field, number, lines, path);
  const sourceUnits = Object.fromEntries(
    Object.keys(values).map((k) => [k, k === 'requests_per_sec' ? '#/sec' : k === 'transfer_per_sec' ? 'Kbytes/sec' : 'ms']),
  );
  const run: LoadRun = { values, errors, sourceUnits, ...(complete !== undefined ? { requests: complete } : {}) };
  const metrics = loadTestMetrics([run]);
  metrics.length_mismatches = buildMetric('length_mismatches', 'count', { value: lengthMismatches });
  const concurrency = field('Concurrency Level')?.value;
  return { id, ...(concurrency ? { params: { concurrency } } : {}), status: 'ok', metrics };
}
