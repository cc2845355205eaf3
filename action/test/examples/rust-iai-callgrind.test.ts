import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultSet } from '../../src/model/index.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/compiled-harnesses.js';
import { readReport, rowOf, type ReportRow } from '../support/json-report.js';
import { runTool } from '../support/system-tools.js';
import { configBody, readmePerfGateCommands } from '../support/example-readme.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('cargo', 'valgrind', 'iai-callgrind-runner', 'patch');

const EXAMPLE = 'examples/rust-iai-callgrind';
const readme = readFileSync(join(ROOT, EXAMPLE, 'README.md'), 'utf8');
const COUNTS = ['instructions', 'l1_hits', 'll_hits', 'ram_hits', 'total_read_write', 'estimated_cycles'];
const IDS = ['sums/counts::sums::sum short:make_input(100)', 'sums/counts::sums::sum long:make_input(10_000)'];

/** How the instruction budget of a benchmark's row came out. */
function budgetResult(rows: ReportRow[], id: string): string | undefined {
  return (rowOf(rows, id, 'instructions').budget as { result?: string } | null)?.result;
}

describe('examples/rust-iai-callgrind runs as its README says', () => {
  const root = tempDir('perf-gate-example-iai-callgrind-');
  cpSync(join(ROOT, EXAMPLE), join(root, EXAMPLE), { recursive: true, filter: (path) => !path.includes('/target') });
  // `npm run setup` built the benches' dependencies there: only the example's own crate is compiled again.
  const env = { ...process.env, CARGO_TARGET_DIR: join(ROOT, EXAMPLE, 'target') };
  const [baseArgs, headArgs] = readmePerfGateCommands(readme);

  test('the README shows perf-gate.yml as it is', () => {
    const config = configBody(join(ROOT, EXAMPLE, 'perf-gate.yml'));
    assert.equal(/```yaml\n([\s\S]*?)```/.exec(readme)![1], config);
  });

  test('one run: both benchmarks with iai-callgrind\'s six counts, exact, within the budget', async () => {
    assert.deepEqual(baseArgs, ['run', '--config', `${EXAMPLE}/perf-gate.yml`, '--out', 'base-run']);
    const run = await runCli([...baseArgs!, '--json', 'base.json'], root, env);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const set = JSON.parse(readFileSync(join(root, 'base-run', 'results.json'), 'utf8')) as ResultSet;
    assert.deepEqual(set.benchmarks.map((b) => b.id), IDS);
    for (const b of set.benchmarks) {
      assert.deepEqual(Object.keys(b.metrics), COUNTS, b.id);
      for (const m of Object.values(b.metrics)) assert.equal(m.exact, true);
    }
    const [short, long] = set.benchmarks.map((b) => b.metrics.instructions!.value!);
    // 100 times the numbers, roughly 100 times the work (a few hundred instructions of call overhead aside).
    assert.ok(long! / short! > 100 && long! / short! < 400, `short ${short}, long ${long}`);
    assert.ok(long! < 1e6, `the long sum: ${long} instructions, under the one-million budget`);
    assert.equal(budgetResult(readReport(join(root, 'base.json')).rows, IDS[1]!), 'pass');
  });

  test('the slower head: every count regresses and the instruction budget fails', async () => {
    runTool('sh', ['-c', `patch -p1 -d ${EXAMPLE} < ${EXAMPLE}/slower-head.patch`], { cwd: root });
    assert.deepEqual(headArgs, ['run', '--config', `${EXAMPLE}/perf-gate.yml`, '--out', 'head-run', '--baseline', 'base-run/results.json']);
    const run = await runCli([...headArgs!, '--json', 'head.json'], root, env);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const { rows } = readReport(join(root, 'head.json'));
    for (const id of IDS) {
      for (const metric of ['instructions', 'l1_hits', 'total_read_write', 'estimated_cycles']) assert.equal(rowOf(rows, id, metric).status, 'regressed', `${id} ${metric}`);
    }
    assert.equal(budgetResult(rows, IDS[1]!), 'fail');
  });
});
