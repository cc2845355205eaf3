import { InputError, type BenchmarkResult, type Summary } from '../model/index.js';
import type { Adapter, AdapterInput } from './adapter.js';
import { buildMetric } from './build-metric.js';
import { asArray, attr, lineOf, parseXmlDocument, type XmlNode } from './xml-nodes.js';
import { textLines } from './text-lines.js';

/**
 * Catch2 benchmarks (`BENCHMARK("name") { … };`, v2 with
 * CATCH_CONFIG_ENABLE_BENCHMARKING and v3), from the console reporter (the
 * default) or the XML reporter (`-r xml`).
 *
 * Console: each test case with benchmarks prints a table
 * `benchmark name  samples  iterations  estimated` (v3 and some v2: `est run
 * time`) / `mean  low mean  high mean` / `std dev  low std dev  high std dev`,
 * then three lines per benchmark: the name with samples, iterations and the
 * estimated run time; mean with its bootstrap interval; standard deviation with
 * its interval, each `value unit` (ns, us, ms, s). A name too long for its
 * column wraps onto lines of its own above the numbers; the parts are joined
 * with a space. `name  Benchmark failed (message)` is a failed benchmark.
 * XML: `<BenchmarkResults name samples iterations …>` with `<mean value>` and
 * `<standardDeviation value>` in nanoseconds; `<failed message>` inside it is
 * a failed benchmark.
 *
 * Catch2 prints no samples: each benchmark's `time` is a summary, n = samples,
 * the mean and the standard deviation (of the per-iteration sample means),
 * converted to seconds; the intervals are not read. The id is the benchmark's
 * name, as github-action-benchmark's catch2 tool names it (two benchmarks of
 * one name are an error); its test case is its `test case` parameter. A
 * test case whose assertion failed (`FAILED:` in the console,
 * `<OverallResult success="false">` in XML) becomes a failed row named
 * after the test case, with the assertion as message: the benchmarks
 * after the failing REQUIRE never ran. Output that stops before Catch2's
 * closing totals (the `=====` line, `</Catch>`) is truncated: an error.
 */
export const catch2Adapter: Adapter = {
  name: 'catch2',

  detect({ text }: AdapterInput) {
    const head = text.slice(0, 65536);
    if (/^\s*(?:<\?xml[^>]*\?>\s*)?<(?:Catch|Catch2TestRun)[\s>]/.test(head)) {
      return /<BenchmarkResults[\s>]/.test(text) ? { match: true } : { match: false, reason: 'Catch2 XML without <BenchmarkResults> (no BENCHMARK ran)' };
    }
    if (TABLE_HEADER.test(head)) return { match: true };
    return { match: false, reason: 'no Catch2 "benchmark name  samples  iterations  estimated" table or <Catch> XML' };
  },

  parse({ text, path }: AdapterInput): BenchmarkResult[] {
    if (text.trim() === '') throw new InputError(path, 'the file is empty; expected Catch2 benchmark output (console or -r xml)');
    const results = /^\s*</.test(text) ? parseXml(text, path) : parseConsole(text, path);
    if (results.length === 0) {
      throw new InputError(
        path,
        'no benchmark results; expected BENCHMARK tables (Catch2 console) or <BenchmarkResults> (-r xml); did the test filter match no benchmark?',
      );
    }
    return results;
  },
};

const TABLE_HEADER = /^benchmark name\s+samples\s+iterations\s+(?:estimated|est run time)\s*$/m;
const NUMBER = String.raw`(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?|inf|nan|-nan`;
const UNIT = String.raw`ns|us|µs|ms|s`;
/** The line carrying a benchmark's samples, iterations and estimated time (the name, or its last part, in front). */
const ROW = new RegExp(String.raw`^(.*?)\s*(?<!\S)(\d+)\s+(\d+)\s+(${NUMBER}) (${UNIT})\s*$`);
/** The mean or std dev line: three `value unit` columns. */
const STATS = new RegExp(String.raw`^\s+(${NUMBER}) (${UNIT})\s+(${NUMBER}) (${UNIT})\s+(${NUMBER}) (${UNIT})\s*$`);
const FAILED_BENCHMARK = /^(.*?)\s+Benchmark failed \((.*)\)\s*$/;
const SECONDS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1 };

/**
 * The parameter naming a benchmark's test case. Catch2 selects test cases,
 * not benchmarks, so the second stage runs a suspect's test case
 * (runner/select-benchmarks.ts).
 */
export const CATCH2_TEST_CASE = 'test case';

/** Collects results, refusing a benchmark name used twice (two test cases can each have one). */
class Results {
  private readonly byId = new Map<string, BenchmarkResult>();
  constructor(private readonly path: string) {}
  add(result: BenchmarkResult, line: number | undefined, testCase: string | undefined): void {
    if (this.byId.has(result.id)) {
      throw new InputError(this.path, `benchmark "${result.id}" appears twice; give each BENCHMARK a distinct name`, line);
    }
    this.byId.set(result.id, testCase === undefined || testCase === '' ? result : { ...result, params: { [CATCH2_TEST_CASE]: testCase } });
  }
  has(id: string): boolean {
    return this.byId.has(id);
  }
  list(): BenchmarkResult[] {
    return [...this.byId.values()];
  }
}

