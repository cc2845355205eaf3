import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileBusyLoop } from '../support/programs.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import type { ResultSet } from '../../src/model/index.js';
import { requireTool } from '../support/tools.js';

requireTool('hyperfine', 'cc');

const dir = tempDir();

test('derived metrics from perf-gate.yml are computed per sample in the run, with their unit and direction', async () => {
  const busy = compileBusyLoop(dir);
  writeFileSync(
    join(dir, 'perf-gate.yml'),
    `version: 1
derived:
  loops_per_sec: { expr: "20000000 / time", unit: 1/s, direction: higher }
suites:
  - name: loop
    run: hyperfine -N --style none --runs 5 --export-json {output} --command-name twenty-million '${busy} 20000000'
    format: hyperfine
`,
  );
  const result = await runCli(['run', '--config', 'perf-gate.yml', '--out', 'out', '--json', 'report.json'], dir);
  assert.equal(result.status, 0, result.stdout + result.stderr);
  const set = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as ResultSet;
  // -N (no shell): hyperfine then subtracts no shell start-up time, so no run is clamped to 0 s.
  const bench = set.benchmarks.find((b) => b.id === 'loop/twenty-million')!;
  const time = bench.metrics.time!.samples!;
  const rate = bench.metrics.loops_per_sec!;
  assert.equal(rate.unit, '1/s');
  assert.equal(rate.direction, 'higher');
  assert.equal(rate.samples!.length, time.length);
  rate.samples!.forEach((r, i) => assert.ok(Math.abs(r - 20_000_000 / time[i]!) <= 1e-9 * r));
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { rows: { metric: string }[] };
  assert.ok(report.rows.some((r) => r.metric === 'loops_per_sec'));
});
