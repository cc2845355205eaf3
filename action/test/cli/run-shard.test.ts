import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('hyperfine');

const dir = tempDir();

test('a shard compares only its own suites with the stored baselines of every shard', async () => {
  const suite = (name: string) =>
    `  - name: ${name}\n    run: hyperfine --style none --runs 3 --export-json {output} --command-name t 'true'\n    format: hyperfine\n`;
  writeFileSync(join(dir, 'perf-gate.yml'), `version: 1\nsuites:\n${suite('sa')}${suite('sb')}`);
  mkdirSync(join(dir, 'budgets'));
  // missing: fail makes the bug visible: the other shard's benchmarks are not in this run.
  writeFileSync(join(dir, 'budgets', 'b.yml'), 'version: 1\ndefaults:\n  missing: fail\n  regression: 1000%\n');
  for (const shard of ['1/2', '2/2']) {
    const stored = await runCli(['run', '--config', 'perf-gate.yml', '--shard', shard, '--mode', 'main', '--out', `out-${shard[0]}`], dir, process.env);
    assert.equal(stored.status, 0, stored.stdout + stored.stderr);
  }
  assert.deepEqual(readdirSync(join(dir, 'baselines')).sort(), ['results.shard-1-of-2.json', 'results.shard-2-of-2.json']);
  const again = await runCli(['run', '--config', 'perf-gate.yml', '--shard', '1/2', '--out', 'out-again', '--json', 'report.json'], dir, process.env);
  assert.equal(again.status, 0, again.stdout);
  assert.doesNotMatch(again.stdout, /sb\/t/);
  assert.match(again.stdout, /sa\/t/);
});
