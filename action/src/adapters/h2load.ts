import { InputError, scaleValue, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { idFromPath } from './file-name-id.js';
import { loadTestMetrics, type LoadRun } from './load-test.js';

/**
 * h2load (nghttp2) output, HTTP/2 or `--h1`. Read: `finished in …, N req/s,
 * X KB/s` → `requests_per_sec` and `transfer_per_sec` (h2load's KB/MB are
 * 1024-based); the `time for request:` row → `latency_mean` (with the
 * row's standard deviation, min and max and the requests done as its
 * count: a summary the statistics can use) and `latency_max`; `time to 1st
 * byte:` → `ttfb_mean` (over the clients). h2load prints no percentiles.
 * Errors from the `requests:` and `status codes:` lines: 4xx and 5xx answers
 * are `errors.status`, the other failed requests (errored, timed out) are
 * `errors.transport`, with `errors` and `error_ratio` over the total. The
 * `Application protocol:` becomes the param `protocol`. h2load does not
 * print its target, so the id is the suite's name, else the file's. Several
 * runs in one file are samples; a run in which nothing was done is a failed
 * row.
 */
export const h2loadAdapter: Adapter = {
  name: 'h2load',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (!/^finished in \S+, \S+ req\/s, /m.test(head)) return { match: false, reason: 'no "finished in …, N req/s, …" line' };
    if (!/^requests: \d+ total, /m.test(head)) return { match: false, reason: 'no "requests: N total, …" line' };
    return { match: true };
  },

  parse({ text, path, name }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, `the file is empty; expected h2load output ("finished in …, N req/s" …)`);
    const id = name ?? idFromPath(path);
    const lines = text.split('\n');
    // A run starts at "starting benchmark..." (its "Application protocol:" comes before "finished in"), or at "finished in" when only the summary was kept.
    const begun = lines.flatMap((l, i) => (/^starting benchmark/.test(l) ? [i] : []));
    const starts = begun.length > 0 ? begun : lines.flatMap((l, i) => (/^finished in /.test(l) ? [i] : []));
    if (!lines.some((l) => /^finished in /.test(l)))
      throw new InputError(path, 'no h2load result found; expected "finished in …, N req/s, …" followed by "requests:" and "status codes:"');
    const runs = starts.map((start, k) => readRun(lines.slice(start, starts[k + 1] ?? lines.length), start + 1, path));
    const broken = runs.find((r) => r.done === 0);
    if (broken) {
      return [{ id, status: 'failed', error: { message: `h2load finished none of its ${broken.run.requests} requests (${broken.failedText})` }, metrics: {} }];
    }
    const metrics = loadTestMetrics(runs.map((r) => r.run));
    // One run: the request-time row's spread and count make latency_mean a summary, not one number.
    if (runs.length === 1 && runs[0]!.latency)
      metrics.latency_mean = buildMetric('latency_mean', 's', { summary: runs[0]!.latency }, { sourceUnit: runs[0]!.latencyUnit ?? 's' });
    const protocol = runs[0]!.protocol;
    return [{ id, ...(protocol ? { params: { protocol } } : {}), status: 'ok', metrics }];
  },
};

const TIME: Record<string, number> = { us: 1e-6, ms: 1e-3, s: 1 };
const BYTES: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

interface Run {
  run: LoadRun;
  done: number;
  failedText: string;
  latency?: { n: number; mean: number; stddev: number; min: number; max: number };
  /** The unit h2load printed the mean request time in. */
  latencyUnit?: string;
  protocol?: string;
}

function readRun(lines: string[], firstLine: number, path: string): Run {
  const fail = (offset: number, detail: string): never => {
    throw new InputError(path, detail, firstLine + offset);
  };
  const time = (text: string, offset: number): number => {
    const m = /^(\d+(?:\.\d+)?)(us|ms|s)$/.exec(text);
    return m ? scaleValue(Number(m[1]), TIME[m[2]!]!) : fail(offset, `expected an h2load time such as 988us or 1.38ms, found ${JSON.stringify(text)}`);
  };
  const at = lines.findIndex((l) => /^finished in /.test(l));
  if (at < 0) fail(lines.length - 1, 'the h2load run has no "finished in …" line; the output is truncated');
  const finished = /^finished in (\S+), (\d+(?:\.\d+)?) req\/s, (\d+(?:\.\d+)?)(B|KB|MB|GB)\/s\s*$/.exec(lines[at]!.trim());
  if (!finished) fail(at, `cannot read h2load line ${JSON.stringify(lines[at]!.trim())}; expected "finished in 108.95ms, 3671.54 req/s, 609.53KB/s"`);
  const values: Record<string, number> = { requests_per_sec: Number(finished![2]), transfer_per_sec: Number(finished![3]) * BYTES[finished![4]!]! };
  const find = (re: RegExp, what: string): { m: RegExpExecArray; offset: number } => {
    for (const [offset, line] of lines.entries()) {
      const m = re.exec(line.trim());
      if (m) return { m, offset };
    }
    return fail(lines.length - 1, `the h2load run has no ${what} line; the output is truncated`);
  };
  const requests = find(
    /^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout$/,
    '"requests: N total, …"',
  );
  const status = find(/^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx$/, '"status codes: …"');
  const [total, , done, , failed] = requests.m.slice(1).map(Number) as [number, number, number, number, number];
  const statusErrors = Number(status.m[3]) + Number(status.m[4]);
  const errors = { status: statusErrors, transport: Math.max(0, failed - statusErrors) };
  const run: Run = { run: { values, errors, requests: total }, done, failedText: `${failed} failed, ${requests.m[6]} errored, ${requests.m[7]} timed out` };
  const protocol = lines.map((l) => /^Application protocol: (\S+)/.exec(l.trim())?.[1]).find((p) => p !== undefined);
  if (protocol) run.protocol = protocol;
  for (const [offset, raw] of lines.entries()) {
    const row = /^(time for request|time to 1st byte):\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+\S+%$/.exec(raw.trim());
    if (!row) continue;
    const [min, max, mean, sd] = row.slice(2, 6).map((t) => time(t, offset)) as [number, number, number, number];
    if (row[1] === 'time for request') {
      values.latency_mean = mean;
      values.latency_max = max;
      if (done > 0) run.latency = { n: done, mean, stddev: sd, min, max };
      run.latencyUnit = /[a-z]+$/.exec(row[4]!)![0];
    } else values.ttfb_mean = mean;
  }
  run.run.sourceUnits = { requests_per_sec: 'req/s', transfer_per_sec: `${finished![4]}/s` };
  return run;
}
