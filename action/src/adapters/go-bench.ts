import { InputError, scaleValue, type BenchmarkResult, type Metric } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { isRecord, parseJsonLines } from './json-text.js';

/**
 * `go test -bench` output, as text or as `go test -json` (test2json) events.
 *
 * One result line is `BenchmarkName[-P] <iterations> (<value> <unit>)+`. Each
 * `-count` repeat is another line with the same name, so repeats become the
 * samples, in the order Go printed them. The `-P` suffix is GOMAXPROCS (absent
 * when it is 1): it becomes the param `procs` and is cut from the id, so
 * `-cpu` changes do not rename benchmarks; a file that runs one name at several
 * GOMAXPROCS values (`-cpu 1,4`) keeps them apart as `Name[procs=4]`. Because
 * Go prints no suffix at GOMAXPROCS=1, a trailing `-10` may instead be part of
 * the name (`b.Run("size-10")`); {@link procsSuffixes} decides which, once per
 * file, by one rule: the suffixes are GOMAXPROCS only when every benchmark in
 * the file shows the same set of them (one GOMAXPROCS, or a `-cpu` list).
 * Units: `ns/op` → `time` (s), `MB/s` → `bytes_per_second` (B/s, Go's MB is
 * 10^6), both converted decimally so exact inputs stay exact (325 ns/op is
 * 325e-9 s), `B/op` → `alloc_bytes`, `allocs/op` → `allocs`; `b.ReportMetric`
 * units are kept as they are, named by their unit. Configuration lines
 * (`goos:`, `pkg:` …) are read only for `pkg`, which tells apart the same name
 * in two packages. `--- FAIL: Name` makes that benchmark failed (with the
 * indented log lines after it as the error), never dropped; `--- SKIP` is not
 * a failure.
 */
export const goBenchAdapter: Adapter = {
  name: 'go-bench',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (/^\s*\{/.test(head)) {
      if (!/"Action"\s*:/.test(head)) return { match: false, reason: 'JSON, but not go test -json events (no "Action" key)' };
      if (!/"Output"\s*:\s*"(?:[^"\\]|\\.)*Benchmark/.test(head))
        return { match: false, reason: 'go test -json events without benchmark output near the start' };
      return { match: true };
    }
    if (RESULT_LINE.test(head) || /^--- FAIL: Benchmark/m.test(head)) return { match: true };
    return { match: false, reason: 'no "BenchmarkName  N  value ns/op" result line near the start' };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected go test -bench output');
    const json = /^\s*\{/.test(text);
    const lines = json ? linesFromTest2json(text, path) : linesFromText(text);
    if (!json) assertCompleteText(lines, path);
    const split = splitterFor(procsSuffixes(lines));
    const results = collect(lines, path, split);
    if (results.length === 0) {
      throw new InputError(
        path,
        'no benchmark result lines; expected "BenchmarkName  N  value ns/op" lines from go test -bench (did the package fail to build, or did -bench match nothing?)',
      );
    }
    return results;
  },
};

const RESULT_LINE = /^Benchmark\S*\s+\d+\s+[-+\d.eE]+\s+\S+/m;

/** One line of Go's own text output, with the line in the input file it came from. */
interface SourceLine {
  text: string;
  line: number;
  /** False for a last line that stops without a newline (a cut-off file). */
  complete: boolean;
  /** The package, when the source says it per line (test2json). */
  pkg?: string;
}

function linesFromText(text: string): SourceLine[] {
  const parts = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) parts.pop();
  return parts.map((t, i) => ({ text: t.replace(/\r$/, ''), line: i + 1, complete: endsWithNewline || i < parts.length - 1 }));
}

/** Go's closing lines: `PASS`/`FAIL`, `ok  \tpkg\t1.2s`, `FAIL\tpkg\t…`, `exit status N`. */
const CLOSING_LINE = /^(?:PASS|FAIL|ok\s+\S.*|FAIL\s+\S.*|exit status \d+)\s*$/;

/**
 * Text output cut off (a killed job, a truncated log) would otherwise read as
 * fewer benchmarks, or a last line with a made-up unit. Go always ends a
 * package's run with `PASS`/`FAIL`/`ok …` lines after the results, so text
 * whose last result line has no closing line after it stops early.
 */
