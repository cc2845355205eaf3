import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { valueOrSamples } from './load-test.js';

const RUNNING = /^Running (\S+) test @ (\S+)\s*$/;
const TIME_UNITS: Record<string, number> = { us: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
/** wrk's format_binary is 1024-based although it prints KB/MB. */
const BINARY_UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4, PB: 1024 ** 5 };
const PERCENTILES = { '50': 'latency_p50', '75': 'latency_p75', '90': 'latency_p90', '99': 'latency_p99' } as const;
const ERROR_KINDS = ['connect', 'read', 'write', 'timeout', 'status'] as const;

interface Block {
  id: string;
  line: number;
  params: Record<string, string>;
  values: Record<string, number>;
  sourceUnits: Record<string, string>;
}

/**
 * wrk text output (best with `--latency`). Per run: `requests_per_sec` (1/s) and
 * `transfer_per_sec` (B/s, wrk's KB/MB are 1024-based), `latency_p50|p75|p90|p99`
 * (s) from the latency distribution, and error counts as exact metrics:
 * `errors.connect|read|write|timeout` (the "Socket errors" line),
 * `errors.status` (the "Non-2xx or 3xx responses" line) and their sum
 * `errors`. wrk prints those lines only when non-zero, so their absence is 0 —
 * always present, so a budget such as `errors: { max: 0 }` always has a value to
 * check: timed-out requests vanish from wrk's latency statistics, and only these
 * counts show them. The id is the URL; several runs of one URL in one file
 * become samples, in order. `unable to connect to …` (wrk's only output when
 * the server is down) is a failed benchmark.
 */
export const wrkAdapter: Adapter = {
  name: 'wrk',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (/^unable to connect to \S+/m.test(head)) return { match: true };
    if (!/^Running \S+ test @ /m.test(head)) return { match: false, reason: 'no "Running <duration> test @ <url>" line' };
    if (!/^Requests\/sec:/m.test(text)) return { match: false, reason: 'no "Requests/sec:" line' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected wrk output ("Running … test @ <url>" … "Requests/sec:")');
    const lines = text.split('\n');
    const blocks: Block[] = [];
    const failed: BenchmarkResult[] = [];
    let current: Block | undefined;
    const finish = (endLine: number): void => {
      if (!current) return;
      for (const required of ['requests_per_sec', 'transfer_per_sec']) {
        if (current.values[required] === undefined) {
          throw new InputError(
            path,
            `the wrk run for ${current.id} (line ${current.line}) has no "${required === 'requests_per_sec' ? 'Requests/sec:' : 'Transfer/sec:'}" line; the output is truncated`,
            endLine,
          );
        }
      }
      blocks.push(current);
      current = undefined;
    };
    lines.forEach((raw, i) => {
      const line = raw.trim();
      const n = i + 1;
      const running = RUNNING.exec(line);
      if (running) {
        finish(n - 1);
        current = { id: running[2]!, line: n, params: { duration: running[1]! }, values: {}, sourceUnits: {} };
        return;
      }
      const refused = /^unable to connect to (\S+)\s*(.*)$/.exec(line);
      if (refused) {
        failed.push({ id: current?.id ?? refused[1]!, status: 'failed', error: { message: line }, metrics: {} });
        current = undefined;
        return;
      }
      if (!current) return;
      let m: RegExpExecArray | null;
      if ((m = /^(\d+) threads and (\d+) connections$/.exec(line))) {
        current.params.threads = m[1]!;
        current.params.connections = m[2]!;
      } else if ((m = /^(50|75|90|99)%\s+(\S+)$/.exec(line))) {
        current.values[PERCENTILES[m[1] as keyof typeof PERCENTILES]] = parseTime(m[2]!, path, n);
        current.sourceUnits[PERCENTILES[m[1] as keyof typeof PERCENTILES]] = unitOf(m[2]!);
      } else if ((m = /^Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)$/.exec(line))) {
        ERROR_KINDS.slice(0, 4).forEach((kind, k) => (current!.values[`errors.${kind}`] = Number(m![k + 1])));
      } else if ((m = /^Non-2xx or 3xx responses: (\d+)$/.exec(line))) {
        current.values['errors.status'] = Number(m[1]);
      } else if (line.startsWith('Requests/sec:')) {
        current.values.requests_per_sec = parseNumber(line.slice('Requests/sec:'.length), path, n, 'requests per second');
      } else if (line.startsWith('Transfer/sec:')) {
        current.values.transfer_per_sec = parseBytes(line.slice('Transfer/sec:'.length).trim(), path, n);
        current.sourceUnits.transfer_per_sec = `${unitOf(line.slice('Transfer/sec:'.length).trim())}/s`;
      } else if (/^(Socket errors|Non-2xx)/.test(line) || /^(50|75|90|99)%/.test(line)) {
        throw new InputError(path, `cannot read wrk line ${JSON.stringify(line)}`, n);
      }
    });
    finish(lines.length);
    if (blocks.length === 0 && failed.length === 0) {
      throw new InputError(path, 'no wrk run found; expected "Running <duration> test @ <url>" followed by "Requests/sec:" and "Transfer/sec:"');
    }
    return [...group(blocks), ...failed];
  },
};

