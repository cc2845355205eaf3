import { InputError, shiftDecimal, type BenchmarkError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { isRecord, parseJsonLines } from './json-text.js';
import { textLines } from './text-lines.js';

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
 *
 * Units: every time unit libtest and its forks print before `/iter` (`ns`,
 * `µs`/`μs`/`us`, `ms`, `s`) is `time` in seconds, converted decimally so an
 * exact `18,149 ns` stays 18149e-9. Any other `<unit>/iter` (`cycles/iter`) is
 * an amount spent per iteration: its own metric named by the unit, lower is
 * better (`cycles` is in the metric vocabulary). A per-second rate in place of
 * `/iter` (`MS/s`, as some forks print) is its own metric named by the unit as
 * printed, with that unit, higher is better (more done per second). Any other
 * unit is rejected, naming the accepted forms. A failed benchmark's message is
 * the panic message: the line after `panicked at <file>:<line>:<col>:` (Rust ≥
 * 1.73), or the quoted text of `panicked at '<message>', <file>…` (older Rust).
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
      throw new InputError(
        path,
        'no benchmark lines; expected "test name ... bench: N ns/iter (+/- N)" (cargo bench with #[bench], or criterion --output-format bencher)',
      );
    }
    return results;
  },
};

const BENCH_LINE = /^test .+? \.\.\. bench:\s+[\d,]+(?:\.\d+)? \S+\/(?:iter|s)\b/m;
const BENCH_FULL = /^test (.+?)\s+\.\.\. bench:\s+([\d,]+(?:\.\d+)?) (\S+) \(\+\/- ([\d,]+(?:\.\d+)?)\)(?: = ([\d,]+(?:\.\d+)?) MB\/s)?\s*$/;
const OUTCOME_LINE = /^test (.+?)\s+\.\.\. (FAILED|ok|ignored)\b/;

function number(text: string): number {
  return Number(text.replace(/,/g, ''));
}

function parseText(text: string, path: string): BenchmarkResult[] {
  const lines = textLines(text);
  const results = new Map<string, BenchmarkResult>();
  let running = 0;
  let finished = 0;
  let panicFor: BenchmarkResult | undefined;
  /** Two bench targets can each have a `bench_a`; keeping the last would silently drop the first. */
  const add = (result: BenchmarkResult, lineNo: number): void => {
    if (results.has(result.id)) {
      throw new InputError(
        path,
        `benchmark "${result.id}" appears twice (two bench targets?); give them distinct names or read each target's output as its own file`,
        lineNo,
      );
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
      const measure = readUnit(unit!);
      if (!measure)
        throw new InputError(
          path,
          `unknown unit "${unit}" for ${name}; expected <time>/iter with time ns, µs, μs, us, ms or s, another <unit>/iter (cycles/iter), or a per-second rate (MS/s)`,
          lineNo,
        );
      add({ id: name!, status: 'ok', metrics: metricsFor(number(value!), measure, mbs === undefined ? undefined : number(mbs)) }, lineNo);
      return;
    }
    const outcome = OUTCOME_LINE.exec(line);
    if (outcome && outcome[2] === 'FAILED') {
      add({ id: outcome[1]!, status: 'failed', metrics: {}, error: { message: 'the benchmark panicked (test … FAILED)' } }, lineNo);
    }
  });
  if (running > finished) {
    throw new InputError(
      path,
      `"running N tests" without its closing "test result:" line; the output stops early (truncated, or cargo bench was killed)`,
      lines.length,
    );
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
    results.push({ id: event.name, status: 'ok', metrics: metricsFor(event.median, readUnit('ns/iter')!, mbs) });
  }
  if (started && !ended) {
    throw new InputError(path, 'no closing suite event; the libtest JSON stops early (truncated, or cargo bench was killed)', text.split('\n').length);
  }
  return results;
}

/** Rust ≥ 1.73: `thread 'main' panicked at src/lib.rs:5:5:`, the message on the next line. */
const PANIC_HEADER = /panicked at \S+:\d+:\d+:$/;
/** Older Rust: `thread 'main' panicked at 'explicit panic', src/lib.rs:28:9`, the message quoted on the line. */
const PANIC_QUOTED = /panicked at '(.*)', \S+:\d+(?::\d+)?$/;

/** Appends a panic log line (at most 20 kept) and takes the panic message from it (see PANIC_HEADER, PANIC_QUOTED). */
function addLog(error: BenchmarkError, line: string): void {
  const lines = error.logTail ? error.logTail.split('\n') : [];
  if (lines.length >= 20) return;
  const quoted = PANIC_QUOTED.exec(line.trim());
  if (quoted) error.message = `panicked: ${quoted[1]}`;
  else if (lines.length > 0 && PANIC_HEADER.test(lines[lines.length - 1]!.trim())) error.message = `panicked: ${line.trim()}`;
  lines.push(line);
  error.logTail = lines.join('\n');
}

/** What one libtest unit measures: the metric, its base unit and the power of ten into it. */
interface Measure {
  metric: string;
  unit: string;
  exponent: number;
  sourceUnit: string;
}

/** Time units before `/iter`, as powers of ten of a second (µ is U+00B5, μ is U+03BC: forks print either). */
const TIME_EXPONENTS: Record<string, number> = { ns: -9, µs: -6, μs: -6, us: -6, ms: -3, s: 0 };

/** Reads `ns/iter`, `cycles/iter`, `MS/s` …; undefined for anything else. */
function readUnit(printed: string): Measure | undefined {
  const perIter = /^(\S+)\/iter$/.exec(printed);
  if (perIter) {
    const exponent = TIME_EXPONENTS[perIter[1]!];
    return exponent !== undefined
      ? { metric: 'time', unit: 's', exponent, sourceUnit: printed }
      : { metric: perIter[1]!, unit: 'count', exponent: 0, sourceUnit: printed };
  }
  // A rate: metricTraits reads a `/s` unit as higher-is-better.
  if (/^[^/\s]+\/s$/.test(printed)) return { metric: printed, unit: printed, exponent: 0, sourceUnit: printed };
  return undefined;
}

function metricsFor(value: number, measure: Measure, mbPerSecond: number | undefined): Record<string, Metric> {
  const metrics: Record<string, Metric> = {};
  metrics[measure.metric] = buildMetric(measure.metric, measure.unit, { value: shiftDecimal(value, measure.exponent) }, { sourceUnit: measure.sourceUnit });
  if (mbPerSecond !== undefined) {
    metrics.bytes_per_second = buildMetric('bytes_per_second', 'B/s', { value: shiftDecimal(mbPerSecond, 6) }, { sourceUnit: 'MB/s' });
  }
  return metrics;
}
