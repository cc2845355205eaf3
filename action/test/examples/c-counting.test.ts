import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultSet } from '../../src/model/index.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/compiled-harnesses.js';
import { readReport, rowOf } from '../support/json-report.js';
import { runTool } from '../support/system-tools.js';
import { configBody, readmePerfGateCommands } from '../support/example-readme.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('hyperfine', 'valgrind', 'cc', 'patch');

const readme = readFileSync(join(ROOT, 'examples/c-counting/README.md'), 'utf8');

describe('examples/c-counting runs as its README says', () => {
  // The example builds the sieve of examples/cli-hyperfine: copy both, so nothing lands in the repository.
  const root = tempDir('perf-gate-example-c-counting-');
  for (const name of ['c-counting', 'cli-hyperfine']) cpSync(join(ROOT, 'examples', name), join(root, 'examples', name), { recursive: true });
  const [baseArgs, headArgs] = readmePerfGateCommands(readme);

  test('the README shows perf-gate.yml as it is', () => {
    const config = configBody(join(ROOT, 'examples/c-counting/perf-gate.yml'));
    assert.equal(/```yaml\n([\s\S]*?)```/.exec(readme)![1], config);
  });

  test('one run: each command has its time and its counts, the counts identical across repeats, within the budget', async () => {
    assert.deepEqual(baseArgs, ['run', '--config', 'examples/c-counting/perf-gate.yml', '--out', 'base-run']);
    const run = await runCli([...baseArgs!, '--json', 'base.json'], root, { ...process.env });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const report = readReport(join(root, 'base.json'));
    for (const id of ['sieve/sieve 1M', 'sieve/sieve 4M']) {
      assert.equal(rowOf(report.rows, id, 'time').current!.n, 10);
      for (const metric of ['instructions', 'l1_misses', 'll_misses', 'estimated_cycles']) assert.equal(rowOf(report.rows, id, metric).current!.n, 3);
    }
    const set = JSON.parse(readFileSync(join(root, 'base-run', 'results.json'), 'utf8')) as ResultSet;
    const counted = set.benchmarks.find((b) => b.id === 'sieve/sieve 4M')!.metrics.instructions!.samples!;
    assert.equal(new Set(counted).size, 1, `three identical counts: ${counted.join(', ')}`);
    assert.ok(counted[0]! > 20e6 && counted[0]! < 100e6, `the 4M sieve: ${counted[0]} instructions, under the 100M budget`);
    assert.ok(rowOf(report.rows, 'sieve/sieve 4M', 'instructions').budget, 'the instruction budget applies');
  });

  test('the slower head: a few per cent more instructions, many times the last-level misses and estimated cycles; the gate fails', async () => {
    runTool('sh', ['-c', 'patch -p1 -d examples/cli-hyperfine < examples/cli-hyperfine/slower-head.patch'], { cwd: root });
    assert.deepEqual(headArgs, ['run', '--config', 'examples/c-counting/perf-gate.yml', '--out', 'head-run', '--baseline', 'base-run/results.json']);
    const run = await runCli([...headArgs!, '--json', 'head.json'], root, { ...process.env });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const rows = readReport(join(root, 'head.json')).rows as (ReturnType<typeof rowOf> & { change: number | null })[];
    const change = (metric: string): number => (rowOf(rows, 'sieve/sieve 4M', metric) as (typeof rows)[number]).change!;
    for (const metric of ['instructions', 'll_misses', 'estimated_cycles']) assert.equal(rowOf(rows, 'sieve/sieve 4M', metric).status, 'regressed', metric);
    // The same loops with wider stores: a few per cent more instructions; a 16 MB table that no longer fits the
    // simulated 8 MiB last-level cache: memory traffic, and with it the estimated cycles, many times more.
    assert.ok(change('instructions') > 0.01 && change('instructions') < 0.2, `instructions ${change('instructions')}`);
    assert.ok(change('ll_misses') > 10, `last-level misses ${change('ll_misses')}`);
    assert.ok(change('estimated_cycles') > 10 * change('instructions'), `estimated cycles ${change('estimated_cycles')}, instructions ${change('instructions')}`);
  });
});
