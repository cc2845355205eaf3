import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newResultSet, type BenchmarkResult } from '../../src/model/index.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

/** Zeros that no percentage can be taken of: a count that was 0, and a harness that clamped a time to 0 s. */
function compare(base: BenchmarkResult[], current: BenchmarkResult[]): ReturnType<typeof runCli> {
  const dir = tempDir('perf-gate-zeros-');
  writeFileSync(join(dir, 'base.json'), JSON.stringify(newResultSet('2026-11-20T00:00:00Z', base)));
  writeFileSync(join(dir, 'cur.json'), JSON.stringify(newResultSet('2026-11-20T00:00:00Z', current)));
  return runCli(['compare', '--baseline', 'base.json', '--current', 'cur.json', '--json', 'report.json'], dir).then((r) => ({
    ...r,
    stdout: `${r.stdout}\n${readFileSync(join(dir, 'report.json'), 'utf8')}`,
  }));
}

describe('zeros', () => {
  test('a count from 0 to 1 shows "from 0", not "Infinity %", and regresses', async () => {
    const count = (n: number): BenchmarkResult => ({
      id: 'alloc',
      status: 'ok',
      metrics: { allocations: { unit: 'count', direction: 'lower', exact: true, samples: [n, n, n] } },
    });
    const r = await compare([count(0)], [count(1)]);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /^alloc\s+allocations\s+.*\bfrom 0\s+.*regressed/m);
    assert.doesNotMatch(r.stdout, /Infinity/);
  });

  test('time samples of 0 s are flagged and not compared: no percentage against 0', async () => {
    const times = (values: number[]): BenchmarkResult => ({ id: 'tiny', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: values } } });
    const r = await compare([times([0, 0, 1e-9, 0, 0])], [times([2e-9, 3e-9, 2e-9, 2e-9, 3e-9])]);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('\n{') + 1)) as { rows: { status: string; change: number | null; reason: string }[] };
    assert.equal(report.rows[0]!.status, 'inconclusive');
    assert.equal(report.rows[0]!.change, null);
    assert.match(report.rows[0]!.reason, /4 time sample\(s\) of 0 s: the harness timed nothing .* give the benchmark more work per iteration/);
  });
});
