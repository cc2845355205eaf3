import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { goBenchAdapter } from '../../src/adapters/go-bench.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { adapterContract, byId, FIXTURES, inputErrorOf, parseFile, parseText } from './adapter-contract.js';
import { EXAMPLES, factorBeyondSpread, gateRow, runHarness } from '../support/compiled-harnesses.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('go');

const DIR = join(FIXTURES, 'go-bench');
const BENCH = ['-run', '^$', '-bench', '.', '-benchmem', '-benchtime', '2000x', '-cpu', '2'];

/** Bytes of Join(n) in the example: "0,1,…,n-1". */
function joinBytes(n: number): number {
  return Array.from({ length: n }, (_, i) => String(i)).join(',').length;
}

function checkExample(results: BenchmarkResult[], count: number): void {
  assert.deepEqual(
    results.map((r) => r.id),
    ['BenchmarkJoin', 'BenchmarkSum/n=10', 'BenchmarkSum/n=1000'],
  );
  for (const r of results) {
    assert.equal(r.status, 'ok');
    assert.equal(r.params?.procs, '2', 'the -2 GOMAXPROCS suffix is a param, not part of the id');
    assert.equal(r.params?.pkg, 'example.com/perfgate/gobench');
    const time = r.metrics.time!;
    assert.equal(time.unit, 's');
    assert.equal(time.direction, 'lower');
    assert.equal(time.samples!.length, count, '-count repeats are the samples');
    assert.ok(
      time.samples!.every((t) => t > 1e-9 && t < 1e-2),
      `${r.id}: ${time.samples!.join(', ')}`,
    );
    const allocs = r.metrics.alloc_bytes!;
    assert.equal(allocs.unit, 'B');
    assert.equal(allocs.exact, true);
    assert.equal(r.metrics.allocs!.unit, 'count');
    assert.equal(r.metrics.allocs!.exact, true);
  }
  // strings.Split of 10 fields: one slice of 10 string headers (160 bytes on 64-bit), one allocation.
  // Go's B/op is the bytes allocated during the timed loop ÷ N, so a repeat in which the runtime itself
  // allocated (a GC cycle's bookkeeping) reads a few bytes more: 160 in most repeats, never less.
  const small = byId(results, 'BenchmarkSum/n=10');
  const bytes = small.metrics.alloc_bytes!.samples!;
  assert.equal(bytes.length, count);
  assert.ok(bytes.every((b) => b >= 160 && b <= 176) && bytes.filter((b) => b === 160).length > count / 2, bytes.join(', '));
  assert.deepEqual(small.metrics.allocs!.samples, Array(count).fill(1));
  // b.SetBytes: MB/s (10^6 bytes) becomes bytes per second, higher is better, consistent with ns/op.
  const rate = small.metrics.bytes_per_second!;
  assert.equal(rate.unit, 'B/s');
  assert.equal(rate.direction, 'higher');
  rate.samples!.forEach((v, i) => assert.ok(Math.abs((v * small.metrics.time!.samples![i]!) / joinBytes(10) - 1) < 0.02, `${v} B/s`));
  // b.ReportMetric(n, "items/op") is kept under its own unit.
  assert.deepEqual(byId(results, 'BenchmarkSum/n=1000').metrics['items/op']!.samples, Array(count).fill(1000));
  assert.equal(byId(results, 'BenchmarkSum/n=1000').metrics['items/op']!.unit, 'items/op');
}