/** One result per URL; repeated runs of a URL become samples in run order. */
function group(blocks: Block[]): BenchmarkResult[] {
  const byId = new Map<string, Block[]>();
  for (const b of blocks) byId.set(b.id, [...(byId.get(b.id) ?? []), b]);
  return [...byId.entries()].map(([id, runs]) => {
    const first = runs[0]!;
    const metrics: Record<string, Metric> = {};
    const names = ['requests_per_sec', 'transfer_per_sec', ...Object.values(PERCENTILES)];
    for (const name of names) {
      const values = runs.map((r) => r.values[name]);
      if (values.some((v) => v === undefined)) continue; // percentiles need --latency in every run
      const unit = name === 'requests_per_sec' ? '1/s' : name === 'transfer_per_sec' ? 'B/s' : 's';
      const sourceUnit = name === 'requests_per_sec' ? 'Requests/sec' : first.sourceUnits[name];
      metrics[name] = buildMetric(name, unit, valueOrSamples(values as number[]), sourceUnit ? { sourceUnit } : {});
    }
    const errorValues = (key: string): number[] => runs.map((r) => r.values[key] ?? 0);
    for (const kind of ERROR_KINDS) metrics[`errors.${kind}`] = buildMetric(`errors.${kind}`, 'count', valueOrSamples(errorValues(`errors.${kind}`)));
    const totals = runs.map((r) => ERROR_KINDS.reduce((sum, kind) => sum + (r.values[`errors.${kind}`] ?? 0), 0));
    metrics.errors = buildMetric('errors', 'count', valueOrSamples(totals));
    return { id, params: first.params, status: 'ok', metrics } satisfies BenchmarkResult;
  });
}

function unitOf(text: string): string {
  return /[A-Za-z]+$/.exec(text)?.[0] ?? '';
}

function parseNumber(text: string, path: string, line: number, what: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value) || value < 0)
    throw new InputError(path, `expected ${what} as a number, found ${JSON.stringify(text.trim())}`, line);
  return value;
}

function parseTime(text: string, path: string, line: number): number {
  const m = /^(\d+(?:\.\d+)?)(us|ms|s|m|h)$/.exec(text);
  if (!m) throw new InputError(path, `expected a wrk time such as 2.78ms or 950.00us, found ${JSON.stringify(text)}`, line);
  return Number(m[1]) * TIME_UNITS[m[2]!]!;
}

function parseBytes(text: string, path: string, line: number): number {
  const m = /^(\d+(?:\.\d+)?)(B|KB|MB|GB|TB|PB)$/.exec(text);
  if (!m) throw new InputError(path, `expected a wrk byte amount such as 247.98KB, found ${JSON.stringify(text)}`, line);
  return Number(m[1]) * BINARY_UNITS[m[2]!]!;
}
