import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { EXAMPLES } from '../support/compiled-harnesses.js';
import { readReport, rowOf, type ReportRow } from '../support/json-report.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('go', 'cargo', 'cargo-criterion', 'mvn', 'java');

/**
 * The examples as a user runs them: `perf-gate run --config examples/<name>/perf-gate.yml`
 * builds, runs the real harness, reads its output and checks the budgets. The harnesses
 * come from `npm run setup` (scripts/install/).
 */
describe('examples/go, examples/rust-criterion and examples/java-jmh pass their own gate', () => {
  const dir = tempDir('perf-gate-examples-');

  async function run(name: string, cwd: string): Promise<{ verdict: string; rows: ReportRow[] }> {
    const json = join(dir, `${name}.json`);
    const result = await runCli(['run', '--config', join(cwd, 'perf-gate.yml'), '--out', join(dir, name), '--json', json], cwd, { ...process.env });
    assert.equal(result.status, 0, result.stdout + result.stderr);
    return readReport(json);
  }

  test('go: -count 10 samples, byte rate higher is better, allocations within budget', async () => {
    const { verdict, rows } = await run('go', EXAMPLES.go);
    assert.equal(verdict, 'pass');
    const rate = rowOf(rows, 'go/BenchmarkSum/n=1000', 'bytes_per_second');
    assert.equal(rate.direction, 'higher');
    assert.equal(rate.current!.n, 10);
    assert.ok(rate.budget, 'the bytes_per_second budget applies');
    assert.equal(rowOf(rows, 'go/BenchmarkJoin', 'allocs').current!.value, 6);
  });

  test('rust-criterion: cargo-criterion samples, time and byte throughput budgets', async () => {
    const { verdict, rows } = await run('rust-criterion', EXAMPLES.rustCriterion);
    assert.equal(verdict, 'pass');
    const rate = rowOf(rows, 'parse/sum/bytes/1000', 'bytes_per_second');
    assert.equal(rate.direction, 'higher');
    assert.equal(rate.current!.n, 20);
    assert.ok(rate.budget);
    assert.equal(rowOf(rows, 'parse/sum/split/1000', 'time').unit, 's');
  });

  test('java-jmh: thrpt is higher-is-better, -prof gc allocation budget applies', async () => {
    const { verdict, rows } = await run('java-jmh', EXAMPLES.javaJmh);
    assert.equal(verdict, 'pass');
    const thrpt = rowOf(rows, 'jmh/example.jmh.JoinBench.builder[size=10]', 'throughput');
    assert.equal(thrpt.direction, 'higher');
    assert.equal(thrpt.unit, '1/s');
    assert.equal(thrpt.current!.n, 10);
    assert.ok(thrpt.budget);
    const norm = rowOf(rows, 'jmh/example.jmh.JoinBench.join[size=100]', 'gc.alloc.rate.norm');
    assert.equal(norm.unit, 'B');
    assert.ok(norm.budget);
  });
});