describe('go-bench adapter on real go test -bench runs', () => {
  let text: string;
  let json: string;
  before(() => {
    text = runHarness('go', ['test', ...BENCH, '-count', '6'], { cwd: EXAMPLES.go }).stdout;
    json = runHarness('go', ['test', ...BENCH, '-count', '3', '-json'], { cwd: EXAMPLES.go }).stdout;
  });

  test('text: one benchmark per name, -count 6 repeats as samples, base units, allocations exact', () => {
    assert.match(text, /^goos: /m);
    checkExample(parseText(goBenchAdapter, text, '/work/out/go.txt'), 6);
  });

  test('-json (test2json, result lines split over two events) reads the same', () => {
    assert.deepEqual(goBenchAdapter.detect({ path: 'go.json', text: json, readRelated: () => undefined }), { match: true });
    checkExample(parseText(goBenchAdapter, json, '/work/out/go.jsonl'), 3);
  });

  test('a byte rate that rose beyond its whole spread is improved, and the same drop regressed', () => {
    const base = byId(parseText(goBenchAdapter, text, 'base.txt'), 'BenchmarkSum/n=1000');
    const factor = factorBeyondSpread(base.metrics.time!.samples!);
    const faster = text.replace(
      /([\d.]+) ns\/op(\s+)([\d.]+) MB\/s/g,
      (_, ns: string, gap: string, mbs: string) => `${Number(ns) / factor} ns/op${gap}${Number(mbs) * factor} MB/s`,
    );
    const cur = byId(parseText(goBenchAdapter, faster, 'cur.txt'), 'BenchmarkSum/n=1000');
    assert.equal(gateRow(base, cur, 'bytes_per_second').status, 'improved');
    assert.equal(gateRow(base, cur, 'time').status, 'improved');
    assert.equal(gateRow(cur, base, 'bytes_per_second').status, 'regressed');
  });

  test('-cpu 1,2 keeps both GOMAXPROCS values apart', () => {
    const out = runHarness('go', ['test', '-run', '^$', '-bench', 'Join', '-benchtime', '100x', '-cpu', '1,2'], { cwd: EXAMPLES.go }).stdout;
    const results = parseText(goBenchAdapter, out, 'cpu.txt');
    assert.deepEqual(
      results.map((r) => [r.id, r.params?.procs]),
      [
        ['BenchmarkJoin[procs=1]', '1'],
        ['BenchmarkJoin[procs=2]', '2'],
      ],
    );
  });
});

describe('go-bench adapter on a package whose benchmarks fail, skip and log', () => {
  const dir = tempDir('perf-gate-gobench-');
  let run: { status: number | null; stdout: string };
  let json: { status: number | null; stdout: string };
  before(() => {
    writeFileSync(join(dir, 'go.mod'), 'module example.com/failing\n\ngo 1.22\n');
    writeFileSync(
      join(dir, 'f_test.go'),
      [
        'package failing',
        'import "testing"',
        'func BenchmarkOK(b *testing.B) { s := 0; for i := 0; i < b.N; i++ { s += i }; b.Logf("s=%d", s) }',
        'func BenchmarkFails(b *testing.B) { b.Fatal("boom") }',
        'func BenchmarkSkipped(b *testing.B) { b.Skip("not here") }',
        'func BenchmarkSub(b *testing.B) { b.Run("inner", func(b *testing.B) { b.Fatal("inner boom") }) }',
        '',
      ].join('\n'),
    );
    run = runHarness('go', ['test', '-run', '^$', '-bench', '.', '-benchtime', '1000x', '-cpu', '2'], { cwd: dir, allowFailure: true });
    json = runHarness('go', ['test', '-run', '^$', '-bench', '.', '-benchtime', '1000x', '-cpu', '2', '-json'], { cwd: dir, allowFailure: true });
  });

  test('a failing benchmark is failed with its message, a skipped one is absent, a logging one is ok', () => {
    assert.equal(run.status, 1);
    const results = parseText(goBenchAdapter, run.stdout, '/work/out/fail.txt');
    const expected = [
      ['BenchmarkFails', 'failed'],
      ['BenchmarkOK', 'ok'],
      ['BenchmarkSub', 'failed'],
      ['BenchmarkSub/inner', 'failed'],
    ];
    assert.deepEqual(results.map((r) => [r.id, r.status]).sort(), expected);
    const failed = byId(results, 'BenchmarkFails');
    assert.match(failed.error!.message, /boom/);
    assert.deepEqual(failed.metrics, {});
    assert.equal(failed.params?.procs, undefined, 'a failed benchmark printed no -N suffix: GOMAXPROCS unknown');
    assert.match(byId(results, 'BenchmarkSub/inner').error!.message, /inner boom/);
    assert.equal(json.status, 1);
    const fromJson = parseText(goBenchAdapter, json.stdout, '/work/out/fail.jsonl');
    assert.deepEqual(fromJson.map((r) => [r.id, r.status]).sort(), expected);
  });
});

