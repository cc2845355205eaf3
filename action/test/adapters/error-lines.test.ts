import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Adapter } from '../../src/adapters/adapter.js';
import { InputError } from '../../src/model/index.js';
import { fileInput, parseInput } from '../../src/adapters/index.js';
import { benchmarkDotNetAdapter } from '../../src/adapters/benchmarkdotnet.js';
import { benchmarkJsAdapter } from '../../src/adapters/benchmarkjs.js';
import { bmfAdapter } from '../../src/adapters/bmf.js';
import { callgrindAdapter } from '../../src/adapters/callgrind.js';
import { cargoCriterionAdapter } from '../../src/adapters/cargo-criterion.js';
import { criterionAdapter } from '../../src/adapters/criterion.js';
import { gbenchAdapter } from '../../src/adapters/gbench.js';
import { gnuTimeAdapter } from '../../src/adapters/gnu-time.js';
import { goBenchAdapter } from '../../src/adapters/go-bench.js';
import { hyperfineAdapter } from '../../src/adapters/hyperfine.js';
import { jmhAdapter } from '../../src/adapters/jmh.js';
import { junitAdapter } from '../../src/adapters/junit.js';
import { libtestAdapter } from '../../src/adapters/libtest.js';
import { markerLinesAdapter } from '../../src/adapters/marker-lines.js';
import { massifAdapter } from '../../src/adapters/massif.js';
import { mitataAdapter } from '../../src/adapters/mitata.js';
import { perfStatAdapter } from '../../src/adapters/perf-stat.js';
import { pytestBenchmarkAdapter } from '../../src/adapters/pytest-benchmark.js';
import { resultSetAdapter } from '../../src/adapters/result-set.js';
import { straceAdapter } from '../../src/adapters/strace.js';
import { tinybenchAdapter } from '../../src/adapters/tinybench.js';
import { wrkAdapter } from '../../src/adapters/wrk.js';
import { tempDir } from '../support/temp.js';
import { FIXTURES, inputErrorOf } from './adapter-contract.js';

/**
 * Every adapter's error points at the line of the offending token: a copy of a
 * real fixture is broken in one place, and the error must name exactly that
 * line (for a missing key, the line of the object that lacks it). Looking a
 * line up by searching for a key name finds the same key in another record.
 */

/** The 1-based line on which the n-th (0-based) occurrence of `needle` starts. */
function lineAt(text: string, needle: string, nth = 0): number {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    assert.ok(at >= 0, `the fixture no longer holds ${JSON.stringify(needle)} (occurrence ${nth})`);
  }
  return text.slice(0, at).split('\n').length;
}

/** Replaces the n-th occurrence of `find`; the broken line is where it started. */
function breakAt(text: string, find: string, replace: string, nth = 0): { text: string; line: number } {
  const line = lineAt(text, find, nth);
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(find, at + 1);
  return { text: text.slice(0, at) + replace + text.slice(at + find.length), line };
}

/** Rewrites one line (1-based). */
function breakLine(text: string, line: number, edit: (l: string) => string): { text: string; line: number } {
  const lines = text.split('\n');
  const before = lines[line - 1]!;
  lines[line - 1] = edit(before);
  assert.notEqual(lines[line - 1], before, `line ${line} was not changed`);
  return { text: lines.join('\n'), line };
}