/** `time` as a summary in seconds; a standard deviation Catch2 could not give (nan) is null. */
function timeMetric(samples: number, mean: number, stddev: number, sourceUnit: string): BenchmarkResult['metrics'] {
  const summary: Summary = { n: samples, mean, stddev: Number.isFinite(stddev) && stddev >= 0 ? stddev : null };
  return { time: buildMetric('time', 's', { summary }, { sourceUnit }) };
}

function parseConsole(text: string, path: string): BenchmarkResult[] {
  const lines = textLines(text);
  const results = new Results(path);
  let testCase: string | undefined;
  let inTable = false;
  let nameParts: string[] = [];
  let sawTable = false;
  let closed = false;
  /** A failed assertion of the current test case, and its line. */
  let failure: { message: string; line: number } | undefined;
  const failTestCase = (): void => {
    if (!failure || testCase === undefined || results.has(testCase)) return;
    results.add({ id: testCase, status: 'failed', metrics: {}, error: { message: failure.message } }, failure.line, testCase);
    failure = undefined;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const lineNo = i + 1;
    if (/^={20,}$/.test(line)) {
      failTestCase();
      inTable = false;
      closed = true;
      continue;
    }
    // A test case header: dashes, its name (and section names below it), dashes, then file:line.
    if (/^-{20,}$/.test(line) && i + 2 < lines.length && !/^-{20,}$/.test(lines[i + 1]!) && !/^(?:benchmark name|\s)/.test(lines[i + 1]!)) {
      const end = lines.findIndex((l, j) => j > i && /^-{20,}$/.test(l));
      if (end > i && /:\d+$|\(\d+\)$/.test(lines[end + 1] ?? '')) {
        failTestCase();
        testCase = lines[i + 1]!.trim();
        inTable = false;
        i = end + 1;
        continue;
      }
    }
    if (TABLE_HEADER.test(line)) {
      // The two header lines below it and the dashes close the header.
      if (!/^\s+mean\s+low mean\s+high mean\s*$/.test(lines[i + 1] ?? '') || !/^\s+std dev\s+low std dev\s+high std dev\s*$/.test(lines[i + 2] ?? '')) {
        throw new InputError(
          path,
          'expected the "mean  low mean  high mean" and "std dev  low std dev  high std dev" header lines below "benchmark name" (cut off?)',
          lineNo + 1,
        );
      }
      inTable = true;
      sawTable = true;
      nameParts = [];
      i += /^-{20,}$/.test(lines[i + 3] ?? '') ? 3 : 2;
      continue;
    }
    const assertion = /^(.+):(\d+): FAILED:\s*$/.exec(line);
    if (assertion) {
      failure = { message: failedAssertion(lines, i), line: lineNo };
      inTable = false;
      continue;
    }
    if (!inTable) continue;
    // A blank line (all spaces, or empty where trailing blanks were stripped) separates benchmarks.
    if (line.trim() === '') {
      nameParts = [];
      continue;
    }
    if (/^[-.]{20,}$/.test(line)) {
      inTable = false;
      continue;
    }
    const failed = FAILED_BENCHMARK.exec(line);
    if (failed) {
      const id = joinName([...nameParts, failed[1]!]);
      results.add({ id, status: 'failed', metrics: {}, error: { message: `Benchmark failed (${failed[2]!})` } }, lineNo, testCase);
      nameParts = [];
      continue;
    }
    const row = ROW.exec(line);
    if (!row) {
      nameParts.push(line); // a wrapped name's leading part
      continue;
    }
    const id = joinName([...nameParts, row[1]!]);
    nameParts = [];
    if (id === '') throw new InputError(path, 'a benchmark row without a name', lineNo);
    const mean = STATS.exec(lines[i + 1] ?? '');
    const sd = STATS.exec(lines[i + 2] ?? '');
    if (!mean || !sd) {
      const bad = !mean ? i + 2 : i + 3;
      const cut = bad > lines.length || ((lines[bad - 1] ?? '').trim() === '' && bad >= lines.length);
      throw new InputError(
        path,
        `expected the "mean  low mean  high mean" and "std dev  low std dev  high std dev" lines of "${id}"${cut ? ' (the output stops early: truncated?)' : `, found ${JSON.stringify(lines[bad - 1])}`}`,
        Math.min(bad, lines.length),
      );
    }
    const samples = Number(row[2]);
    if (!(samples >= 1)) throw new InputError(path, `expected a positive sample count for "${id}", found ${row[2]!}`, lineNo);
    const meanS = Number(mean[1]) * SECONDS[mean[2]!]!;
    const sdS = Number(sd[1]) * SECONDS[sd[2]!]!;
    if (!Number.isFinite(meanS)) throw new InputError(path, `expected a finite mean for "${id}", found ${mean[1]!} ${mean[2]!}`, lineNo + 1);
    results.add({ id, status: 'ok', metrics: timeMetric(samples, meanS, sdS, mean[2]!) }, lineNo, testCase);
    i += 2;
  }
  if (sawTable && !closed) {
    throw new InputError(path, 'no closing "=====" totals line; the Catch2 output stops early (truncated, or the program was killed)', lines.length);
  }
  return results.list();
}

