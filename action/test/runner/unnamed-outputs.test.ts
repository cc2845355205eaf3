import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('perf', 'strace');

interface Row {
  benchmark: string;
  metric: string;
  current: { n: number } | null;
}

/**
 * perf stat and strace never print the command they measured. Run by hand,
 * their benchmark is named after the output file; run by perf-gate, after the
 * suite, since the runner's file names change with every repeat and sweep
 * point (run.p1-n=1.r2.output): `repeat: 2` must give one benchmark per
 * point with both runs as samples, not one benchmark per file.
 */
test('perf stat and strace outputs under repeat and params are named after the suite, repeats as samples', async () => {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'perf-gate.yml'),
    `version: 1
suites:
  - name: counted
    run: perf stat -x, -e task-clock -o {output} -- sh -c 'i=0; while [ $i -lt "$PERF_GATE_PARAM_N" ]; do i=$((i+1)); done'
    format: perf-stat
    repeat: 2
    params: { n: [100, 200] }
  - name: traced
    run: strace -c -o {output} -- sh -c 'true'
    format: strace
    repeat: 2
`,
  );
  const run = await runCli(['run', '--config', 'perf-gate.yml', '--out', 'out', '--json', 'report.json'], dir, process.env);
  assert.equal(run.status, 0, run.stdout + run.stderr);
  const rows = (JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { rows: Row[] }).rows;
  const benchmarks = [...new Set(rows.map((r) => r.benchmark))].sort();
  assert.deepEqual(benchmarks, ['counted/counted[n=100]', 'counted/counted[n=200]', 'traced/traced']);
  for (const id of benchmarks) {
    const metric = id.startsWith('counted') ? 'task-clock' : 'syscalls';
    assert.equal(rows.find((r) => r.benchmark === id && r.metric === metric)?.current?.n, 2, `${id} ${metric}: both repeats are samples`);
  }
});
