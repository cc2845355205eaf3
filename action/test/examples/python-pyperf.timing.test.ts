import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultSet } from '../../src/model/index.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/compiled-harnesses.js';
import { configBody, readmePerfGateRuns } from '../support/example-readme.js';
import { readReport, rowOf } from '../support/json-report.js';
import { tempDir } from '../support/temp.js';
import { requirePython } from '../support/tools.js';

requirePython('pyperf');

const EXAMPLE = 'examples/python-pyperf';
const readme = readFileSync(join(ROOT, EXAMPLE, 'README.md'), 'utf8');

describe('examples/python-pyperf runs as its README says', () => {
  const root = tempDir('perf-gate-example-pyperf-');
  cpSync(join(ROOT, EXAMPLE), join(root, EXAMPLE), { recursive: true });
  const [base, head] = readmePerfGateRuns(readme);

  test('the README shows perf-gate.yml as it is', () => {
    assert.equal(/```yaml\n([\s\S]*?)```/.exec(readme)![1], configBody(join(ROOT, EXAMPLE, 'perf-gate.yml')));
  });

  test("one run: both benchmarks with pyperf's 30 values as samples and its settings as params", async () => {
    assert.deepEqual(base, { env: {}, args: ['run', '--config', `${EXAMPLE}/perf-gate.yml`, '--out', 'base-run'] });
    const run = await runCli([...base!.args, '--json', 'base.json'], root, { ...process.env });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const set = JSON.parse(readFileSync(join(root, 'base-run', 'results.json'), 'utf8')) as ResultSet;
    assert.deepEqual(set.benchmarks.map((b) => b.id).sort(), ['pyperf/count_words', 'pyperf/split']);
    for (const b of set.benchmarks) {
      assert.equal(b.metrics.time!.samples!.length, 30, b.id);
      assert.equal(b.params!.runs, '6');
      assert.equal(b.params!.values, '5');
      assert.equal(b.params!.warmups, '1');
    }
    assert.equal((rowOf(readReport(join(root, 'base.json')).rows, 'pyperf/count_words', 'time').budget as { result: string }).result, 'pass');
  });

  test('WORDFREQ_SLOW=1: count_words regresses against the first run, and the gate fails', async () => {
    assert.deepEqual(head, {
      env: { WORDFREQ_SLOW: '1' },
      args: ['run', '--config', `${EXAMPLE}/perf-gate.yml`, '--out', 'head-run', '--baseline', 'base-run/results.json'],
    });
    const run = await runCli([...head!.args, '--json', 'head.json'], root, { ...process.env, ...head!.env });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const { rows } = readReport(join(root, 'head.json'));
    // The terminal table says by how much and how sure, should a noisy machine move split.
    assert.equal(rowOf(rows, 'pyperf/count_words', 'time').status, 'regressed', run.stdout);
    assert.notEqual(rowOf(rows, 'pyperf/split', 'time').status, 'regressed', run.stdout);
  });
});
