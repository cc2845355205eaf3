import { InputError, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric, type MetricData } from './build-metric.js';
import { textLines } from './text-lines.js';

/**
 * criterion.rs's console report: what `cargo bench` prints on stdout, for
 * projects that do not keep criterion's JSON (target/criterion, read by the
 * `criterion` format). Per benchmark:
 *
 *     sum/bytes/100           time:   [337.64 ns 387.56 ns 502.65 ns]
 *                             thrpt:  [548.32 MiB/s 711.15 MiB/s 816.28 MiB/s]
 *
 * `[low estimate high]` is criterion's typical estimate (the slope, or the
 * mean in flat sampling) with its 95 % confidence interval; a name longer
 * than its column stands on its own line above `time:`. Time units ps, ns,
 * µs/us, ms, s become seconds (`time`); throughput units become
 * `bytes_per_second` (B/s: `B/s`, `KiB/s`…`GiB/s` binary, `KB/s`…`GB/s`
 * decimal, `b/s`…`Gb/s` bits ÷ 8) or `throughput` (1/s: `elem/s`, `Kelem/s`,
 * `Melem/s`, `Gelem/s`), as the criterion JSON adapter names them.
 * `change:` blocks (percentages against criterion's own last run), verdict
 * lines, `Found N outliers` and warnings are not read.
 *
 * The console prints no samples. When the output holds criterion's progress
 * lines too (stderr merged: `cargo bench 2>&1`), `Collecting N samples`
 * gives n and each metric is a summary: the estimate as its mean, and the
 * standard deviation whose standard error is the interval's half-width / 1.96
 * (sd = half-width / 1.96 × √n), so a statistical comparison uses criterion's
 * own uncertainty. Without them n is unknown and each metric is a single
 * value (the estimate), compared by the tolerance alone.
 *
 * With the progress lines, a benchmark that started (`Benchmarking NAME`)
 * and has no result before a panic (`thread '…' panicked at …`) is failed
 * with the panic's message; a panic outside any benchmark fails the bench
 * target. A started benchmark with no result and no panic at the end is a
 * truncated file: an error, as is a `time:` line cut short.
 */
export const criterionConsoleAdapter: Adapter = {
  name: 'criterion-console',

  detect({ text }: AdapterInput) {
    if (TIME_LINE.test(text.slice(0, 65536))) return { match: true };
    return { match: false, reason: 'no criterion console "name  time:   [low estimate high]" line near the start' };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected criterion console output (cargo bench)');
    const results = parseReport(text, path);
    if (results.length === 0) {
      throw new InputError(path, 'no benchmark results; expected "name  time:   [low estimate high]" lines (cargo bench with criterion)');
    }
    return results;
  },
};

const TIME_UNITS: Record<string, number> = { ps: 1e-12, ns: 1e-9, µs: 1e-6, us: 1e-6, ms: 1e-3, s: 1 };
const NUMBER = String.raw`[\d.]+(?:e[+-]?\d+)?`;
const TIME_LINE = new RegExp(String.raw`^(?:\S.*?)?\s+time:\s+\[${NUMBER} (?:ps|ns|µs|us|ms|s) `, 'm');
/** `NAME  time: [...]`, or `time: [...]` alone (name on the line above). */
const RESULT = /^(\S.*?)?\s+(time|thrpt):\s+\[(.*)\]/;
const PREFIX: Record<string, number> = { '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };
const BINARY: Record<string, number> = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };

/** Three values, each in the unit printed beside it (criterion scales each alone: `[972.83 ns 5.8924 µs 13.006 µs]`). */
interface Triple {
  values: [number, number, number];
  units: [string, string, string];
}

/** The base unit and factor of a criterion rate unit, or undefined. */
function rateUnit(unit: string): { metric: string; unit: string; factor: number } | undefined {
  const elem = /^([KMGT]?)elem\/s$/.exec(unit);
  if (elem) return { metric: 'throughput', unit: '1/s', factor: PREFIX[elem[1]!]! };
  const bytes = /^([KMGT]i|[KMGT]?)B\/s$/.exec(unit);
  if (bytes) return { metric: 'bytes_per_second', unit: 'B/s', factor: BINARY[bytes[1]!] ?? PREFIX[bytes[1]!]! };
  const bits = /^([KMGT]?)b\/s$/.exec(unit);
  if (bits) return { metric: 'bytes_per_second', unit: 'B/s', factor: PREFIX[bits[1]!]! / 8 };
  return undefined;
}

/** `337.64 ns 387.56 ns 502.65 ns` → three numbers and their units. */
function readTriple(inner: string): Triple | undefined {
  const m = new RegExp(String.raw`^\s*(${NUMBER}) (\S+) (${NUMBER}) (\S+) (${NUMBER}) (\S+)\s*$`).exec(inner);
  if (!m) return undefined;
  return { values: [Number(m[1]), Number(m[3]), Number(m[5])], units: [m[2]!, m[4]!, m[6]!] };
}

