import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultSet } from '../../src/model/index.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/compiled-harnesses.js';
import { configBody, readmePerfGateCommands } from '../support/example-readme.js';
import { readReport, rowOf } from '../support/json-report.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('cargo', 'patch');

const EXAMPLE = 'examples/rust-divan';
const readme = readFileSync(join(ROOT, EXAMPLE, 'README.md'), 'utf8');
const IDS = ['divan/words/bytes/10', 'divan/words/bytes/1000', 'divan/words/collect', 'divan/words/split_whitespace', 'divan/words/sum/u32', 'divan/words/sum/u64'];

describe('examples/rust-divan runs as its README says', () => {
  const root = tempDir('perf-gate-example-divan-');
  cpSync(join(ROOT, EXAMPLE), join(root, EXAMPLE), { recursive: true, filter: (path) => !path.includes('/target') });
  // `npm run setup` built divan there: only the example's own crate is compiled again.
  const env = { ...process.env, CARGO_TARGET_DIR: join(ROOT, EXAMPLE, 'target') };
  const [baseArgs, headArgs] = readmePerfGateCommands(readme);

  test('the README shows perf-gate.yml as it is', () => {
    assert.equal(/```yaml\n([\s\S]*?)```/.exec(readme)![1], configBody(join(ROOT, EXAMPLE, 'perf-gate.yml')));
  });

  test('one run: every benchmark of the tree, five medians each, counters and allocations within budget', async () => {
    assert.deepEqual(baseArgs, ['run', '--config', `${EXAMPLE}/perf-gate.yml`, '--out', 'base-run']);
    const run = await runCli([...baseArgs!, '--json', 'base.json'], root, env);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const set = JSON.parse(readFileSync(join(root, 'base-run', 'results.json'), 'utf8')) as ResultSet;
    assert.deepEqual(set.benchmarks.map((b) => b.id).sort(), IDS);
    for (const b of set.benchmarks) assert.equal(b.metrics.time!.samples!.length, 5, b.id);
    const collect = set.benchmarks.find((b) => b.id === 'divan/words/collect')!;
    assert.deepEqual(collect.metrics.allocs!.samples, [1, 1, 1, 1, 1]);
    const { rows } = readReport(join(root, 'base.json'));
    assert.equal(rowOf(rows, 'divan/words/bytes/1000', 'bytes_per_second').direction, 'higher');
    assert.equal((rowOf(rows, 'divan/words/collect', 'allocs').budget as { result: string }).result, 'pass');
  });

  test('the patch that collects twice: allocs regresses (exact) and its budget fails', async () => {
    runTool('sh', ['-c', `patch -p1 -d ${EXAMPLE} < ${EXAMPLE}/slower-head.patch`], { cwd: root });
    assert.deepEqual(headArgs, ['run', '--config', `${EXAMPLE}/perf-gate.yml`, '--out', 'head-run', '--baseline', 'base-run/results.json']);
    const run = await runCli([...headArgs!, '--json', 'head.json'], root, env);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const allocs = rowOf(readReport(join(root, 'head.json')).rows, 'divan/words/collect', 'allocs');
    assert.equal(allocs.status, 'regressed');
    assert.equal((allocs.budget as { result: string }).result, 'fail');
  });
});
