import { InputError, type BenchmarkError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { isRecord, parseJsonLines } from './json-text.js';

/**
 * Rust libtest `#[bench]` output from `cargo bench`:
 * `test name ... bench:   1,234.56 ns/iter (+/- 78.90) = 830 MB/s`. Older
 * toolchains print integers (`1,234 ns/iter (+/- 78)`); both are read, with
 * their thousands separators. criterion's `--output-format bencher` prints the
 * same line (names may hold spaces there). The value is libtest's median per
 * iteration, the only number given, so `time` is a single value (the `+/-` is
 * max − min, not a spread usable as a standard deviation); ` = N MB/s` adds
 * `bytes_per_second` (libtest's MB is 10^6 bytes). `test name ... FAILED`
 * (`name --- FAILED` with `--quiet`) makes that benchmark failed. The unstable `--format json` event lines
 * (`{"type": "bench", "median": …}`) are read too.
 */
export const libtestAdapter: Adapter = {
  name: 'libtest',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (/^\s*\{/.test(head)) {
      return /"type"\s*:\s*"(?:bench|suite)"/.test(head) && /"type"\s*:\s*"bench"|"event"\s*:\s*"started"/.test(head) && !/"Action"\s*:/.test(head)
        ? { match: true }
        : { match: false, reason: 'JSON, but not libtest --format json events ("type": "bench")' };
    }
    if (BENCH_LINE.test(head)) return { match: true };
    return { match: false, reason: 'no "test name ... bench: N ns/iter (+/- N)" line near the start' };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected cargo bench (libtest) output');
    const results = /^\s*\{/.test(text) ? parseJsonEvents(text, path) : parseText(text, path);
    if (results.length === 0) {
      throw new InputError(path, 'no benchmark lines; expected "test name ... bench: N ns/iter (+/- N)" (cargo bench with #[bench], or criterion --output-format bencher)');
    }
    return results;
  },
};

const BENCH_LINE = /^test .+? \.\.\. bench:\s+[\d,]+(?:\.\d+)? \S+\/iter/m;
const BENCH_FULL = /^test (.+?)\s+\.\.\. bench:\s+([\d,]+(?:\.\d+)?) (\S+)\/iter \(\+\/- ([\d,]+(?:\.\d+)?)\)(?: = ([\d,]+(?:\.\d+)?) MB\/s)?\s*$/;
const OUTCOME_LINE = /^test (.+?)\s+\.\.\. (FAILED|ok|ignored)\b/;

function number(text: string): number {
  return Number(text.replace(/,/g, ''));
}

function parseText(text: string, path: string): BenchmarkResult[] {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const results = new Map<string, BenchmarkResult>();
  let running = 0;
  let finished = 0;
  let panicFor: BenchmarkResult | undefined;
  /** Two bench targets can each have a `bench_a`; keeping the last would silently drop the first. */
  const add = (result: BenchmarkResult, lineNo: number): void => {
    if (results.has(result.id)) {
      throw new InputError(path, `benchmark "${result.id}" appears twice (two bench targets?); give them distinct names or read each target's output as its own file`, lineNo);
    }
    results.set(result.id, result);
  };
  lines.forEach((line, index) => {
    const lineNo = index + 1;
    if (/^running \d+ tests?$/.test(line)) running++;
    if (/^test result: /.test(line)) finished++;
    const panic = /^---- (.+?) stdout ----$/.exec(line);
    if (panic) {
      panicFor = results.get(panic[1]!);
      return;
    }
    if (panicFor) {
      if (/^(failures:|test result:)/.test(line)) panicFor = undefined;
      else if (line.trim() !== '' && panicFor.error) addLog(panicFor.error, line);
      return;
    }
    const terse = /^(\S.*?) --- FAILED$/.exec(line); // `cargo bench --quiet`
    if (terse) {
      add({ id: terse[1]!, status: 'failed', metrics: {}, error: { message: 'the benchmark panicked (--- FAILED)' } }, lineNo);
      return;
    }
    if (!line.startsWith('test ')) return;
    if (line.includes(' ... bench:')) {
      const m = BENCH_FULL.exec(line);
      if (!m) throw new InputError(path, `expected "test name ... bench: N ns/iter (+/- N)", found ${JSON.stringify(line)} (cut off?)`, lineNo);
      const [, name, value, unit, , mbs] = m;
      add({ id: name!, status: 'ok', metrics: metricsFor(number(value!), unit!, mbs === undefined ? undefined : number(mbs)) }, lineNo);
      return;
    }
    const outcome = OUTCOME_LINE.exec(line);
    if (outcome && outcome[2] === 'FAILED') {
      add({ id: outcome[1]!, status: 'failed', metrics: {}, error: { message: 'the benchmark panicked (test … FAILED)' } }, lineNo);
    }
  });
  if (running > finished) {
    throw new InputError(path, `"running N tests" without its closing "test result:" line; the output stops early (truncated, or cargo bench was killed)`, lines.length);
  }
  return [...results.values()];
}

function parseJsonEvents(text: string, path: string): BenchmarkResult[] {
  const results: BenchmarkResult[] = [];
  let started = false;
  let ended = false;
  const events = parseJsonLines(text, path, {
    cutOff: 'the last libtest JSON event is cut off (truncated?)',
    invalid: 'invalid JSON; expected one libtest event per line',
  });
  for (const { value: event, line } of events) {
    if (!isRecord(event)) throw new InputError(path, 'expected a libtest event object', line);
    if (event.type === 'suite' && event.event === 'started') started = true;
    if (event.type === 'suite' && event.event !== 'started') ended = true;
    if (event.type === 'test' && event.event === 'failed' && typeof event.name === 'string') {
      const error: BenchmarkError = { message: 'the benchmark panicked' };
      if (typeof event.stdout === 'string') for (const l of event.stdout.split('\n')) if (l.trim() !== '') addLog(error, l);
      results.push({ id: event.name, status: 'failed', metrics: {}, error });
    }
    if (event.type !== 'bench') continue;
    if (typeof event.name !== 'string' || typeof event.median !== 'number' || !Number.isFinite(event.median)) {
      throw new InputError(path, 'expected a bench event with "name" and a numeric "median" (ns/iter)', line);
    }
    const mbs = typeof event.mib_per_second === 'number' ? event.mib_per_second : undefined;
    results.push({ id: event.name, status: 'ok', metrics: metricsFor(event.median, 'ns', mbs) });
  }
  if (started && !ended) {
    throw new InputError(path, 'no closing suite event; the libtest JSON stops early (truncated, or cargo bench was killed)', text.split('\n').length);
  }
  return results;
}

/** Appends a panic log line (at most 20 kept); the line after "panicked at" becomes the message. */
function addLog(error: BenchmarkError, line: string): void {
  const lines = error.logTail ? error.logTail.split('\n') : [];
  if (lines.length >= 20) return;
  if (lines.length > 0 && /panicked at /.test(lines[lines.length - 1]!)) error.message = `panicked: ${line.trim()}`;
  lines.push(line);
  error.logTail = lines.join('\n');
}

function metricsFor(value: number, unit: string, mbPerSecond: number | undefined): Record<string, Metric> {
  const metrics: Record<string, Metric> = {};
  if (unit === 'ns') metrics.time = buildMetric('time', 's', { value: value * 1e-9 }, { sourceUnit: 'ns/iter' });
  else metrics[unit] = buildMetric(unit, 'count', { value }, { sourceUnit: `${unit}/iter` });
  if (mbPerSecond !== undefined) {
    metrics.bytes_per_second = buildMetric('bytes_per_second', 'B/s', { value: mbPerSecond * 1e6 }, { sourceUnit: 'MB/s' });
  }
  return metrics;
}