function assertCompleteText(lines: readonly SourceLine[], path: string): void {
  let lastResult = -1;
  lines.forEach((source, i) => {
    if (!source.text.startsWith('Benchmark')) return;
    if (!source.complete) {
      throw new InputError(
        path,
        `the result line ${JSON.stringify(source.text)} stops without a newline at the end of the file; the go test output is cut off (truncated?)`,
        source.line,
      );
    }
    if (source.text.trim().split(/\s+/).length > 1) lastResult = i;
  });
  if (!lines.slice(lastResult + 1).some((source) => CLOSING_LINE.test(source.text))) {
    const last = lines[lines.length - 1];
    throw new InputError(
      path,
      'the go test output stops early (truncated?): no closing "PASS", "FAIL", "ok  <pkg>" or "exit status" line after the last result line',
      last?.line,
    );
  }
}

/**
 * Rebuilds Go's text output from test2json events. test2json splits a result
 * line over two `output` events (name, then numbers), so output is joined per
 * package and test before it is cut into lines.
 */
function linesFromTest2json(text: string, path: string): SourceLine[] {
  const out: SourceLine[] = [];
  const pending = new Map<string, { text: string; line: number; pkg: string }>();
  const finished = new Set<string>();
  const seen = new Set<string>();
  const events = parseJsonLines(text, path, {
    cutOff: 'the last go test -json event is cut off (truncated?)',
    invalid: 'invalid JSON event; expected one go test -json object per line',
  });
  for (const { value: event, line: lineNo } of events) {
    if (!isRecord(event) || typeof event.Action !== 'string') {
      throw new InputError(path, 'expected a go test -json event with an "Action" string', lineNo);
    }
    const pkg = typeof event.Package === 'string' ? event.Package : '';
    if (pkg) seen.add(pkg);
    if ((event.Action === 'pass' || event.Action === 'fail' || event.Action === 'skip') && event.Test === undefined) finished.add(pkg);
    if (event.Action !== 'output' || typeof event.Output !== 'string') continue;
    const key = `${pkg}\u0000${typeof event.Test === 'string' ? event.Test : ''}`;
    const buffer = pending.get(key) ?? { text: '', line: lineNo, pkg };
    if (buffer.text === '') buffer.line = lineNo;
    buffer.text += event.Output;
    let newline: number;
    while ((newline = buffer.text.indexOf('\n')) >= 0) {
      out.push({ text: buffer.text.slice(0, newline).replace(/\r$/, ''), line: buffer.line, complete: true, pkg });
      buffer.text = buffer.text.slice(newline + 1);
      buffer.line = lineNo;
    }
    pending.set(key, buffer);
  }
  for (const buffer of pending.values()) {
    if (buffer.text !== '') out.push({ text: buffer.text, line: buffer.line, complete: false, pkg: buffer.pkg });
  }
  const unfinished = [...seen].filter((p) => !finished.has(p));
  if (unfinished.length > 0) {
    throw new InputError(
      path,
      `no final pass/fail event for package ${unfinished.join(', ')}; the go test -json stream stops early (truncated, or go test was killed)`,
      text.split('\n').length,
    );
  }
  return out;
}

interface Accumulator {
  name: string;
  pkg: string;
  procs: string;
  line: number;
  /** Unit → values in repeat order. */
  values: Map<string, number[]>;
  failed?: { line: number; log: string[] };
}

const FAIL_LINE = /^\s*--- (FAIL|SKIP|BENCH): (\S+)/;
const CONFIG_LINE = /^([a-z][^\s:A-Z]*):(?:\s+(.*))?$/;

type SplitName = (fullName: string) => { name: string; procs: string };