/** A metric from an estimate and its interval: a summary when n is known, else the estimate alone. */
function metricOf(name: string, unit: string, sourceUnit: string, [low, estimate, high]: number[], n: number | undefined): Metric {
  let data: MetricData = { value: estimate! };
  if (n !== undefined && n >= 2) {
    const halfWidth = Math.abs(high! - low!) / 2;
    data = { summary: { n, mean: estimate!, stddev: (halfWidth / 1.96) * Math.sqrt(n) } };
  }
  return buildMetric(name, unit, data, { sourceUnit });
}

function parseReport(text: string, path: string): BenchmarkResult[] {
  const lines = textLines(text);
  const results = new Map<string, BenchmarkResult>();
  const samples = new Map<string, number>();
  /** A benchmark whose `Benchmarking NAME` line was seen and whose result was not (yet). */
  let started: { id: string; line: number } | undefined;
  let target: string | undefined;
  let current: BenchmarkResult | undefined;
  let previous = '';

  const add = (result: BenchmarkResult, lineNo: number): void => {
    if (results.has(result.id)) {
      throw new InputError(path, `benchmark "${result.id}" appears twice (two bench targets, or two runs in one file?); read each as its own file`, lineNo);
    }
    results.set(result.id, result);
  };

  lines.forEach((line, index) => {
    const lineNo = index + 1;
    // cargo's `Running benches/parse.rs (target/release/deps/parse-<hash>)`: the bench target, for a panic outside any benchmark.
    const running = /^\s+Running\s+(.*)$/.exec(line);
    if (running) target = /deps\/([\w-]+?)-[0-9a-f]{16}\)?\s*$/.exec(running[1]!)?.[1] ?? /^(?:\S*\/)?([\w-]+)\.rs\b/.exec(running[1]!)?.[1] ?? target;
    const progress = /^Benchmarking (.+?)(?:: (Warming up|Collecting (\d+) samples|Analyzing|Complete).*)?$/.exec(line);
    if (progress) {
      const id = progress[1]!;
      if (progress[3] !== undefined) samples.set(id, Number(progress[3]));
      if (!results.has(id)) started = { id, line: lineNo };
      previous = '';
      return;
    }
    const panic = /^thread '.*' panicked at (.*)$/.exec(line);
    if (panic) {
      const where = panic[1]!.replace(/:$/, '');
      const message = /^'(.*)', (.*)$/.exec(where); // Rust ≤ 1.72: panicked at 'msg', file:line
      const next = lines[index + 1]?.trim();
      const text = message ? `panicked at ${message[2]!}: ${message[1]!}` : `panicked at ${where}${next ? `: ${next}` : ''}`;
      const id = started?.id ?? `${target ?? 'cargo bench'} (bench target)`;
      if (!results.has(id)) add({ id, status: 'failed', metrics: {}, error: { message: text } }, lineNo);
      started = undefined;
      return;
    }
    const result = RESULT.exec(line);
    if (result) {
      const [, head, kind, inner] = result;
      if (inner!.includes('%')) return; // a change: block's time/thrpt percentages
      const triple = readTriple(inner!);
      if (kind === 'thrpt') {
        if (!current || head) throw new InputError(path, `a "thrpt:" line without the "time:" line of its benchmark above it`, lineNo);
        const rates = triple?.units.map(rateUnit);
        if (!triple || !rates || rates.some((r) => r === undefined || r.metric !== rates[0]!.metric)) {
          throw new InputError(path, `expected "thrpt: [low estimate high]" in elem/s, B/s, KiB/s, MB/s … found ${JSON.stringify(line.trim())}`, lineNo);
        }
        const rate = rates[1]!;
        const values = triple.values.map((v, i) => v * rates[i]!.factor);
        current.metrics[rate.metric] = metricOf(rate.metric, rate.unit, triple.units[1], values, samples.get(current.id));
        return;
      }
      const id = (head ?? previous).trim();
      if (id === '' || /^\s/.test(head ?? previous)) throw new InputError(path, 'a "time:" line with no benchmark name on it or on the line above', lineNo);
      if (!triple || triple.units.some((u) => TIME_UNITS[u] === undefined)) {
        throw new InputError(path, `expected "time: [low estimate high]" in ps, ns, µs, ms or s, found ${JSON.stringify(line.trim())}`, lineNo);
      }
      const values = triple.values.map((v, i) => v * TIME_UNITS[triple.units[i]!]!);
      current = { id, status: 'ok', metrics: { time: metricOf('time', 's', triple.units[1], values, samples.get(id)) } };
      add(current, lineNo);
      if (started?.id === id) started = undefined;
      previous = '';
      return;
    }
    if (/\btime:\s+\[/.test(line)) throw new InputError(path, `a "time:" line cut short: ${JSON.stringify(line.trim())} (truncated?)`, lineNo);
    if (line.trim() !== '') {
      if (!/^\s/.test(line)) current = undefined; // a new, unindented line ends the previous benchmark's block
      previous = line;
    }
  });
  if (started) {
    throw new InputError(
      path,
      `benchmark "${started.id}" started (line ${started.line}) but has no result and no panic: the output stops early (truncated, or cargo bench was killed)`,
      lines.length,
    );
  }
  return [...results.values()];
}
