import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateReport } from '../../src/gate/index.js';
import type { ResultSet } from '../../src/model/index.js';
import { runCli } from '../support/cli.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';
import { probePerfCounters } from '../../src/runner/perf-tool.js';

requireTool('hyperfine', 'valgrind', 'gcc', 'perf');

/**
 * A fixed amount of work (the busy loop), then a sleep of `sleepMs`: the same
 * instructions whatever the sleep, so only the wall time differs.
 */
function workThenSleep(sleepMs: number): string {
  return `#include <stdio.h>
#include <time.h>
int main(void) {
  volatile unsigned long x = 1;
  for (unsigned long i = 0; i < 5000000UL; i++) x = x * 6364136223846793005UL + 1442695040888963407UL;
  struct timespec t = { 0, ${sleepMs}L * 1000000L };
  nanosleep(&t, 0);
  printf("%lu\\n", (unsigned long)x);
  return 0;
}
`;
}

function config(commands: string, extra = ''): string {
  return `version: 1
suites:
  - name: prog
    build: gcc -O2 -o work work.c
    commands:
${commands}
    measure: [time, counts]
    runs: 10
    warmup: 1
    count-repeat: 2
${extra}`;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

describe('a commands: suite measured both ways: time and counts of each command in one row', () => {
  const dir = tempDir();
  const base = join(dir, 'base');
  const slow = join(dir, 'slow');
  let baseRun: { status: number; stdout: string; stderr: string };
  let slowRun: { status: number; stdout: string; stderr: string };

  before(async () => {
    for (const [folder, sleepMs] of [
      [base, 0],
      [slow, 40],
    ] as const) {
      mkdirSync(folder);
      writeFileSync(join(folder, 'work.c'), workThenSleep(sleepMs));
      writeFileSync(join(folder, 'perf-gate.yml'), config('      work: ./work'));
    }
    baseRun = await runCli(['run', '--config', 'perf-gate.yml', '--out', 'out', '--json', 'report.json'], base, process.env);
    // The same program sleeping 40 ms more, against the first run as its baseline.
    slowRun = await runCli(
      ['run', '--config', 'perf-gate.yml', '--out', 'out', '--json', 'report.json', '--baseline', join(base, 'out', 'results.json')],
      slow,
      process.env,
    );
  });

  test("one benchmark per command, named <suite>/<name>, with hyperfine's time samples and the counted repeats", () => {
    assert.equal(baseRun.status, 0, baseRun.stdout + baseRun.stderr);
    const set = readJson<ResultSet>(join(base, 'out', 'results.json'));
    assert.deepEqual(
      set.benchmarks.map((b) => b.id),
      ['prog/work'],
    );
    const { metrics } = set.benchmarks[0]!;
    assert.deepEqual(Object.keys(metrics).sort(), ['estimated_cycles', 'instructions', 'l1_misses', 'll_misses', 'time']);
    assert.equal(metrics.time!.samples!.length, 10);
    assert.equal(metrics.time!.unit, 's');
    assert.equal(metrics.instructions!.samples!.length, 2);
    assert.equal(metrics.instructions!.exact, true);
    // The busy loop alone is tens of millions of instructions.
    assert.ok(metrics.instructions!.samples![0]! > 20_000_000, String(metrics.instructions!.samples));
    // cachegrind's files stay in the suite's output folder, for cg_annotate.
    const counts = join(base, 'out', 'prog', 'counts');
    assert.ok(readdirSync(counts, { recursive: true }).some((f) => /cachegrind\.out\.\d+$/.test(String(f))));
    assert.match(baseRun.stdout + baseRun.stderr, /counts: ok, 1 command\(s\) × 2 under valgrind/);
  });

  test('sleeping longer: time regresses, the counts stay unchanged, and the report shows both', () => {
    assert.equal(slowRun.status, 1, slowRun.stdout + slowRun.stderr);
    const report = readJson<GateReport>(join(slow, 'report.json'));
    const status = Object.fromEntries(report.rows.map((r) => [r.metric, r.status]));
    assert.equal(status.time, 'regressed');
    assert.equal(status.instructions, 'unchanged');
    assert.equal(status.estimated_cycles, 'unchanged');
    const instructions = report.rows.find((r) => r.metric === 'instructions')!;
    assert.equal(instructions.tolerance, 0.005, 'counts are gated at the tight count default');
    assert.ok(Math.abs(instructions.change!) < 0.001, `instructions changed by ${instructions.change}`);
  });
});

describe('a commands: suite: failures are rows', () => {
  const dir = tempDir();

  before(() => {
    writeFileSync(join(dir, 'work.c'), workThenSleep(0));
    // Exits 3 under valgrind only: valgrind preloads its core into every process it runs.
    writeFileSync(
      join(dir, 'fussy.sh'),
      '#!/bin/sh\ncase "$LD_PRELOAD" in *vgpreload*) echo "refusing to run under valgrind" >&2; exit 3;; esac\nexec ./work\n',
      { mode: 0o755 },
    );
  });

  test('a command that fails only under valgrind is a failed row saying so, its time kept', async () => {
    writeFileSync(join(dir, 'perf-gate.yml'), config('      fine: ./work\n      fussy: ./fussy.sh'));
    const r = await runCli(['run', '--config', 'perf-gate.yml', '--out', 'out-fussy', '--json', 'fussy.json'], dir, process.env);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const set = readJson<ResultSet>(join(dir, 'out-fussy', 'results.json'));
    const fussy = set.benchmarks.find((b) => b.id === 'prog/fussy')!;
    assert.equal(fussy.status, 'failed');
    assert.match(fussy.error!.message, /^counted: exited with code 3 under valgrind \(repeat 1 of 2\)$/);
    assert.match(fussy.error!.logTail ?? '', /refusing to run under valgrind/);
    assert.equal(fussy.metrics.time!.samples!.length, 10, 'the timed runs, which succeeded, are kept');
    assert.equal(set.benchmarks.find((b) => b.id === 'prog/fine')!.status, 'ok');
    const report = readJson<GateReport>(join(dir, 'fussy.json'));
    assert.ok(report.rows.some((row) => row.benchmark === 'prog/fussy' && row.status === 'failed'));
  });

  test('a crashing command fails its row under both', async () => {
    writeFileSync(join(dir, 'perf-gate.yml'), config('      fine: ./work\n      crash: ./work && kill -SEGV $$'));
    const r = await runCli(['run', '--config', 'perf-gate.yml', '--out', 'out-crash'], dir, process.env);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const crash = readJson<ResultSet>(join(dir, 'out-crash', 'results.json')).benchmarks.find((b) => b.id === 'prog/crash')!;
    assert.equal(crash.status, 'failed');
    assert.match(crash.error!.message, /^timed: exited with code 139 in 10 of 10 runs \(128 \+ signal 11\); counted: was killed by SIGSEGV under valgrind/);
  });

  test('without valgrind every counted row fails naming the package; time is still measured', async () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    for (const tool of ['bash', 'sh', 'hyperfine', 'gcc', 'as', 'ld', 'collect2', 'cc1']) {
      const found = runTool('sh', ['-c', `command -v ${tool} || true`]).stdout.trim();
      if (found && !existsSync(join(bin, tool))) symlinkSync(found, join(bin, tool));
    }
    writeFileSync(join(dir, 'perf-gate.yml'), config('      fine: ./work').replace('    build: gcc -O2 -o work work.c\n', ''));
    runTool('gcc', ['-O2', '-o', join(dir, 'work'), join(dir, 'work.c')]);
    const r = await runCli(['run', '--config', 'perf-gate.yml', '--out', 'out-none'], dir, { PATH: bin });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const fine = readJson<ResultSet>(join(dir, 'out-none', 'results.json')).benchmarks[0]!;
    assert.equal(fine.status, 'failed');
    assert.match(
      fine.error!.message,
      /^counted: counts not measured: "counter: cachegrind" runs each command under valgrind, and valgrind is not on PATH .*install the valgrind package/,
    );
    assert.equal(fine.metrics.time!.samples!.length, 10);
    // One benchmark failed, said once: not once per counted metric.
    assert.match(r.stdout, /✗ FAIL — 1 benchmark failed\b/);
    assert.equal(r.stdout.match(/^ {2}prog\/fine: counted: counts not measured/gm)?.length, 1, r.stdout);
  });
});