/** Reads result, configuration and `--- FAIL` lines into per-benchmark accumulators, in first-seen order. */
function collect(lines: readonly SourceLine[], path: string, split: SplitName): BenchmarkResult[] {
  const byKey = new Map<string, Accumulator>();
  let pkg = '';
  let logTarget: Accumulator | undefined;

  const accumulator = (name: string, procs: string, line: number, p: string): Accumulator => {
    const key = `${p}\u0000${name}\u0000${procs}`;
    let acc = byKey.get(key);
    if (!acc) {
      acc = { name, pkg: p, procs, line, values: new Map() };
      byKey.set(key, acc);
    }
    return acc;
  };

  for (const source of lines) {
    const text = source.text;
    const currentPkg = source.pkg ?? pkg;
    const fail = FAIL_LINE.exec(text);
    if (fail) {
      logTarget = undefined;
      if (fail[1] === 'FAIL') {
        // Go prints `--- FAIL: Name` without the -N suffix; a failed benchmark has no result
        // line, so its GOMAXPROCS is unknown (procs '').
        const { name, procs } = split(fail[2]!);
        const known =
          byKey.get(`${currentPkg}\u0000${name}\u0000${procs}`) ??
          [...byKey.values()].find((a) => a.pkg === currentPkg && (a.name === fail[2] || a.name === name));
        const acc = known ?? accumulator(fail[2]!, '', source.line, currentPkg);
        acc.failed = { line: source.line, log: [] };
        logTarget = acc;
      }
      continue;
    }
    if (logTarget && /^\s{4,}\S/.test(text)) {
      logTarget.failed!.log.push(text.trim());
      continue;
    }
    logTarget = undefined;
    if (text.startsWith('Benchmark')) {
      const fields = text.trim().split(/\s+/);
      if (fields.length === 1 && source.complete) continue; // `-v` prints the bare name before running it
      if (!source.complete && (fields.length < 4 || fields.length % 2 !== 0)) {
        throw new InputError(path, `the result line for ${fields[0]} is cut off (truncated?): ${JSON.stringify(text)}`, source.line);
      }
      parseResultLine(fields, source, currentPkg, path, accumulator, split);
      continue;
    }
    const config = CONFIG_LINE.exec(text);
    if (config && config[1] === 'pkg' && source.pkg === undefined) pkg = (config[2] ?? '').trim();
  }

  const all = [...byKey.values()];
  // How many packages and GOMAXPROCS values each name appears with, to keep ids unique.
  const pkgsOf = new Map<string, Set<string>>();
  const procsOf = new Map<string, Set<string>>();
  for (const a of all) {
    pkgsOf.set(a.name, (pkgsOf.get(a.name) ?? new Set()).add(a.pkg));
    procsOf.set(`${a.pkg}\u0000${a.name}`, (procsOf.get(`${a.pkg}\u0000${a.name}`) ?? new Set()).add(a.procs));
  }
  return all.map((acc) => toResult(acc, pkgsOf.get(acc.name)!.size > 1, procsOf.get(`${acc.pkg}\u0000${acc.name}`)!.size > 1));
}

function parseResultLine(
  fields: string[],
  source: SourceLine,
  pkg: string,
  path: string,
  accumulator: (name: string, procs: string, line: number, pkg: string) => Accumulator,
  split: SplitName,
): void {
  const [fullName, iterations, ...pairs] = fields;
  if (!/^\d+$/.test(iterations ?? '')) {
    throw new InputError(path, `expected an iteration count after ${fullName}, found ${JSON.stringify(iterations ?? '')}`, source.line);
  }
  if (pairs.length === 0 || pairs.length % 2 !== 0) {
    throw new InputError(path, `expected "value unit" pairs after the iteration count of ${fullName}, found ${JSON.stringify(pairs.join(' '))}`, source.line);
  }
  const { name, procs } = split(fullName!);
  const acc = accumulator(name, procs, source.line, pkg);
  for (let i = 0; i < pairs.length; i += 2) {
    const value = Number(pairs[i]);
    const unit = pairs[i + 1]!;
    if (!Number.isFinite(value) || pairs[i]!.trim() === '') {
      throw new InputError(path, `expected a number before "${unit}" for ${fullName}, found ${JSON.stringify(pairs[i])}`, source.line);
    }
    const list = acc.values.get(unit) ?? [];
    list.push(value);
    acc.values.set(unit, list);
  }
}

/** The file's GOMAXPROCS suffixes, and the names printed bare beside a suffixed form of themselves (`-cpu 1,…`). */
interface ProcsReading {
  procs: Set<string>;
  bare: Set<string>;
}

/**
 * Which trailing `-N` values of this file's result lines are Go's GOMAXPROCS
 * suffix, by one rule about the whole run, never about which names happen to
 * share a number. Go appends `-N` to every result line when GOMAXPROCS is N > 1
 * and nothing at GOMAXPROCS=1; `-cpu a,b,…` prints every benchmark once per
 * value (value 1 without a suffix). So the suffixes are GOMAXPROCS when the
 * file has that shape: reading each line as name + value (a line without a
 * suffix, or whose name is also printed with a further `-M`, is value 1),
 * every name has the same set of values. Otherwise (a line without a suffix
 * among suffixed ones, names with different numbers) the run was at
 * GOMAXPROCS=1 or is several runs pasted together, and every `-N` stays in
 * the name. Go's configuration lines do not state GOMAXPROCS (`cpu:` is the
 * model name), so they cannot settle it. Not told apart: a GOMAXPROCS=1 run
 * whose names all end in one `-N` (read as GOMAXPROCS), and one name at two
 * or more values without a bare line (`size-10`, `size-100`: read as names,
 * not `-cpu 10,100`).
 */
