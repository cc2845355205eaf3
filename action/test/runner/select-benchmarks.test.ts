import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePerfGateConfig, type SuiteConfig } from '../../src/config/perf-gate-config.js';
import { fileInput, parseInput } from '../../src/adapters/index.js';
import { selectBenchmarks } from '../../src/runner/select-benchmarks.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

/**
 * The second stage runs only the suspects (issue 36): each harness's own
 * selection, checked against the real tool on a suite of 24 benchmarks whose
 * names hold regex metacharacters, spaces and parameters. What ran is read
 * from the harness's own output.
 */

function suite(yaml: string): SuiteConfig {
  return parsePerfGateConfig(`version: 1\nsuites:\n${yaml}`, 'perf-gate.yml', '/repo').suites[0]!;
}

/** Runs a run line as the runner does (bash -c, {output} filled) and parses what the harness wrote. */
function runSelected(run: string, cwd: string, format: string, env: NodeJS.ProcessEnv = process.env): { ids: string[]; samples: number[]; text: string } {
  const output = join(cwd, 'selected.output');
  const command = run.replaceAll('{output}', output);
  const stdout = execFileSync('bash', ['-c', command], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  const text = /\{output\}/.test(run) ? readFileSync(output, 'utf8') : stdout;
  const rows = parseInput(fileInput(output, text), format);
  return { ids: rows.map((r) => r.id).sort(), samples: rows.map((r) => Object.values(r.metrics)[0]!.samples?.length ?? 1), text };
}

describe('how a round selects the suspects, per harness', () => {
  test('go: an anchored pattern per name level, ten repetitions a round in all; a run line with a pipe cannot take appended words', () => {
    const go = suite("  - name: go\n    run: go test -run '^$' -bench . -benchmem -count 20 ./...\n    format: go-bench\n");
    assert.deepEqual(selectBenchmarks(go, ['go/BenchmarkW07']), {
      run: "go test -run '^$' -bench '^(?:BenchmarkW07)$' -benchmem -count 10 ./...",
      how: "go-bench's own selection",
      // Ten of the plain line's twenty counts: what the second stage's estimate prices a round at.
      share: 0.5,
    });
    const sub = selectBenchmarks(go, ['go/BenchmarkSum/n=10', 'go/BenchmarkSum/a+b_(x)']);
    assert.equal(sub.run, "go test -run '^$' -bench '^(?:BenchmarkSum)$/^(?:n=10|a\\+b_\\(x\\))$' -benchmem -count 5 ./...");
    assert.equal(sub.run !== null && sub.share, 5 / 20);
    // Eleven suspects or more: each once.
    const many = selectBenchmarks(
      go,
      Array.from({ length: 11 }, (_, i) => `go/BenchmarkW${10 + i}`),
    );
    assert.match(many.run!, / -count 1 /);
    assert.equal(many.run !== null && many.share, 1 / 20);
    // Never more than the run line asks for.
    const few = selectBenchmarks(suite('  - name: go\n    run: go test -bench . -count 2 ./...\n    format: go-bench\n'), ['go/BenchmarkW07']);
    assert.deepEqual(few, { run: "go test -bench '^(?:BenchmarkW07)$' -count 2 ./...", how: "go-bench's own selection", share: 1 });
    // One package: the rounds run its compiled test binary, which starts at once (runner/go-test-binary.ts), so a round
    // spends three repetitions in all.
    const compiled = selectBenchmarks(suite('  - name: go\n    run: go test -bench . -count 20 ./parse\n    format: go-bench\n'), ['go/BenchmarkW07']);
    assert.deepEqual(compiled, { run: "go test -bench '^(?:BenchmarkW07)$' -count 3 ./parse", how: "go-bench's own selection", share: 3 / 20 });
    const piped = suite('  - name: go\n    run: go test -bench . | tee {output}\n    format: go-bench\n');
    assert.deepEqual(selectBenchmarks(piped, ['go/BenchmarkW07']), {
      run: null,
      why: 'its run line is not one simple command, so nothing can be appended to it',
    });
  });

  test('criterion after --, JMH include regex with one fork, Google Benchmark flags, a suite filter: template', () => {
    const criterion = suite(
      '  - name: c\n    run: cargo criterion --bench parse --message-format=json -- --warm-up-time 3 --sample-size 20\n    format: cargo-criterion\n',
    );
    assert.equal(
      selectBenchmarks(criterion, ['c/parse/csv/100']).run,
      "cargo criterion --bench parse --message-format=json -- --warm-up-time 0.5 --sample-size 10 '^(?:parse/csv/100)$' --measurement-time 1",
    );
    const jmh = suite('  - name: j\n    run: java -jar b.jar -f 3 -rf json -rff {output}\n    format: jmh\n');
    assert.equal(
      selectBenchmarks(jmh, ['j/example.A.parse[size=10]', 'j/example.A.parse[size=100]']).run,
      "java -jar b.jar -f 1 -rf json -rff {output} '^(?:example\\.A\\.parse)$'",
    );
    const gbench = suite('  - name: g\n    run: ./bench --benchmark_format=json --benchmark_out={output}\n    format: gbench\n');
    assert.equal(
      selectBenchmarks(gbench, ['g/BM_Join/8']).run,
      "./bench --benchmark_format=json --benchmark_out={output} --benchmark_filter='^(?:BM_Join/8)$' --benchmark_repetitions=1",
    );
    const pytest = suite('  - name: p\n    run: pytest --benchmark-json {output}\n    format: pytest-benchmark\n    filter: -k {names}\n');
    assert.deepEqual(selectBenchmarks(pytest, ['p/test_a', "p/test it's"]), {
      run: `pytest --benchmark-json {output} -k test_a 'test it'"'"'s'`,
      how: 'its filter:',
      share: 1,
    });
    // A round's share of the plain run per benchmark: criterion's 0.5 s + 1 s of 3 s + 5 s (its default measurement time), JMH's one fork of three.
    const share = (s: ReturnType<typeof selectBenchmarks>) => (s.run !== null ? s.share : null);
    assert.equal(share(selectBenchmarks(criterion, ['c/parse/csv/100'])), 1.5 / 8);
    assert.equal(share(selectBenchmarks(jmh, ['j/example.A.parse[size=10]'])), 1 / 3);
    assert.equal(share(selectBenchmarks(gbench, ['g/BM_Join/8'])), 1);
    const unknown = suite('  - name: u\n    run: ./bench > {output}\n    format: hyperfine\n');
    assert.match(
      selectBenchmarks(unknown, ['u/x']).run === null ? (selectBenchmarks(unknown, ['u/x']) as { why: string }).why : '',
      /cannot select benchmarks of format hyperfine; give the suite a filter:/,
    );
  });

  test("catch2: the suspects' test cases, once each, their spec syntax escaped, at most ten samples", () => {
    const catch2 = suite('  - name: c\n    run: ./bench -r xml -o {output}\n    format: catch2\n');
    const testCases = new Map([
      ['c/fib 10', 'Fibonacci'],
      ['c/fib 20', 'Fibonacci'],
      ['c/sum', 'Sums, [x] *2'],
    ]);
    assert.deepEqual(selectBenchmarks(catch2, ['c/fib 10', 'c/fib 20', 'c/sum'], testCases), {
      run: "./bench -r xml -o {output} 'Fibonacci,Sums\\, \\[x\\] \\*2' --benchmark-samples 10",
      how: "catch2's own selection (the suspects' test cases)",
      share: 10 / 100,
    });
    const fewer = suite('  - name: c\n    run: ./bench --benchmark-samples 5 -r xml -o {output}\n    format: catch2\n');
    assert.equal(selectBenchmarks(fewer, ['c/fib 10'], testCases).run, './bench --benchmark-samples 5 -r xml -o {output} Fibonacci', 'fewer samples stay');
  });

  test('filter: in perf-gate.yml needs {regex} or {names} outside quotes, and only on a run: suite', () => {
    assert.throws(() => suite('  - name: a\n    run: x\n    filter: -k x\n'), /suites\.0\.filter: expected \{regex\} or \{names\}/);
    assert.throws(() => suite("  - name: a\n    run: x\n    filter: -k '{names}'\n"), /placeholder \{names\} stands inside single quotes/);
    assert.throws(() => suite('  - name: a\n    commands:\n      x: "true"\n    filter: -k {names}\n'), /filter: is for a run: suite/);
  });
});

/** A Go package of 24 benchmarks, W01 … W24, plus sub-benchmarks whose names hold regex syntax and a space. */
function goPackage(): string {
  const dir = tempDir('pg-select-go-');
  writeFileSync(join(dir, 'go.mod'), 'module selectbench\n\ngo 1.21\n');
  const work = (i: number) => `func BenchmarkW${String(i).padStart(2, '0')}(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tsink += work(${i})\n\t}\n}\n`;
  writeFileSync(
    join(dir, 'w_test.go'),
    [
      'package selectbench\n\nimport "testing"\n\nvar sink int\n',
      'func work(n int) int {\n\ts := 0\n\tfor i := 0; i < 200+n; i++ {\n\t\ts += i * n\n\t}\n\treturn s\n}\n',
      ...Array.from({ length: 24 }, (_, i) => work(i + 1)),
      'func BenchmarkSub(b *testing.B) {\n\tfor _, name := range []string{"a+b (x)", "n=10", "[y]"} {\n\t\tb.Run(name, func(b *testing.B) {\n\t\t\tfor i := 0; i < b.N; i++ {\n\t\t\t\tsink += work(3)\n\t\t\t}\n\t\t})\n\t}\n}\n',
    ].join('\n'),
  );
  return dir;
}

describe('the real harnesses run exactly the named benchmarks', () => {
  test('go test -bench: one of 24, and two sub-benchmarks whose names hold regex syntax and a space, each once', () => {
    requireTool('go');
    const dir = goPackage();
    const go = suite("  - name: go\n    run: go test -run '^$' -bench . -benchtime 2000x -count 5\n    format: go-bench\n");
    const env = { ...process.env, GOFLAGS: '-mod=mod' };
    const one = runSelected(selectBenchmarks(go, ['go/BenchmarkW07']).run!, dir, 'go-bench', env);
    assert.deepEqual(one.ids, ['BenchmarkW07']);
    // No package named: the rounds run the compiled test binary, three repetitions a round in all.
    assert.deepEqual(one.samples, [3], "one suspect: three counts of the run line's five");
    const subs = runSelected(selectBenchmarks(go, ['go/BenchmarkSub/a+b_(x)', 'go/BenchmarkSub/[y]']).run!, dir, 'go-bench', env);
    assert.deepEqual(subs.ids, ['BenchmarkSub/[y]', 'BenchmarkSub/a+b_(x)']);
  });

  test('criterion: one of 24 benchmarks of one bench target, in a short round', () => {
    requireTool('cargo');
    const example = new URL('../../../examples/rust-criterion', import.meta.url).pathname;
    const dir = tempDir('pg-select-criterion-');
    cpSync(example, dir, { recursive: true, filter: (src) => !src.includes('/target') });
    mkdirSync(join(dir, 'benches'), { recursive: true });
    writeFileSync(
      join(dir, 'benches', 'many.rs'),
      [
        'use criterion::{black_box, criterion_group, criterion_main, Criterion};',
        'fn work(n: u64) -> u64 { (0..200 + n).fold(0, |s, i| s.wrapping_add(i * n)) }',
        'fn many(c: &mut Criterion) {',
        '    let mut g = c.benchmark_group("many");',
        '    for i in 1..=24u64 { g.bench_function(format!("w{:02}", i), |b| b.iter(|| work(black_box(i)))); }',
        '    g.bench_function("a+b (x)", |b| b.iter(|| work(black_box(3))));',
        '    g.finish();',
        '}',
        'criterion_group!(benches, many);',
        'criterion_main!(benches);',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'Cargo.toml'), `${readFileSync(join(dir, 'Cargo.toml'), 'utf8')}\n[[bench]]\nname = "many"\nharness = false\n`);
    // The example's target folder holds criterion already built: only the new bench compiles.
    const env = { ...process.env, CARGO_TARGET_DIR: join(example, 'target') };
    const c = suite('  - name: c\n    run: cargo criterion --bench many --message-format=json --plotting-backend disabled\n    format: cargo-criterion\n');
    const one = runSelected(`${selectBenchmarks(c, ['c/many/w07', 'c/many/a+b (x)']).run!} > {output}`, dir, 'cargo-criterion', env);
    assert.deepEqual(one.ids, ['many/a+b (x)', 'many/w07']);
    // A short round: 10 samples each, not criterion's 100.
    const complete = one.text
      .split('\n')
      .filter((l) => l.includes('"benchmark-complete"'))
      .map((l) => (JSON.parse(l) as { measured_values: number[] }).measured_values.length);
    assert.deepEqual(complete, [10, 10]);
    // The same selection through `cargo bench`, read from criterion's console report (progress lines merged in).
    const consoleSuite = suite('  - name: c\n    run: cargo bench --bench many\n    format: criterion-console\n');
    const printed = runSelected(`${selectBenchmarks(consoleSuite, ['c/many/w07', 'c/many/a+b (x)']).run!} > {output} 2>&1`, dir, 'criterion-console', env);
    assert.deepEqual(printed.ids, ['many/a+b (x)', 'many/w07']);
    assert.deepEqual(
      [...printed.text.matchAll(/Collecting (\d+) samples/g)].map((m) => m[1]),
      ['10', '10'],
    );
  });

  test('JMH: the include regex runs only the suspect, in one fork', () => {
    requireTool('java');
    const jar = new URL('../../../examples/java-jmh/target/benchmarks.jar', import.meta.url).pathname;
    const dir = tempDir('pg-select-jmh-');
    const j = suite(`  - name: j\n    run: java -jar ${jar} -f 2 -wi 1 -i 2 -w 100ms -r 100ms -rf json -rff {output}\n    format: jmh\n`);
    const all = execFileSync('java', ['-jar', jar, '-l'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => /^example\./.test(l.trim()))
      .map((l) => l.trim());
    assert.ok(all.length >= 4, all.join(', '));
    const picked = all[1]!;
    const run = selectBenchmarks(j, [`j/${picked}`]).run!;
    assert.match(run, / -f 1 /);
    const out = runSelected(run, dir, 'jmh');
    assert.ok(out.ids.length > 0 && out.ids.every((id) => id === picked || id.startsWith(`${picked}[`)), out.ids.join(', '));
    assert.match(out.text, /"forks"\s*:\s*1\b/);
  });
});

describe('divan and vitest bench select exactly the named benchmarks', () => {
  test('divan: --exact paths, an argument and a generic type among them', () => {
    requireTool('cargo');
    const example = new URL('../../../examples/rust-divan', import.meta.url).pathname;
    const dir = tempDir('pg-select-divan-');
    cpSync(example, dir, { recursive: true, filter: (src) => !src.includes('/target') });
    // The example's target folder holds the bench built already.
    const env = { ...process.env, CARGO_TARGET_DIR: join(example, 'target') };
    const d = suite('  - name: d\n    run: cargo bench --quiet --bench words -- --sample-count 5\n    format: divan\n');
    const selected = selectBenchmarks(d, ['d/words/bytes/1000', 'd/words/sum/u64', 'd/words/collect']);
    assert.equal(selected.run, 'cargo bench --quiet --bench words -- --sample-count 5 --exact words::bytes::1000 words::sum::u64 words::collect');
    const out = runSelected(selected.run!, dir, 'divan', env);
    assert.deepEqual(out.ids, ['words/bytes/1000', 'words/collect', 'words/sum/u64']);
  });

  test('vitest bench: -t with the describe blocks and names, of 22 benchmarks whose names hold regex syntax and spaces', () => {
    const vitest = new URL('../../../node_modules/.bin/vitest', import.meta.url).pathname;
    const dir = tempDir('pg-select-vitest-');
    writeFileSync(
      join(dir, 'many.bench.ts'),
      [
        "import { bench, describe } from 'vitest';",
        "describe('sort', () => {",
        '  for (let i = 1; i <= 20; i++) bench(`w${String(i).padStart(2, "0")}`, () => { [3, 1, 2].sort(); }, { time: 5, iterations: 3 });',
        "  bench('a+b (x)', () => { [3, 1, 2].sort(); }, { time: 5, iterations: 3 });",
        '});',
        "bench('top [y]', () => { [3, 1, 2].sort(); }, { time: 5, iterations: 3 });",
        '',
      ].join('\n'),
    );
    const v = suite(`  - name: v\n    run: ${vitest} bench --run --root . --outputJson {output}\n    format: vitest-bench\n`);
    const selected = selectBenchmarks(v, ['v/many.bench.ts > sort > w07', 'v/many.bench.ts > sort > a+b (x)', 'v/many.bench.ts > top [y]']);
    assert.equal(selected.run, `${vitest} bench --run --root . --outputJson {output} -t '^(?:sort w07|sort a\\+b \\(x\\)|top \\[y\\])$'`);
    const out = runSelected(selected.run!, dir, 'vitest-bench');
    assert.deepEqual(out.ids, ['many.bench.ts > sort > a+b (x)', 'many.bench.ts > sort > w07', 'many.bench.ts > top [y]']);
  });
});

describe("a suite's filter: against the real harness", () => {
  test('pytest-benchmark: the README filter ({names}, the node ids) runs exactly the two suspects of 22', () => {
    requireTool('python3');
    const dir = tempDir('pg-select-pytest-');
    writeFileSync(join(dir, 'pytest.ini'), '[pytest]\ntestpaths = benchmarks\n');
    mkdirSync(join(dir, 'benchmarks'));
    writeFileSync(
      join(dir, 'benchmarks', 'test_many.py'),
      [
        'import pytest',
        '',
        '@pytest.mark.parametrize("n", [f"w{i:02}" for i in range(1, 21)] + ["a+b (x)", "[y]"])',
        'def test_work(benchmark, n):',
        '    benchmark.pedantic(lambda: sum(range(100)), rounds=3, iterations=1)',
        '',
      ].join('\n'),
    );
    const py = suite(
      '  - name: py\n    run: python3 -m pytest -q -p no:cacheprovider --benchmark-json {output}\n    format: pytest-benchmark\n    filter: "{names}"\n',
    );
    const ids = ['py/benchmarks/test_many.py::test_work[w07]', 'py/benchmarks/test_many.py::test_work[a+b (x)]'];
    const selected = selectBenchmarks(py, ids);
    assert.equal(selected.run !== null && selected.how, 'its filter:');
    const out = runSelected(selected.run!, dir, 'pytest-benchmark');
    assert.deepEqual(out.ids, ['benchmarks/test_many.py::test_work[a+b (x)]', 'benchmarks/test_many.py::test_work[w07]']);
  });
});