/** The parts of a wrapped name, as one name. */
function joinName(parts: string[]): string {
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join(' ');
}

/** The assertion below a `file:line: FAILED:` line: its expression and expansion, on one line. */
function failedAssertion(lines: string[], at: number): string {
  const body: string[] = [];
  for (let j = at + 1; j < lines.length && body.length < 6; j++) {
    const l = lines[j]!;
    if (l.trim() === '' || /^[-=.]{20,}$/.test(l)) break;
    body.push(l.trim());
  }
  return `${lines[at]!.replace(/:\s*$/, '')}${body.length ? `: ${body.join(' ')}` : ''}`;
}

function parseXml(text: string, path: string): BenchmarkResult[] {
  const doc = parseXmlDocument(text, path, {
    arrays: ['Group', 'TestCase', 'Section', 'BenchmarkResults', 'Expression', 'failed', 'OverallResult'],
    expected: 'Catch2 -r xml output',
  });
  const root = (doc['Catch'] ?? doc['Catch2TestRun']) as XmlNode | undefined;
  if (root === undefined) throw new InputError(path, 'expected a <Catch> or <Catch2TestRun> root element (Catch2 -r xml)', 1);
  const results = new Results(path);
  const testCases = [...asArray(root['TestCase']), ...asArray(root['Group']).flatMap((g) => asArray(g['TestCase']))];
  for (const tc of testCases) {
    const tcName = attr(tc, 'name') ?? '';
    for (const bench of nested(tc, 'BenchmarkResults')) readBenchmark(bench, tcName, text, path, results);
    const overall = asArray(tc['OverallResult'])[0];
    if (overall && attr(overall, 'success') === 'false' && !results.has(tcName)) {
      const expression = nested(tc, 'Expression').find((e) => attr(e, 'success') === 'false');
      results.add(
        { id: tcName, status: 'failed', metrics: {}, error: { message: expression ? describeExpression(expression) : 'the test case failed' } },
        lineOf(overall, text),
        tcName,
      );
    }
  }
  return results.list();
}

/** Every element of a name inside a node, through its Sections. */
function nested(node: XmlNode, name: string): XmlNode[] {
  return [...asArray(node[name]), ...asArray(node['Section']).flatMap((s) => nested(s, name))];
}

function readBenchmark(bench: XmlNode, testCase: string, text: string, path: string, results: Results): void {
  const line = lineOf(bench, text);
  const id = attr(bench, 'name');
  if (id === undefined || id === '') throw new InputError(path, 'expected a name attribute on <BenchmarkResults>', line);
  const failed = asArray(bench['failed'])[0];
  if (failed) {
    results.add({ id, status: 'failed', metrics: {}, error: { message: `Benchmark failed (${attr(failed, 'message') ?? 'no message'})` } }, line, testCase);
    return;
  }
  const samples = Number(attr(bench, 'samples'));
  if (!Number.isInteger(samples) || samples < 1)
    throw new InputError(path, `expected a positive samples attribute on benchmark "${id}", found ${JSON.stringify(attr(bench, 'samples'))}`, line);
  const mean = asArray(bench['mean'])[0];
  const sd = asArray(bench['standardDeviation'])[0];
  const meanNs = Number(mean ? attr(mean, 'value') : undefined);
  if (!mean || !Number.isFinite(meanNs)) throw new InputError(path, `expected <mean value="…"> (ns) in benchmark "${id}"`, mean ? lineOf(mean, text) : line);
  const sdNs = Number(sd ? attr(sd, 'value') : Number.NaN);
  results.add({ id, status: 'ok', metrics: timeMetric(samples, meanNs * 1e-9, sdNs * 1e-9, 'ns') }, line, testCase);
}

function describeExpression(e: XmlNode): string {
  const original = asArray(e['Original'])[0]?.['#text'];
  const expanded = asArray(e['Expanded'])[0]?.['#text'];
  const where = [attr(e, 'filename'), attr(e, 'line')].filter(Boolean).join(':');
  const type = attr(e, 'type') ?? 'assertion';
  return `${where ? `${where}: ` : ''}FAILED: ${type}( ${String(original ?? '').trim()} )${expanded !== undefined ? ` with expansion: ${String(expanded).trim()}` : ''}`;
}
