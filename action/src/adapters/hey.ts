import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { idFromPath } from './file-name-id.js';
import { loadTestMetrics, type LoadRun } from './load-test.js';

/**
 * hey's summary (hey 0.1.x, the default output; not `-o csv`). Read:
 * `Requests/sec:` → `requests_per_sec` (every request, answered or not, over
 * the total time), `Average:` → `latency_mean`, `Slowest:` → `latency_max`,
 * the `Latency distribution` lines (`10%% in 0.0003 secs`: hey 0.1.4 and
 * later print the percent sign twice) → `latency_p10` … `latency_p99`,
 * `Total data:` over `Total:` → `transfer_per_sec`. Errors: the `Status
 * code distribution` counts with a status of 400 or more are
 * `errors.status`, the `Error distribution` lines (`[20] Get …: connection
 * refused`) are `errors.transport`, with `errors` and `error_ratio` over all
 * requests. hey does not print its target, so the id is the suite's name,
 * else the file's. Several summaries in one file are repeated runs
 * (samples); a run in which no request got an answer is a failed row.
 */
export const heyAdapter: Adapter = {
  name: 'hey',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (!/^Summary:\s*$/m.test(head)) return { match: false, reason: 'no "Summary:" line' };
    if (!/^\s+Requests\/sec:\s/m.test(head)) return { match: false, reason: 'no indented "Requests/sec:" line' };
    if (!/^(Status code distribution|Error distribution|Response time histogram):/m.test(text)) {
      return { match: false, reason: 'no "Status code distribution:" or "Error distribution:" section' };
    }
    return { match: true };
  },

  parse({ text, path, name }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, `the file is empty; expected hey's summary ("Summary:" … "Requests/sec:")`);
    const id = name ?? idFromPath(path);
    const summaries = splitSummaries(text, path);
    const runs: LoadRun[] = [];
    for (const summary of summaries) {
      const run = readSummary(summary, path);
      if (run.answered === 0) {
        return [
          {
            id,
            status: 'failed',
            error: { message: `hey got no answer to any of its ${run.run.requests} requests${run.firstError ? `: ${run.firstError}` : ''}` },
            metrics: {},
          },
        ];
      }
      runs.push(run.run);
    }
    return [{ id, status: 'ok', metrics: loadTestMetrics(runs) }];
  },
};

interface Line {
  text: string;
  n: number;
}

/** The file's summaries: each starts at a "Summary:" line. */
function splitSummaries(text: string, path: string): Line[][] {
  const out: Line[][] = [];
  text.split('\n').forEach((raw, i) => {
    const line = { text: raw.replace(/\r$/, ''), n: i + 1 };
    if (/^Summary:\s*$/.test(line.text)) out.push([]);
    out[out.length - 1]?.push(line);
  });
  if (out.length === 0) throw new InputError(path, 'no hey summary found; expected "Summary:" followed by "Requests/sec:"');
  return out;
}

const SECONDS = /^(-?\d+(?:\.\d+)?|NaN)\s+secs$/;

/** What one summary has given so far, filled in line by line. */
interface Reading {
  values: Record<string, number>;
  errors: { status: number; transport: number };
  answered: number;
  total?: number;
  bytes?: number;
  firstError?: string;
}

type SectionReader = (t: string, line: Line, reading: Reading, path: string) => void;

function seconds(text: string, line: Line, path: string): number | undefined {
  const m = SECONDS.exec(text.trim());
  if (!m) throw new InputError(path, `expected a hey time such as "0.0012 secs", found ${JSON.stringify(text.trim())}`, line.n);
  return m[1] === 'NaN' ? undefined : Number(m[1]);
}

/** One reader per section of hey's summary, by its heading. */
const SECTIONS: Record<string, SectionReader> = {
  Summary(t, line, reading, path) {
    let m: RegExpExecArray | null;
    if ((m = /^(Total|Slowest|Average):\s*(.*)$/.exec(t))) {
      const v = seconds(m[2]!, line, path);
      if (m[1] === 'Total') reading.total = v;
      else if (v !== undefined) reading.values[m[1] === 'Average' ? 'latency_mean' : 'latency_max'] = v;
    } else if ((m = /^Requests\/sec:\s*(\S+)$/.exec(t))) {
      const v = Number(m[1]);
      if (!Number.isFinite(v) || v < 0) throw new InputError(path, `expected requests per second as a number, found ${JSON.stringify(m[1])}`, line.n);
      reading.values.requests_per_sec = v;
    } else if ((m = /^Total data:\s*(\d+) bytes$/.exec(t))) reading.bytes = Number(m[1]);
  },
  'Latency distribution'(t, line, reading, path) {
    const m = /^(\d+)%{1,2} in (.*)$/.exec(t);
    if (!m) throw new InputError(path, `cannot read hey latency line ${JSON.stringify(t)}; expected "50%% in 0.0012 secs"`, line.n);
    const v = seconds(m[2]!, line, path);
    if (v !== undefined) reading.values[`latency_p${m[1]}`] = v;
  },
  'Status code distribution'(t, line, reading, path) {
    const m = /^\[(\d+)\]\s+(\d+) responses$/.exec(t);
    if (!m) throw new InputError(path, `cannot read hey status line ${JSON.stringify(t)}; expected "[200] 9171 responses"`, line.n);
    reading.answered += Number(m[2]);
    if (Number(m[1]) >= 400) reading.errors.status += Number(m[2]);
  },
  'Error distribution'(t, line, reading, path) {
    const m = /^\[(\d+)\]\s+(.*)$/.exec(t);
    if (!m) throw new InputError(path, `cannot read hey error line ${JSON.stringify(t)}; expected "[3] <error text>"`, line.n);
    reading.errors.transport += Number(m[1]);
    reading.firstError ??= m[2]!;
  },
};

function readSummary(lines: Line[], path: string): { run: LoadRun; answered: number; requests: number; firstError?: string } {
  const reading: Reading = { values: {}, errors: { status: 0, transport: 0 }, answered: 0 };
  let section: SectionReader | undefined;
  for (const line of lines) {
    const t = line.text.trim();
    const heading = /^([A-Z][A-Za-z ]+(?:\([^)]*\))?):$/.exec(t);
    if (heading) section = SECTIONS[heading[1]!];
    else if (t !== '' && section) section(t, line, reading, path);
  }
  const { values, errors, answered, total, bytes, firstError } = reading;
  if (values.requests_per_sec === undefined) throw new InputError(path, 'the hey summary has no "Requests/sec:" line; the output is truncated', lines[0]!.n);
  if (!lines.some((l) => /^(Status code distribution|Error distribution):/.test(l.text.trim()))) {
    throw new InputError(path, 'the hey summary ends before its "Status code distribution:"; the output is truncated', lines[lines.length - 1]!.n);
  }
  if (bytes !== undefined && total !== undefined && total > 0) values.transfer_per_sec = bytes / total;
  const requests = answered + errors.transport;
  const sourceUnits = Object.fromEntries(
    Object.keys(values).map((k) => [k, k.startsWith('latency_') ? 'secs' : k === 'requests_per_sec' ? 'Requests/sec' : 'bytes/secs']),
  );
  const run: LoadRun = { values, errors, requests, sourceUnits };
  return { run, answered, requests, ...(firstError !== undefined ? { firstError } : {}) };
}