function procsSuffixes(lines: readonly SourceLine[]): ProcsReading {
  const printed = new Set<string>();
  for (const { text } of lines) {
    if (!text.startsWith('Benchmark')) continue;
    const fields = text.trim().split(/\s+/);
    if (fields.length >= 4 && /^\d+$/.test(fields[1]!)) printed.add(fields[0]!);
  }
  const suffixed = [...printed].map((name) => /^(.+)-(\d+)$/.exec(name)).filter((m) => m !== null);
  const bare = new Set(suffixed.map((m) => m[1]!).filter((base) => printed.has(base)));
  const valuesOf = new Map<string, Set<string>>();
  for (const name of printed) {
    const m = bare.has(name) ? null : /^(.+)-(\d+)$/.exec(name);
    const [base, value] = m ? [m[1]!, m[2]!] : [name, '1'];
    valuesOf.set(base, (valuesOf.get(base) ?? new Set()).add(value));
  }
  const none: ProcsReading = { procs: new Set(), bare: new Set() };
  const sets = [...valuesOf.values()];
  const first = sets[0];
  if (!first || !sets.every((set) => set.size === first.size && [...set].every((v) => first.has(v)))) return none;
  if (sets.length === 1 && first.size > 1 && !first.has('1')) return none;
  const procs = new Set([...first].filter((v) => v !== '1'));
  return procs.size > 0 ? { procs, bare } : none;
}

/**
 * Splits the suffix off a name when it is one of the file's GOMAXPROCS values;
 * a name without one (or printed bare under `-cpu 1,…`) ran at GOMAXPROCS=1,
 * unless the file has no GOMAXPROCS suffixes at all (then GOMAXPROCS is not
 * stated, and no `procs` is given).
 */
function splitterFor({ procs, bare }: ProcsReading): SplitName {
  return (fullName) => {
    const m = bare.has(fullName) ? null : /^(.+)-(\d+)$/.exec(fullName);
    if (m && procs.has(m[2]!)) return { name: m[1]!, procs: m[2]! };
    return { name: fullName, procs: procs.size > 0 ? '1' : '' };
  };
}

/** Known Go units: metric name, base unit, and the factor into it. */
const UNITS: Record<string, { metric: string; unit: string; factor: number }> = {
  'ns/op': { metric: 'time', unit: 's', factor: 1e-9 },
  'MB/s': { metric: 'bytes_per_second', unit: 'B/s', factor: 1e6 },
  'B/op': { metric: 'alloc_bytes', unit: 'B', factor: 1 },
  'allocs/op': { metric: 'allocs', unit: 'count', factor: 1 },
};

function toResult(acc: Accumulator, severalPkgs: boolean, severalProcs: boolean): BenchmarkResult {
  let id = severalPkgs && acc.pkg ? `${acc.pkg}.${acc.name}` : acc.name;
  if (severalProcs) id += `[procs=${acc.procs}]`;

  const metrics: Record<string, Metric> = {};
  for (const [unit, values] of acc.values) {
    const known = UNITS[unit];
    if (known) {
      metrics[known.metric] = buildMetric(known.metric, known.unit, { samples: values.map((v) => scaleValue(v, known.factor)) }, { sourceUnit: unit });
    } else {
      metrics[unit] = buildMetric(unit, unit, { samples: values }, { sourceUnit: unit });
    }
  }
  const params: Record<string, string> = acc.procs ? { procs: acc.procs } : {};
  if (acc.pkg) params.pkg = acc.pkg;
  const result: BenchmarkResult = { id, params, status: 'ok', metrics };
  if (acc.failed) {
    result.status = 'failed';
    result.error = {
      message: `--- FAIL: ${acc.name}${acc.failed.log.length ? `: ${acc.failed.log[0]}` : ''}`,
      ...(acc.failed.log.length ? { logTail: acc.failed.log.slice(-20).join('\n') } : {}),
    };
  }
  return result;
}
