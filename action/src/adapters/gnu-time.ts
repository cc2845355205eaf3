import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';

const LABELS = {
  command: 'Command being timed',
  user: 'User time (seconds)',
  system: 'System time (seconds)',
  elapsed: 'Elapsed (wall clock) time (h:mm:ss or m:ss)',
  maxRss: 'Maximum resident set size (kbytes)',
  major: 'Major (requiring I/O) page faults',
  minor: 'Minor (reclaiming a frame) page faults',
  exit: 'Exit status',
} as const;

interface Run {
  command: string;
  line: number;
  fields: Map<string, { value: string; line: number }>;
  signal?: string;
}

/**
 * GNU time `-v` reports (`/usr/bin/time -v cmd`, stderr or `-o file`; `-a`
 * appends further runs). Per run: `time` (elapsed wall clock, s), `user_time`
 * and `system_time` (s), `max_rss` (bytes; GNU time prints KiB), and
 * `page_faults_major` / `page_faults_minor` (counts). Runs of the same command
 * in one file become samples in run order. A non-zero `Exit status` or
 * "Command terminated by signal N" makes the benchmark failed. The id is the
 * command line. A report cut before its final `Exit status:` line is an error.
 */
export const gnuTimeAdapter: Adapter = {
  name: 'gnu-time',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (!/^\s*Command being timed: /m.test(head)) return { match: false, reason: 'no "Command being timed:" line (GNU time -v)' };
    if (!/Maximum resident set size \(kbytes\):/.test(head)) return { match: false, reason: 'no "Maximum resident set size (kbytes):" line' };
    return { match: true };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected GNU time -v output ("Command being timed: …" … "Exit status: N")');
    const lines = text.split('\n');
    const runs: Run[] = [];
    let current: Run | undefined;
    let pendingSignal: string | undefined;
    lines.forEach((raw, i) => {
      const line = raw.replace(/\r$/, '').trim();
      const n = i + 1;
      const signal = /^Command terminated by signal (\d+)$/.exec(line);
      if (signal) pendingSignal = signal[1];
      const cut = line.startsWith(`${LABELS.command}: `) ? LABELS.command.length : line.lastIndexOf(': ');
      if (cut <= 0) return;
      const label = line.slice(0, cut);
      const value = line.slice(cut + 2);
      if (label === LABELS.command) {
        if (current) throw new InputError(path, `the run of ${current.command} (line ${current.line}) has no "Exit status:" line; the report is truncated`, n);
        current = { command: unquote(value), line: n, fields: new Map() };
        if (pendingSignal) current.signal = pendingSignal;
        pendingSignal = undefined;
        return;
      }
      if (!current) return;
      current.fields.set(label, { value, line: n });
      if (label === LABELS.exit) {
        runs.push(current);
        current = undefined;
      }
    });
    if (current) throw new InputError(path, `the run of ${current.command} has no "Exit status:" line; the report is truncated`, lines.length);
    if (runs.length === 0) throw new InputError(path, 'no GNU time -v report found; expected "Command being timed:" … "Exit status:"');

    const byCommand = new Map<string, Run[]>();
    for (const run of runs) byCommand.set(run.command, [...(byCommand.get(run.command) ?? []), run]);
    return [...byCommand.entries()].map(([command, group]) => toResult(command, group, path));
  },
};

function toResult(command: string, runs: Run[], path: string): BenchmarkResult {
  const read = (run: Run, label: string, parse: (v: string) => number | undefined): number => {
    const field = run.fields.get(label);
    if (!field) throw new InputError(path, `the report for ${command} lacks "${label}:"`, run.line);
    const v = parse(field.value);
    if (v === undefined) throw new InputError(path, `expected a number for "${label}", found ${JSON.stringify(field.value)}`, field.line);
    return v;
  };
  const columns: [string, string, string, string, (r: Run) => number][] = [
    ['time', 's', 's', LABELS.elapsed, (r) => read(r, LABELS.elapsed, parseElapsed)],
    ['user_time', 's', 's', LABELS.user, (r) => read(r, LABELS.user, parseNumber)],
    ['system_time', 's', 's', LABELS.system, (r) => read(r, LABELS.system, parseNumber)],
    ['max_rss', 'B', 'kbytes', LABELS.maxRss, (r) => read(r, LABELS.maxRss, parseNumber) * 1024],
    ['page_faults_major', 'count', 'count', LABELS.major, (r) => read(r, LABELS.major, parseNumber)],
    ['page_faults_minor', 'count', 'count', LABELS.minor, (r) => read(r, LABELS.minor, parseNumber)],
  ];
  const metrics: Record<string, Metric> = {};
  for (const [name, unit, sourceUnit, , get] of columns) {
    const values = runs.map(get);
    metrics[name] = buildMetric(name, unit, values.length === 1 ? { value: values[0]! } : { samples: values }, { sourceUnit });
  }
  const result: BenchmarkResult = { id: command, status: 'ok', metrics };
  const bad = runs.find((r) => read(r, LABELS.exit, parseNumber) !== 0 || r.signal !== undefined);
  if (bad) {
    const code = read(bad, LABELS.exit, parseNumber);
    const failures = runs.filter((r) => read(r, LABELS.exit, parseNumber) !== 0 || r.signal !== undefined).length;
    result.status = 'failed';
    result.error = {
      message:
        bad.signal !== undefined
          ? `terminated by signal ${bad.signal} in ${failures} of ${runs.length} runs`
          : `exited with status ${code} in ${failures} of ${runs.length} runs`,
      exitCode: code,
      signal: bad.signal !== undefined ? `signal ${bad.signal}` : null,
    };
  }
  return result;
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

function parseNumber(text: string): number | undefined {
  if (!/^\d+(\.\d+)?$/.test(text.trim())) return undefined;
  return Number(text.trim());
}

/** `m:ss.ss` or `h:mm:ss`: the last field is seconds, the ones before minutes and hours. */
function parseElapsed(text: string): number | undefined {
  const parts = text.trim().split(':');
  if (parts.length < 2 || parts.length > 3 || !parts.every((p) => /^\d+(\.\d+)?$/.test(p))) return undefined;
  return parts.reduce((acc, p) => acc * 60 + Number(p), 0);
}