/** One-line JSON fixtures are spread over lines first, so a line number can be wrong. */
function pretty(text: string): string {
  return `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
}

function fixture(path: string): string {
  return readFileSync(join(FIXTURES, path), 'utf8');
}

interface Case {
  what: string;
  adapter: Adapter;
  broken: () => { text: string; line: number };
  /** The file name the copy is parsed under (some adapters take a hint from it). */
  name: string;
}

const markers = markerLinesAdapter({
  benchmark: 'migration',
  markers: [
    { pattern: '^MIGRATION_COUNT: (\\d+)$', metric: 'migrations', unit: 'count' },
    { pattern: '^P99_LATENCY_MS: (\\S+)$', metric: 'latency_p99', unit: 'ms' },
    { pattern: '^HEAP_MB: (\\S+)$', metric: 'heap', unit: 'MiB' },
  ],
});

const CASES: Case[] = [
  {
    what: 'hyperfine: results[0] without "command" is reported at results[0], not at results[1]\'s command',
    adapter: hyperfineAdapter,
    name: 'two-commands.json',
    broken: () => {
      const text = fixture('hyperfine/two-commands.json');
      return { text: text.replace('"command": "sleep 0.01",\n      ', ''), line: lineAt(text, '    {\n      "command": "sleep 0.01"') };
    },
  },
  {
    what: 'hyperfine: a bad times[3] is reported on its own line',
    adapter: hyperfineAdapter,
    name: 'two-commands.json',
    broken: () => breakAt(fixture('hyperfine/two-commands.json'), '        0.01172599784,\n', '        "0.0117",\n'),
  },
  {
    what: 'benchmarkdotnet: a bad OriginalValues entry of the second benchmark',
    adapter: benchmarkDotNetAdapter,
    name: 'bdn-report-full.json',
    broken: () => {
      const text = fixture('benchmarkdotnet/bdn-0.12.1-report-full.json');
      return breakLine(text, lineAt(text, '"OriginalValues"', 1) + 3, (l) => l.replace(/-?\d[\d.eE+-]*/, '-1'));
    },
  },
  {
    what: 'benchmarkjs JSON: the first benchmark without "name" is reported at its own object',
    adapter: benchmarkJsAdapter,
    name: 'flat-stats.json',
    broken: () => {
      const text = fixture('benchmarkjs/flat-stats.json');
      return { text: text.replace('"name": "RegExp#test",\n    ', ''), line: lineAt(text, '  {\n    "name": "RegExp#test"') };
    },
  },
  {
    what: 'benchmarkjs cycle lines: a line cut short',
    adapter: benchmarkJsAdapter,
    name: 'cycle-lines.txt',
    broken: () =>
      breakAt(fixture('benchmarkjs/cycle-lines.txt'), 'String#indexOf x 1,236,622,708 ops/sec ±0.69% (95 runs sampled)', 'String#indexOf x 1,236,622'),
  },
  {
    what: 'bmf (hand-written): a measure of the second benchmark without a value',
    adapter: bmfAdapter,
    name: 'handwritten.bmf.json',
    broken: () =>
      breakAt(
        `${JSON.stringify({ 'scan/a': { latency: { value: 4.4e6 } }, 'scan/b': { latency: { value: 5.1e6, lower_value: 5e6 } } }, null, 2)}\n`,
        '"value": 5100000',
        '"value": "fast"',
      ),
  },
  {
    what: 'cargo-criterion: a message with mismatched samples, on its own line',
    adapter: cargoCriterionAdapter,
    name: 'messages.jsonl',
    broken: () => {
      const text = fixture('cargo-criterion/message-format-json.jsonl');
      return breakAt(text, '"measured_values":[', '"measured_values":[-1,', 2);
    },
  },
  {
    what: 'gbench: a bad real_time in the second repetition',
    adapter: gbenchAdapter,
    name: 'gbench.json',
    broken: () => breakAt(fixture('gbench/repetitions-nan-error.json'), '"real_time": ', '"real_time": "slow", "was": ', 1),
  },
  {
    what: 'jmh: an unknown mode in the second result',
    adapter: jmhAdapter,
    name: 'jmh.json',
    broken: () => breakAt(fixture('jmh/jmh-1.36-thrpt-avgt-dot-prefix.json'), '"mode" : "', '"mode" : "fast", "was" : "', 1),
  },
  {
    what: 'mitata (spread over lines): a bad "avg"',
    adapter: mitataAdapter,
    name: 'mitata.json',
    broken: () => breakAt(pretty(fixture('mitata/run-json-no-samples.json')), '"avg": ', '"avg": "fast", "was": '),
  },
  {
    what: 'pytest-benchmark: a bad data value of the second benchmark',
    adapter: pytestBenchmarkAdapter,
    name: 'pytest.json',
    broken: () => {
      const text = fixture('pytest-benchmark/pedantic-six-rounds.json');
      return breakLine(text, lineAt(text, '"data": [', 1) + 2, (l) => l.replace(/-?\d[\d.eE+-]*/, '"x"'));
    },
  },
  {
    what: 'tinybench: the second task with a numeric name',
    adapter: tinybenchAdapter,
    name: 'tinybench.json',
    broken: () => breakAt(fixture('tinybench/task-results-one-errored.json'), '"name": "String#indexOf"', '"name": 42'),
  },
  {
    what: "resultset (this repository's stored baseline): a bad sample",
    adapter: resultSetAdapter,
    name: 'results.json',
    broken: () => {
      const text = readFileSync(new URL('../../../baselines/results.json', import.meta.url), 'utf8');
      return breakLine(text, lineAt(text, '"samples": [') + 4, (l) => l.replace(/-?\d[\d.eE+-]*/, '"x"'));
    },
  },
  {
    what: 'libtest JSON: a bench event without a numeric median',
    adapter: libtestAdapter,
    name: 'libtest.jsonl',
    broken: () => breakAt(fixture('libtest/format-json.jsonl'), '"median": ', '"median": "fast", "was": ', 1),
  },
  {
    what: 'libtest text: a bench line cut short',
    adapter: libtestAdapter,
    name: 'libtest.txt',
    broken: () => breakAt(fixture('libtest/decimal.txt'), '132.18 ns/iter (+/- 26.75)', '13'),
  },
  {
    what: 'go-bench text: a bad value on the second result line',
    adapter: goBenchAdapter,
    name: 'gobench.txt',
    broken: () => breakAt(fixture('go-bench/benchmem-count3.txt'), '909.5 ns/op', '909.x ns/op'),
  },
  {
    what: 'go-bench -json: a corrupt event line',
    adapter: goBenchAdapter,
    name: 'gobench.jsonl',
    broken: () => breakAt(fixture('go-bench/benchmem-count3-test2json.jsonl'), '{"Time":', '{"Time"', 7),
  },
  {
    what: 'callgrind: a bad totals line',
    adapter: callgrindAdapter,
    name: 'callgrind.out',
    broken: () => breakAt(fixture('callgrind/alloc.callgrind.out'), 'totals: 541605', 'totals: 54x605'),
  },
  {
    what: 'gnu-time: a bad maximum resident set size',
    adapter: gnuTimeAdapter,
    name: 'time.txt',
    broken: () => breakAt(fixture('gnu-time/alloc-v.txt'), 'Maximum resident set size (kbytes): 1484', 'Maximum resident set size (kbytes): 14x4'),
  },
  {
    what: 'junit: a bad time on the second testcase',
    adapter: junitAdapter,
    name: 'junit.xml',
    broken: () => breakAt(fixture('junit/node-test-reporter.xml'), 'time="0.031391"', 'time="fast"'),
  },
  {
    what: 'marker-lines: a bad value',
    adapter: markers,
    name: 'run.log',
    broken: () => breakAt(fixture('marker-lines/jvm-style-markers.txt'), 'P99_LATENCY_MS: ', 'P99_LATENCY_MS: x', 1),
  },
  {
    what: 'massif: a bad mem_heap_B is reported on its own line, not at its snapshot',
    adapter: massifAdapter,
    name: 'massif.out',
    broken: () => breakAt(fixture('massif/alloc.massif.out'), 'mem_heap_B=1000\n', 'mem_heap_B=1k\n'),
  },
  {
    what: 'perf-stat: a bad event line',
    adapter: perfStatAdapter,
    name: 'perf.csv',
    broken: () => breakAt(fixture('perf-stat/interval.csv'), '0.05,msec,task-clock', '0.05;msec;task-clock'),
  },
  {
    what: 'strace: a bad calls column',
    adapter: straceAdapter,
    name: 'strace.txt',
    broken: () => breakAt(fixture('strace/c-f.txt'), '1769', '17x9'),
  },
  {
    what: 'wrk: a bad latency percentile',
    adapter: wrkAdapter,
    name: 'wrk.txt',
    broken: () => breakAt(fixture('wrk/latency.txt'), '4.26ms', '4.26xs'),
  },
];

describe('adapter errors name the line of the offending token', () => {
  const dir = tempDir('pg-lines-');
  for (const c of CASES) {
    test(c.what, () => {
      const { text, line } = c.broken();
      const path = join(dir, c.name);
      writeFileSync(path, text);
      const error = inputErrorOf(() => c.adapter.parse(fileInput(path, text)));
      assert.equal(error.file, path);
      assert.equal(error.line, line, error.message);
    });
  }

  test('criterion (sample.json spread over lines): a bad time is reported in sample.json at its line', () => {
    const folder = join(dir, 'criterion', 'new');
    cpSync(join(FIXTURES, 'criterion/target-criterion/make_input_100/new'), folder, { recursive: true });
    const sample = pretty(readFileSync(join(folder, 'sample.json'), 'utf8'));
    const times = lineAt(sample, '"times": [');
    const { text, line } = breakLine(sample, times + 4, (l) => l.replace(/-?\d[\d.eE+-]*/, '-1'));
    writeFileSync(join(folder, 'sample.json'), text);
    const estimates = join(folder, 'estimates.json');
    const error = inputErrorOf(() => criterionAdapter.parse(fileInput(estimates, readFileSync(estimates, 'utf8'))));
    assert.equal(error.file, join(folder, 'sample.json'));
    assert.equal(error.line, line, error.message);
    assert.equal(error.key, 'times[3]');
  });
});

test('hardening 3.13: a negative latency (hey) or a negative secondary metric (JMH) is refused, naming the file', () => {
  const hey = readFileSync(join(FIXTURES, 'hey', 'hey-0.1.5-ok.txt'), 'utf8').replace('Average:\t0.0009 secs', 'Average:\t-0.0009 secs');
  assert.throws(
    () => parseInput(fileInput('hey.txt', hey), 'hey'),
    (e: unknown) => e instanceof InputError && e.file === 'hey.txt' && /is negative; expected a time of 0 or more/.test(e.message),
  );
  const jmh = JSON.parse(readFileSync(join(FIXTURES, 'jmh', 'jmh-1.37-all-modes-params-prof-gc.json'), 'utf8')) as {
    secondaryMetrics: Record<string, { score: number; rawData: number[][] }>;
  }[];
  const rate = jmh[0]!.secondaryMetrics['gc.alloc.rate']!;
  rate.score = -rate.score;
  rate.rawData = rate.rawData.map((fork) => fork.map((x) => -x));
  assert.throws(
    () => parseInput(fileInput('jmh.json', JSON.stringify(jmh)), 'jmh'),
    (e: unknown) => e instanceof InputError && e.file === 'jmh.json' && /is negative/.test(e.message),
  );
});
