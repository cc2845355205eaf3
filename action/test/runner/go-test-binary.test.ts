import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePerfGateConfig, type SuiteConfig } from '../../src/config/perf-gate-config.js';
import { fileInput, parseInput } from '../../src/adapters/index.js';
import { compiledGoSuite } from '../../src/runner/go-test-binary.js';
import { selectBenchmarks } from '../../src/runner/select-benchmarks.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

/**
 * Go's rounds run the test binary each side compiles once (issue 36: a `go
 * test` start costs 0.33 s a round here, the binary 0.01 s). The compiled
 * form must run what `go test` ran: the same benchmarks, counts and flags,
 * in the package's folder.
 */

function suite(run: string, build: string | null = null): SuiteConfig {
  const yaml = `version: 1\nsuites:\n  - name: go\n    run: ${JSON.stringify(run)}\n    format: go-bench\n${build === null ? '' : `    build: ${JSON.stringify(build)}\n`}`;
  return parsePerfGateConfig(yaml, 'perf-gate.yml', '/repo').suites[0]!;
}

describe('Go rounds by the compiled test binary', () => {
  test('the flags go to the binary in their -test. form, build flags to go test -c, the package folder is where it runs', () => {
    const compiled = compiledGoSuite(
      suite("go test -tags fast -run '^$' -bench '^(?:BenchmarkW07)$' -benchmem -count=10 -benchtime 200ms ./sub", 'go generate ./...'),
    );
    assert.equal(compiled.build, `go generate ./... && mkdir -p "$PERF_GATE_BUILD_DIR" && go test -c -o "$PERF_GATE_BUILD_DIR/go-bench.test" -tags=fast ./sub`);
    assert.equal(
      compiled.run,
      `cd ./sub && "$PERF_GATE_BUILD_DIR/go-bench.test" -test.run='^$' -test.bench='^(?:BenchmarkW07)$' -test.benchmem -test.count=10 -test.benchtime=200ms`,
    );
    // No -run of its own: the package's tests are skipped, only benchmarks are measured.
    assert.equal(compiledGoSuite(suite('go test -bench . -count 3')).run, `"$PERF_GATE_BUILD_DIR/go-bench.test" -test.run='^$' -test.bench=. -test.count=3`);
    // A build that is not one command is kept whole before the compile.
    assert.match(compiledGoSuite(suite('go test -bench .', 'make a; make b')).build!, /^\(make a; make b\) && mkdir -p /);
  });

  test('what it cannot repeat exactly keeps go test: several packages, ./..., an import path, -json, an unknown flag, a template, a pipe', () => {
    for (const run of [
      'go test -bench . ./a ./b',
      'go test -bench . ./...',
      'go test -bench . example.com/pkg',
      'go test -json -bench .',
      'go test -bench . -exec wrapper',
      'go test -bench . -benchtime {n}x',
      'go test -bench . | tee {output}',
      'GOMAXPROCS=1 go test -bench .',
      'go test -bench',
    ]) {
      const s = suite(run);
      assert.equal(compiledGoSuite(s), s, run);
    }
  });

  test('real go: the compiled binary runs exactly the narrowed benchmarks, with the counts asked for, in the package folder', () => {
    requireTool('go');
    const dir = tempDir('pg-go-binary-');
    writeFileSync(join(dir, 'go.mod'), 'module binbench\n\ngo 1.21\n');
    mkdirSync(join(dir, 'sub'));
    // The benchmarks read a file relative to the package folder, as go test runs them.
    writeFileSync(join(dir, 'sub', 'data.txt'), 'x');
    const bench = (name: string) => `func Benchmark${name}(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tsink += len(name)\n\t}\n}\n`;
    writeFileSync(
      join(dir, 'sub', 'w_test.go'),
      [
        'package sub\n\nimport (\n\t"os"\n\t"testing"\n)\n\nvar sink int\nvar name = "x"\n',
        'func TestMain(m *testing.M) {\n\tif _, err := os.Stat("data.txt"); err != nil {\n\t\tpanic(err)\n\t}\n\tos.Exit(m.Run())\n}\n',
        'func TestFails(t *testing.T) { t.Fatal("the package tests must not run in a round") }\n',
        ...['W01', 'W02', 'W07'].map(bench),
        'func BenchmarkSub(b *testing.B) {\n\tfor _, n := range []string{"a+b (x)", "n=10"} {\n\t\tb.Run(n, func(b *testing.B) {\n\t\t\tfor i := 0; i < b.N; i++ {\n\t\t\t\tsink++\n\t\t\t}\n\t\t})\n\t}\n}\n',
      ].join('\n'),
    );
    const original = suite('go test -bench . -benchtime 100x -count 4 ./sub');
    const narrowed = selectBenchmarks(original, ['go/BenchmarkW07', 'go/BenchmarkSub/a+b_(x)']);
    // Mixed depths select by their top level: W07 and Sub (both of its sub-benchmarks).
    const compiled = compiledGoSuite({ ...original, run: narrowed.run! });
    const env = { ...process.env, GOFLAGS: '-mod=mod', PERF_GATE_BUILD_DIR: join(dir, 'out', 'build-head') };
    execFileSync('bash', ['-c', compiled.build!], { cwd: dir, env, stdio: 'pipe' });
    const text = execFileSync('bash', ['-c', compiled.run], { cwd: dir, env, encoding: 'utf8' });
    const rows = parseInput(fileInput(join(dir, 'round.output'), text), 'go-bench');
    assert.deepEqual(rows.map((r) => r.id).sort(), ['BenchmarkSub/a+b_(x)', 'BenchmarkSub/n=10', 'BenchmarkW07'], text);
    // Two suspects by the compiled binary: ⌊3 / 2⌋ repetitions each.
    assert.deepEqual(
      rows.map((r) => Object.values(r.metrics)[0]!.samples?.length),
      [1, 1, 1],
    );
    assert.doesNotMatch(text, /go test|TestFails/);
  });
});
