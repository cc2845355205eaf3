import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultSet } from '../../src/model/index.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

/**
 * A suite read with marker-lines keeps one id whatever file the runner names
 * per repeat and sweep point (run.r2.output, run.p1-n=100.output): the repeats
 * of one point are one benchmark with their samples concatenated, and a sweep
 * point only adds its `[n=100]` suffix.
 */
test('marker-lines ids do not depend on output file names: repeats concatenate, sweep points add their suffix', async () => {
  const dir = tempDir('pg-markers-');
  writeFileSync(
    join(dir, 'perf-gate.yml'),
    `version: 1
suites:
  - name: m
    # Each invocation prints the next count: 1 ms, 2 ms, 3 ms.
    run: 'echo x >> calls; echo "P99_MS: $(wc -l < calls)" > {output}'
    repeat: 3
    format:
      name: marker-lines
      markers:
        - { pattern: '^P99_MS: (\\S+)$', metric: latency_p99, unit: ms }
  - name: sweep
    run: 'echo P99_MS: {n} > {output}'
    params: { n: [100, 200] }
    format:
      name: marker-lines
      markers:
        - { pattern: '^P99_MS: (\\S+)$', metric: latency_p99, unit: ms }
  - name: named
    run: 'echo P99_MS: 7 > {output}'
    format:
      name: marker-lines
      benchmark: cluster
      markers:
        - { pattern: '^P99_MS: (\\S+)$', metric: latency_p99, unit: ms }
`,
  );
  const result = await runCli(['run', '--config', 'perf-gate.yml', '--out', 'out'], dir);
  assert.equal(result.status, 0, result.stdout + result.stderr);
  const set = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as ResultSet;
  assert.deepEqual(
    set.benchmarks.map((b) => b.id),
    ['m/m', 'sweep/sweep[n=100]', 'sweep/sweep[n=200]', 'named/cluster'],
  );
  const repeated = set.benchmarks[0]!.metrics.latency_p99!;
  assert.deepEqual(
    repeated.samples?.map((s) => Math.round(s * 1e6) / 1e6),
    [0.001, 0.002, 0.003],
  );
  assert.deepEqual(
    set.benchmarks.slice(1, 3).map((b) => b.params),
    [{ n: '100' }, { n: '200' }],
  );
});
