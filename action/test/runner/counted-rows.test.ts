import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decide } from '../../src/gate/index.js';
import { EMPTY_BUDGETS, newResultSet } from '../../src/model/index.js';
import { countedBenchmark } from '../../src/runner/counted-rows.js';
import type { CountedRun } from '../../src/runner/counter.js';
import { cachegrindTool } from '../../src/runner/cachegrind-tool.js';
import { perfTool } from '../../src/runner/perf-tool.js';
import { tempDir } from '../support/temp.js';

const FIXTURE = new URL('../fixtures/perf-stat/counter-u', import.meta.url).pathname;

/** A finished run of `./work` whose folder holds `perf-stat.csv` with these contents (or the fixture's). */
function run(repeat: number, csv?: string): CountedRun {
  const dir = join(tempDir('perf-gate-counted-'), String(repeat));
  cpSync(FIXTURE, dir, { recursive: true });
  if (csv !== undefined) writeFileSync(join(dir, 'perf-stat.csv'), csv);
  return { command: './work', repeat, exitCode: 0, signal: null, timedOut: false, stderrTail: '', pid: 1, dir };
}

describe('counter: perf rows from perf stat files', () => {
  test('counted events become metrics (the repeats their samples); an event perf could not count is unavailable, not zero', () => {
    const row = countedBenchmark('./work', [run(0), run(1)], 2, perfTool, 'prog/work');
    assert.equal(row.status, 'ok');
    assert.deepEqual(Object.keys(row.metrics), ['instructions', 'cycles', 'branches']);
    assert.deepEqual(row.metrics.instructions!.samples, [30131234, 30131234]);
    assert.equal(row.metrics.instructions!.exact, true);
    assert.equal(row.metrics.branches!.exact, true);
    assert.equal(row.metrics.cycles!.exact, undefined, 'cycles move with the machine: tested, not taken as exact');
    assert.deepEqual(row.unavailable, { branch_misses: '<not counted>' });
    // The gate lists what was not measured, so a missing count is never a silent pass.
    const report = decide(newResultSet('2026-11-25T00:00:00Z', [row]), newResultSet('2026-11-25T00:00:00Z', [row]), EMPTY_BUDGETS);
    assert.deepEqual(
      report.warnings.find((w) => w.code === 'unavailable-metrics'),
      { code: 'unavailable-metrics', benchmark: 'prog/work', metrics: [{ metric: 'branch_misses', why: '<not counted>' }] },
    );
  });

  test('nothing counted (no PMU) is a failed row with the fix', () => {
    const noPmu =
      '<not supported>,,instructions:u,0,100.00,,\n<not supported>,,cycles:u,0,100.00,,\n<not supported>,,branches:u,0,100.00,,\n<not supported>,,branch-misses:u,0,100.00,,\n';
    const row = countedBenchmark('./work', [run(0, noPmu)], 1, perfTool, 'prog/work');
    assert.equal(row.status, 'failed');
    assert.match(
      row.error!.message,
      /^counts not measured: perf counted none of its events here \(instructions <not supported>, cycles <not supported>, branches <not supported>, branch_misses <not supported>\): .*sysctl -w kernel.perf_event_paranoid=2.*counter: cachegrind/,
    );
    assert.deepEqual(row.metrics, {});
  });

  test('a truncated perf stat file is a failed row naming the file and line', () => {
    const row = countedBenchmark('./work', [run(0, '30131234,,instructions:u,70142\n')], 1, perfTool, 'prog/work');
    assert.equal(row.status, 'failed');
    assert.match(row.error!.message, /^its perf output is unusable: .*perf-stat\.csv:1: expected perf stat -x, \(or -x;\) lines/);
  });
});

describe('counter: cachegrind rows from cachegrind files', () => {
  const capture = readFileSync(new URL('../fixtures/cachegrind/busy-cachesim.cachegrind.out', import.meta.url), 'utf8');

  /** A finished run whose child process (pid 2; valgrind started pid 1) left this cachegrind file. */
  function grindRun(text: string): CountedRun {
    const dir = tempDir('perf-gate-counted-');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'cachegrind.out.2'), text);
    return { command: './busy', repeat: 0, exitCode: 0, signal: null, timedOut: false, stderrTail: '', pid: 1, dir };
  }

  test('a whole capture counts', () => {
    const row = countedBenchmark('./busy', [grindRun(capture)], 1, cachegrindTool, 'prog/busy');
    assert.equal(row.status, 'ok');
    assert.ok(row.metrics.instructions!.samples![0]! > 0);
  });

  test('a capture cut before its summary is a failed row naming the file, never a missing one', () => {
    const row = countedBenchmark('./busy', [grindRun(capture.slice(0, capture.indexOf('summary:')))], 1, cachegrindTool, 'prog/busy');
    assert.equal(row.status, 'failed');
    assert.match(row.error!.message, /^its cachegrind output is unusable: .*cachegrind\.out\.2/);
    assert.deepEqual(row.metrics, {});
  });
});