describe('go-bench adapter: a trailing -N that is part of the name (GOMAXPROCS=1)', () => {
  const dir = tempDir('perf-gate-gobench-sizes-');
  const args = ['test', '-run', '^$', '-bench', '.', '-count', '2', '-benchtime', '200x'];
  let one: string;
  let oneJson: string;
  let eight: string;
  before(() => {
    writeFileSync(join(dir, 'go.mod'), 'module example.com/sizes\n\ngo 1.22\n');
    writeFileSync(
      join(dir, 'sizes_test.go'),
      [
        'package sizes',
        'import ("fmt"; "strings"; "testing")',
        'func BenchmarkSizes(b *testing.B) {',
        '\tfor _, n := range []int{10, 100} {',
        '\t\tb.Run(fmt.Sprintf("size-%d", n), func(b *testing.B) { for i := 0; i < b.N; i++ { _ = strings.Repeat("x", n) } })',
        '\t}',
        '}',
        '',
      ].join('\n'),
    );
    one = runHarness('go', args, { cwd: dir, env: { GOMAXPROCS: '1' } }).stdout;
    oneJson = runHarness('go', [...args, '-json'], { cwd: dir, env: { GOMAXPROCS: '1' } }).stdout;
    eight = runHarness('go', args, { cwd: dir, env: { GOMAXPROCS: '8' } }).stdout;
  });

  const ids = ['BenchmarkSizes/size-10', 'BenchmarkSizes/size-100'];

  test('GOMAXPROCS=1: size-10 and size-100 stay in the ids, with no procs param', () => {
    assert.match(one, /^BenchmarkSizes\/size-100\s/m, 'go printed no GOMAXPROCS suffix');
    for (const [out, path] of [
      [one, 'one.txt'],
      [oneJson, 'one.jsonl'],
    ] as const) {
      const results = parseText(goBenchAdapter, out, path);
      assert.deepEqual(
        results.map((r) => r.id),
        ids,
        path,
      );
      for (const r of results) {
        assert.equal(r.params?.procs, undefined, `${path} ${r.id}`);
        assert.equal(r.metrics.time!.samples!.length, 2, `${path} ${r.id}: -count 2 repeats stay together`);
      }
    }
    const captured = parseFile(goBenchAdapter, join(DIR, 'gomaxprocs1-subbench.txt'));
    assert.deepEqual(
      captured.map((r) => [r.id, r.params?.procs]),
      ids.map((id) => [id, undefined]),
    );
  });

  test('GOMAXPROCS=8: the -8 suffix is cut, giving the same ids as GOMAXPROCS=1', () => {
    assert.match(eight, /^BenchmarkSizes\/size-100-8\s/m);
    const results = parseText(goBenchAdapter, eight, 'eight.txt');
    assert.deepEqual(
      results.map((r) => [r.id, r.params?.procs]),
      ids.map((id) => [id, '8']),
    );
  });

  test('-cpu 1,2 still reads the suffix as GOMAXPROCS: Name[procs=N]', () => {
    const out = runHarness('go', ['test', '-run', '^$', '-bench', '.', '-benchtime', '100x', '-cpu', '1,2'], { cwd: dir }).stdout;
    const results = parseText(goBenchAdapter, out, 'cpu.txt');
    assert.deepEqual(
      results.map((r) => [r.id, r.params?.procs]),
      [
        ['BenchmarkSizes/size-10[procs=1]', '1'],
        ['BenchmarkSizes/size-10[procs=2]', '2'],
        ['BenchmarkSizes/size-100[procs=1]', '1'],
        ['BenchmarkSizes/size-100[procs=2]', '2'],
      ],
    );
    const fixture = parseFile(goBenchAdapter, join(DIR, 'cpu-1-2.txt'));
    assert.deepEqual(
      fixture.map((r) => [r.id, r.params?.procs]),
      [
        ['BenchmarkJoin[procs=1]', '1'],
        ['BenchmarkJoin[procs=2]', '2'],
      ],
    );
  });

  test('-cpu 1,2,4 on one sub-benchmark: its bare line marks -2 and -4 as GOMAXPROCS, the name keeps -10', () => {
    const out = runHarness('go', ['test', '-run', '^$', '-bench', 'Sizes/size-10$', '-benchtime', '100x', '-cpu', '1,2,4'], { cwd: dir }).stdout;
    assert.match(out, /^BenchmarkSizes\/size-10-4\s/m);
    const results = parseText(goBenchAdapter, out, 'cpu124.txt');
    assert.deepEqual(
      results.map((r) => [r.id, r.params?.procs]),
      [
        ['BenchmarkSizes/size-10[procs=1]', '1'],
        ['BenchmarkSizes/size-10[procs=2]', '2'],
        ['BenchmarkSizes/size-10[procs=4]', '4'],
      ],
    );
  });

  test('GOMAXPROCS=1 with one numbered name next to plain ones: the number stays in the name', () => {
    const out = runHarness('go', ['test', '-run', '^$', '-bench', 'Sizes/size-10$', '-benchtime', '100x'], { cwd: dir, env: { GOMAXPROCS: '1' } }).stdout;
    const plain = runHarness('go', ['test', '-run', '^$', '-bench', 'Join', '-benchtime', '100x'], { cwd: EXAMPLES.go, env: { GOMAXPROCS: '1' } }).stdout;
    const joinLine = plain.split('\n').find((l) => l.startsWith('BenchmarkJoin'))!;
    const mixed = out.replace(/^(BenchmarkSizes\/size-10\s.*\n)/m, `${joinLine}\n$1`);
    assert.equal(mixed.split('\n').filter((l) => /^Benchmark\S+\s+\d/.test(l)).length, 2);
    const results = parseText(goBenchAdapter, mixed, 'mixed1.txt');
    assert.deepEqual(
      results.map((r) => [r.id, r.params?.procs]),
      [
        ['BenchmarkJoin', undefined],
        ['BenchmarkSizes/size-10', undefined],
      ],
    );
  });

  test('GOMAXPROCS=1 with no numbers in the names: bare ids, GOMAXPROCS not stated', () => {
    const out = runHarness('go', ['test', '-run', '^$', '-bench', 'Join', '-benchtime', '100x'], { cwd: EXAMPLES.go, env: { GOMAXPROCS: '1' } }).stdout;
    const results = parseText(goBenchAdapter, out, 'join1.txt');
    assert.deepEqual(
      results.map((r) => [r.id, r.params?.procs]),
      [['BenchmarkJoin', undefined]],
    );
  });

  test('-cpu 2,4: several names share each suffix, so it is GOMAXPROCS', () => {
    const out = runHarness('go', ['test', '-run', '^$', '-bench', '.', '-benchtime', '100x', '-cpu', '2,4'], { cwd: dir }).stdout;
    const results = parseText(goBenchAdapter, out, 'cpu24.txt');
    assert.deepEqual(
      results.map((r) => r.id),
      ['BenchmarkSizes/size-10[procs=2]', 'BenchmarkSizes/size-10[procs=4]', 'BenchmarkSizes/size-100[procs=2]', 'BenchmarkSizes/size-100[procs=4]'],
    );
  });
});