describe("counter: perf: the CPU's own counters through perf stat", () => {
  const dir = tempDir();
  // What this machine's perf can count decides which outcome is right: a VM without a virtual PMU counts nothing.
  const probe = probePerfCounters(process.env);

  before(() => {
    writeFileSync(join(dir, 'work.c'), workThenSleep(0));
    writeFileSync(join(dir, 'perf-gate.yml'), config('      work: ./work').replace('    count-repeat: 2\n', '    count-repeat: 2\n    counter: perf\n'));
  });

  test('perf stat counts each command; where it cannot, every counted row fails naming the fix, never a zero', async () => {
    assert.ok(probe, 'perf runs here');
    const r = await runCli(['run', '--config', 'perf-gate.yml', '--out', 'out', '--json', 'report.json'], dir, process.env);
    const work = readJson<ResultSet>(join(dir, 'out', 'results.json')).benchmarks[0]!;
    assert.equal(work.metrics.time!.samples!.length, 10, 'time is measured either way');
    assert.ok(
      readdirSync(join(dir, 'out', 'prog', 'counts'), { recursive: true }).some((f) => String(f).endsWith('perf-stat.csv')),
      "perf stat's files are kept",
    );
    if (probe.counted.includes('instructions:u')) {
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.equal(work.metrics.instructions!.samples!.length, 2);
      assert.ok(work.metrics.instructions!.samples![0]! > 20_000_000, String(work.metrics.instructions!.samples));
    } else {
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.equal(work.status, 'failed');
      assert.match(
        work.error!.message,
        /^counted: counts not measured: perf counted none of its events here \(instructions <not supported>, cycles <not supported>, .*\): the CPU or VM exposes no hardware counters .*use "counter: cachegrind"/,
      );
      assert.equal(work.metrics.instructions, undefined, 'no count is recorded as zero');
    }
  });

  test('without perf every counted row fails naming the package', async () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    for (const tool of ['bash', 'sh', 'hyperfine']) symlinkSync(runTool('sh', ['-c', `command -v ${tool}`]).stdout.trim(), join(bin, tool));
    runTool('gcc', ['-O2', '-o', join(dir, 'work'), join(dir, 'work.c')]);
    writeFileSync(join(dir, 'no-perf.yml'), readFileSync(join(dir, 'perf-gate.yml'), 'utf8').replace('    build: gcc -O2 -o work work.c\n', ''));
    const r = await runCli(['run', '--config', 'no-perf.yml', '--out', 'out-none'], dir, { PATH: bin });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const work = readJson<ResultSet>(join(dir, 'out-none', 'results.json')).benchmarks[0]!;
    assert.match(
      work.error!.message,
      /^counted: counts not measured: "counter: perf" runs each command under perf stat, and perf is not on PATH .*apt-get install linux-perf/,
    );
    assert.equal(work.metrics.time!.samples!.length, 10);
  });
});
