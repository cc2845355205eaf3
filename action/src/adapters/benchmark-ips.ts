import { InputError, type BenchmarkResult } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric, finiteOrUndefined } from './build-metric.js';
import { isRecord, jsonErrors, parseJsonText } from './json-text.js';
import { labelLeftOpen, rubyErrorIn } from './ruby-output.js';

/** `Helpers.scale`: k, M, B (billion), T, Q; nothing below 1000. */
const SCALE: Record<string, number> = { '': 1, k: 1e3, M: 1e6, B: 1e9, T: 1e12, Q: 1e15 };
const SCALED = String.raw`(\d+(?:\.\d+)?)([kMBTQ]?)`;
/**
 * A result's body, after the label: `31.280M (± 9.3%) i/s`, in newer versions
 * followed by the time per iteration `(31.97 ns/i)`, then `- 6.250M` iterations
 * and, when total times are shown, `in 0.318165s`. `:raw` format prints
 * `31279576.8 (±9.3%) i/s - 6249928`.
 */
const BODY = String.raw`${SCALED}\s*\(±\s*(\d+(?:\.\d+)?)%\) i/s(?:\s+\(\s*\d+(?:\.\d+)?\s*\S+/i\))?\s+-\s+\d+(?:\.\d+)?[kMBTQ]?(?:\s+in\s+\d+(?:\.\d+)?s)?`;
const RESULT = new RegExp(String.raw`^(.*?)\s*${BODY}\s*$`);
/** The warm-up row: `addition   781.241k i/100ms`. */
const WARMUP = new RegExp(String.raw`^(.*?)\s*${SCALED}\s*i/100ms\s*$`);
/** A line that has begun a result but does not end as one: cut short. */
const PARTIAL = /\(±\s*\d|\d i\/s\b|i\/100/;

/**
 * Ruby `benchmark-ips` (`Benchmark.ips`) report output:
 *
 *     Warming up --------------------------------------
 *                 addition   781.241k i/100ms
 *     Calculating -------------------------------------
 *                 addition     31.280M (± 9.3%) i/s   (31.97 ns/i) -      6.250M in   0.318165s
 *     Comparison:
 *                 addition: 31279576.8 i/s
 *
 * Each result row's iterations per second (scaled with k, M, B, T, Q; the
 * `:raw` format prints the plain number) becomes `throughput` (1/s, higher is
 * better), a single value: the ± is a relative error (a standard deviation or,
 * with `stats: :bootstrap`, a confidence half-width) of samples whose count is
 * not printed, so it is not turned into a spread. `(… ns/i)` is 1/ips and is
 * not read; neither are the warm-up rows, the `Comparison:` block, nor the
 * Ruby description line newer versions print first. A label longer than 20
 * characters stands on its own line, its numbers on the next; a label reported
 * again (`Benchmark.ips` called in a loop) gives samples in output order.
 *
 * A block that raises ends the script on its label (see ruby-output.ts): that
 * label becomes a failed benchmark with Ruby's error message, and so do the
 * labels warmed up before it but never measured. Otherwise a warmed-up label
 * without a result row, or a row cut short, is output that stops early, an
 * error naming the line. The JSON that
 * `x.json!(path)` writes (`[{"name", "central_tendency"|"ips", "error"|"stddev",
 * "microseconds", "iterations", "cycles"}]`) is read as well, `ips` the value.
 */
export const benchmarkIpsAdapter: Adapter = {
  name: 'benchmark-ips',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (/^\s*\[/.test(head)) {
      return /"central_tendency"\s*:/.test(head) || (/"ips"\s*:/.test(head) && /"cycles"\s*:/.test(head))
        ? { match: true }
        : { match: false, reason: 'a JSON array without benchmark-ips "ips"/"central_tendency" and "cycles" keys' };
    }
    const lines = head.split('\n').map((l) => l.replace(/\r$/, ''));
    if (lines.some((l) => RESULT.test(l))) return { match: true };
    // A run whose first block raised while warming up has no result row, but is still benchmark-ips output.
    if (lines.some((l) => /^Warming up -+\s*$/.test(l)) && lines.some((l) => WARMUP.test(l))) return { match: true };
    return { match: false, reason: 'no "<label> <n> (± <p>%) i/s - <iterations>" line (Ruby benchmark-ips)' };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected Ruby benchmark-ips output');
    const { ips, failed } = /^\s*\[/.test(text) ? { ips: parseJson(text, path), failed: [] } : parseReport(text, path);
    const results: BenchmarkResult[] = [...ips.entries()].map(([id, values]) => ({
      id,
      status: 'ok',
      metrics: { throughput: buildMetric('throughput', '1/s', values.length === 1 ? { value: values[0]! } : { samples: values }, { sourceUnit: 'i/s' }) },
    }));
    // A benchmark that failed in one run has failed, whatever its earlier runs measured.
    return [...results.filter((r) => !failed.some((f) => f.id === r.id)), ...failed];
  },
};

/** Right-justified labels take this many characters (`IPS.width`); longer ones stand on their own line. */
const LABEL_WIDTH = 20;

function parseReport(text: string, path: string): { ips: Map<string, number[]>; failed: BenchmarkResult[] } {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const ips = new Map<string, number[]>();
  const warmed = new Map<string, number>();
  const failed: BenchmarkResult[] = [];
  const fail = (label: string, message: string): void => {
    failed.push({ id: label, status: 'failed', error: { message }, metrics: {} });
  };
  let comparison = false;
  /** A long label printed alone, waiting for its numbers on the next line. */
  let pending: { label: string; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^Warming up -+\s*$/.test(line) || /^Calculating -+\s*$/.test(line)) {
      comparison = false;
      continue;
    }
    if (/^Comparison:\s*$/.test(line)) comparison = true;
    if (comparison || line.trim() === '') {
      if (line.trim() === '') comparison = false;
      continue;
    }
    const error = rubyErrorIn(line);
    if (error) {
      // The script is dead: Ruby's backtrace follows, no benchmark does.
      fail(
        pending?.label ?? (line.slice(0, Math.min(error.at, LABEL_WIDTH)).trim() || line.slice(0, LABEL_WIDTH).trim()),
        `the block raised: ${error.message}`,
      );
      pending = undefined;
      break;
    }
    const result = RESULT.exec(line);
    const warmup = result ? undefined : WARMUP.exec(line);
    const match = result ?? warmup;
    if (match) {
      const label = match[1]!.trim() || pending?.label;
      if (label === undefined) throw new InputError(path, 'a result row without a label (the line naming it is missing)', i + 1);
      pending = undefined;
      if (warmup) warmed.set(label, i + 1);
      else ips.set(label, [...(ips.get(label) ?? []), Number(result![2]) * SCALE[result![3]!]!]);
      continue;
    }
    if (PARTIAL.test(line))
      throw new InputError(path, `expected "<label> <n> (± <p>%) i/s - <iterations>", found ${JSON.stringify(line.slice(0, 120))} (cut short?)`, i + 1);
    // Any other line may be a long label standing alone; only the row after it confirms it.
    pending = /^ruby \d/.test(line) || /% confidence$/.test(line) ? undefined : { label: line.trim(), line: i + 1 };
  }
  // benchmark-ips prints a label before measuring it and the newline after: a file ending on one stopped inside it.
  const open = text.endsWith('\n') ? undefined : (labelLeftOpen(text) ?? pending);
  if (open && failed.length === 0 && !RESULT.test(lines[open.line - 1]!) && !WARMUP.test(lines[open.line - 1]!)) {
    fail(open.label, 'the output stops inside this benchmark (it raised, or the process was killed)');
  }
  if (failed.length > 0) {
    // Warmed up, but the run ended before their measurement.
    for (const label of warmed.keys()) {
      if (!ips.has(label) && !failed.some((f) => f.id === label)) fail(label, `not measured: the run stopped at "${failed[0]!.id}" before measuring it`);
    }
  } else {
    for (const [label, line] of warmed) {
      if (!ips.has(label)) throw new InputError(path, `"${label}" was warmed up but has no result row: the output stops early`, line);
    }
  }
  if (ips.size === 0 && failed.length === 0) throw new InputError(path, 'no "<label> <n> (± <p>%) i/s - <iterations>" result line found (Ruby benchmark-ips)');
  return { ips, failed };
}

function parseJson(text: string, path: string): Map<string, number[]> {
  const data = parseJsonText(text, path, 'benchmark-ips JSON (x.json!)');
  if (!Array.isArray(data) || data.length === 0)
    throw new InputError(path, 'expected a non-empty JSON array of benchmark-ips entries ({name, ips, stddev, …})', 1);
  const errors = jsonErrors(text, path);
  const ips = new Map<string, number[]>();
  data.forEach((entry, index) => {
    if (!isRecord(entry) || typeof entry.name !== 'string')
      throw errors.error(isRecord(entry) ? [index, 'name'] : [index], 'expected an object with a "name" string');
    const key = entry.central_tendency !== undefined ? 'central_tendency' : 'ips';
    const value = finiteOrUndefined(entry[key]);
    if (value === undefined || value < 0)
      throw errors.error([index, key], `expected iterations per second for "${entry.name}", found ${JSON.stringify(entry[key])}`);
    ips.set(entry.name, [...(ips.get(entry.name) ?? []), value]);
  });
  return ips;
}