describe('go-bench adapter on committed captures', () => {
  test('config lines before results, and names with /, = and no -N suffix', () => {
    const config = parseFile(goBenchAdapter, join(DIR, 'config-lines.txt'));
    assert.deepEqual(
      config.map((r) => r.id),
      ['BenchmarkItoa', 'BenchmarkJoin'],
    );
    assert.equal(byId(config, 'BenchmarkItoa').metrics.time!.samples!.length, 6);
    const odd = parseFile(goBenchAdapter, join(DIR, 'odd-names-external.txt'));
    assert.equal(byId(odd, 'BenchmarkFib/my/tabled/benchmark_-_20,var1=13,var2=14').params?.procs, undefined);
    assert.deepEqual(byId(odd, 'BenchmarkFib11-16').metrics.auxMetricUnits!.samples, [3]);
  });

  test('one rule for the -N suffix: GOMAXPROCS only when every benchmark of the file shows the same suffixes', () => {
    // The same line, `BenchmarkFib10-8 … 325 ns/op`, in two external files.
    const line = /^BenchmarkFib10-8\s+5000000\s+325 ns\/op$/m;
    const single = readFileSync(join(DIR, 'single-package-verbose-external.txt'), 'utf8');
    const odd = readFileSync(join(DIR, 'odd-names-external.txt'), 'utf8');
    assert.match(single, line);
    assert.match(odd, line);
    // Every result line ends in -8: one GOMAXPROCS=8 run, so -8 is cut (the -v bare name lines are not results).
    const one = parseText(goBenchAdapter, single, 'single.txt');
    assert.deepEqual(
      one.map((r) => [r.id, r.params?.procs]),
      [
        ['BenchmarkFib10', '8'],
        ['BenchmarkFib20', '8'],
      ],
    );
    // Lines without a suffix (BenchmarkFib20) next to -8 and -16 ones: not one run's shape, so every -N stays in
    // the name, whichever numbers other names happen to share.
    const mixed = parseText(goBenchAdapter, odd, 'odd.txt');
    assert.deepEqual(
      mixed.map((r) => [r.id, r.params?.procs]),
      [
        ['BenchmarkFib10-8', undefined],
        ['BenchmarkFib20', undefined],
        ['BenchmarkFib/my_tabled_benchmark_-_10-8', undefined],
        ['BenchmarkFib/my_tabled_benchmark_-_20', undefined],
        ['BenchmarkFib/my/tabled/benchmark_-_20', undefined],
        ['BenchmarkFib/my/tabled/benchmark_-_20,var1=13,var2=14', undefined],
        ['BenchmarkFib11-16', undefined],
        ['BenchmarkFib22-16', undefined],
      ],
    );
    // Values convert decimally: 40537.123 ns/op is exactly the double 40537.123e-9 (not 40537.123 × 1e-9).
    assert.deepEqual(byId(mixed, 'BenchmarkFib20').metrics.time!.samples, [40537.123e-9]);
    // Before, -8 was cut here because two names shared it, yet kept in a file holding only Fib10-8 and Fib20.
    const pair = odd
      .split('\n')
      .filter((l) => !/^BenchmarkFib(\/|1[12]|22)/.test(l))
      .join('\n');
    assert.deepEqual(
      parseText(goBenchAdapter, pair, 'pair.txt').map((r) => r.id),
      ['BenchmarkFib10-8', 'BenchmarkFib20'],
    );
  });

  test('the failing capture keeps the --- FAIL log as the error', () => {
    const results = parseFile(goBenchAdapter, join(DIR, 'fail-skip-log.txt'));
    assert.equal(byId(results, 'BenchmarkFails').error!.logTail, 'fail_test.go:14: boom');
    assert.equal(byId(results, 'BenchmarkLoopAPI').status, 'ok');
  });

  test('a package that only failed to build has no results: an error, never "nothing regressed"', () => {
    const error = inputErrorOf(() => parseText(goBenchAdapter, 'goos: linux\nFAIL\texample.com/x [build failed]\n', '/work/out/build.txt'));
    assert.equal(error.file, '/work/out/build.txt');
  });
});

const text = readFileSync(join(DIR, 'benchmem-count3.txt'), 'utf8');

describe('go-bench adapter on cut-off text output', () => {
  const path = '/work/out/go-bench.txt';

  test('a result line cut after its number and a partial unit is truncation, not a made-up "ns" metric', () => {
    const cut = text.slice(0, text.indexOf('ns/op') + 2); // `... 905.8 ns`
    assert.ok(cut.endsWith(' ns'));
    const error = inputErrorOf(() => parseText(goBenchAdapter, cut, path));
    assert.equal(error.file, path);
    assert.equal(error.line, 5);
    assert.match(error.message, /cut off/);
  });

  test('a cut at a line boundary after some result lines is truncation, not fewer benchmarks', () => {
    const lines = text.split('\n');
    const cut = lines.slice(0, lines.findIndex((l) => l.startsWith('BenchmarkSum/n=10-2')) + 1).join('\n') + '\n';
    const error = inputErrorOf(() => parseText(goBenchAdapter, cut, path));
    assert.equal(error.file, path);
    assert.match(error.message, /stops early/);
  });

  test('the same output with its closing lines is read in full', () => {
    const complete = parseText(goBenchAdapter, text, path);
    assert.deepEqual(
      complete.map((r) => r.id),
      ['BenchmarkJoin', 'BenchmarkSum/n=10', 'BenchmarkSum/n=1000'],
    );
    const ok = parseText(goBenchAdapter, text.slice(0, text.indexOf('PASS\n')) + 'ok  \texample.com/x\t0.4s\n', path);
    assert.equal(ok.length, 3, 'an "ok  <pkg>" line alone closes the output');
  });
});

const json = readFileSync(join(DIR, 'benchmem-count3-test2json.jsonl'), 'utf8');
const jsonLines = json.trimEnd().split('\n');
adapterContract(goBenchAdapter, 'go-bench', [
  { name: 'cut mid-line', text: text.slice(0, text.indexOf('ns/op') - 3), line: true },
  { name: 'corrupt iteration count', text: text.replace(/(BenchmarkJoin-2\s+)\d+/, '$1abc'), line: true },
  { name: 'corrupt value', text: text.replace('ns/op', 'ns/op 12'), line: true },
  { name: 'test2json cut mid-event', text: json.slice(0, json.length - 40), line: true },
  { name: 'test2json without its final event', text: jsonLines.slice(0, -3).join('\n') + '\n', line: true },
]);
