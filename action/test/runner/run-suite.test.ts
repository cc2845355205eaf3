import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePerfGateConfig, type SuiteConfig } from '../../src/config/perf-gate-config.js';
import { parseOutputFile } from '../../src/pipeline/output-parser.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import type { RunnerContext } from '../../src/runner/invoke.js';
import { logProgress } from '../../src/runner/progress.js';
import { runSuites } from '../../src/runner/run-suite.js';
import { processSpawner } from '../../src/runner/spawn.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

function requireHyperfine(): void {
  requireTool('hyperfine');
}

function suitesOf(yaml: string, dir: string): SuiteConfig[] {
  return [...parsePerfGateConfig(`version: 1\nsuites:\n${yaml}`, 'perf-gate.yml', dir).suites];
}

function context(dir: string, env: Record<string, string> = {}): { ctx: RunnerContext; log: () => string } {
  let text = '';
  const ctx: RunnerContext = {
    spawner: processSpawner(),
    parse: parseOutputFile,
    outDir: join(dir, 'out'),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    progress: logProgress({ githubActions: env.GITHUB_ACTIONS === 'true', write: (t) => void (text += t), clock: () => performance.now() }),
  };
  return { ctx, log: () => text };
}

function byId(rows: readonly BenchmarkResult[]): Map<string, BenchmarkResult> {
  return new Map(rows.map((r) => [r.id, r]));
}

/** True when the process no longer runs (absent, or a zombie waiting for a reaper that may not exist in a container). */
function isGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return /^\d+ \(.*\) Z/.test(stat);
  } catch {
    return true;
  }
}

const HF = 'hyperfine --style none --runs 3 --export-json {output}';

describe('running suites with real processes and real hyperfine', () => {
  requireHyperfine();

  test('a crash, a timeout and garbage output become failed rows while the other suites still run', async () => {
    const dir = tempDir('pg-run-');
    const suites = suitesOf(
      `  - name: first
    run: ${HF} -N 'sleep 0.01'
    format: hyperfine
  - name: crash
    build: echo building
    run: echo "about to crash" >&2; exit 3
  - name: slow
    run: (sleep 30; touch "${dir}/survivor") & echo $! > "${dir}/child.pid"; sleep 30
    timeout: 1s
  - name: garbage
    run: echo 'this is not json {' > {output}
    format: hyperfine
  - name: last
    run: ${HF} 'true'
    format: auto
`,
      dir,
    );
    const expected: BenchmarkResult[] = [
      { id: 'crash/a', suite: 'crash', status: 'ok', metrics: {} },
      { id: 'crash/b', suite: 'crash', status: 'ok', metrics: {} },
      { id: 'other/a', suite: 'other', status: 'ok', metrics: {} },
    ];
    const { ctx, log } = context(dir);
    const started = performance.now();
    const rows = byId(await runSuites(suites, ctx, expected));
    const seconds = (performance.now() - started) / 1000;

    const first = rows.get('first/sleep 0.01');
    assert.equal(first?.status, 'ok');
    assert.equal(first?.suite, 'first');
    assert.equal(first?.metrics.time?.samples?.length, 3);
    // Seconds, not milliseconds: at least the 10 ms slept (-N: no shell start-up subtracted), and under
    // 5 s even on a virtual machine that stalls for hundreds of milliseconds.
    assert.ok(
      first!.metrics.time!.samples!.every((t) => t >= 0.009 && t < 5),
      `sleep 0.01 measured in seconds: ${first!.metrics.time!.samples!.join(', ')}`,
    );
    assert.equal(rows.get('last/true')?.status, 'ok', 'the suite after the failures still ran');

    // The crashed suite: one failed row per expected benchmark, with exit code and log tail.
    for (const id of ['crash/a', 'crash/b']) {
      const row = rows.get(id);
      assert.equal(row?.status, 'failed');
      assert.equal(row?.error?.exitCode, 3);
      assert.equal(row?.error?.message, 'run exited with code 3');
      assert.match(row?.error?.logTail ?? '', /about to crash/);
    }
    assert.equal(rows.has('crash'), false, 'no extra suite row when expected rows carry the failure');
    assert.equal(rows.has('other/a'), false, "another suite's expected benchmarks are not touched");

    const slow = rows.get('slow');
    assert.equal(slow?.status, 'failed');
    assert.match(slow?.error?.message ?? '', /timed out after 1 s; its process group was killed/);
    assert.equal(slow?.error?.signal, 'SIGTERM');
    const childPid = Number(readFileSync(join(dir, 'child.pid'), 'utf8'));
    assert.ok(isGone(childPid), 'the background child of the timed-out suite was killed too');
    assert.ok(seconds < 20, `the timeout stopped the 30 s suite (the whole run took ${seconds.toFixed(1)} s)`);

    const garbage = rows.get('garbage');
    assert.equal(garbage?.status, 'failed');
    assert.equal(garbage?.error?.exitCode, 0);
    assert.match(garbage?.error?.message ?? '', /^unusable output: .*garbage[/]run\.output/);

    // Logs and outputs are kept per suite for the artifact; progress says where we are.
    assert.match(readFileSync(join(dir, 'out', 'crash', 'build.log'), 'utf8'), /building/);
    assert.match(readFileSync(join(dir, 'out', 'crash', 'run.log'), 'utf8'), /about to crash/);
    assert.ok(existsSync(join(dir, 'out', 'first', 'run.output')));
    assert.match(log(), /=== suite first \(1 of 5, elapsed \d+s, time left unknown\) ===/);
    assert.match(log(), /=== suite last \(5 of 5, elapsed \d+s, about \d+s left\) ===/);
    assert.ok(!existsSync(join(dir, 'survivor')));
  });

  test('hyperfine cut short by a failing later command: the measured benchmark is kept, the absent ones are failed', async () => {
    const dir = tempDir('pg-cut-');
    const suites = suitesOf(`  - name: cut\n    run: ${HF} 'sleep 0.001' 'exit 3' 'sleep 0.002'\n    format: hyperfine\n`, dir);
    const expected: BenchmarkResult[] = ['cut/sleep 0.001', 'cut/exit 3', 'cut/sleep 0.002'].map((id) => ({ id, suite: 'cut', status: 'ok', metrics: {} }));
    const { ctx } = context(dir);
    const rows = byId(await runSuites(suites, ctx, expected));
    assert.deepEqual(
      [...rows.entries()].map(([id, r]) => [id, r.status]),
      [
        ['cut/sleep 0.001', 'ok'],
        ['cut/exit 3', 'failed'],
        ['cut/sleep 0.002', 'failed'],
      ],
    );
    assert.equal(rows.get('cut/exit 3')?.error?.message, 'run exited with code 1');
    assert.match(rows.get('cut/exit 3')?.error?.logTail ?? '', /non-zero exit code: 3/);
    // Without a baseline the non-zero exit still shows, as one row named after the suite.
    const alone = byId(await runSuites(suites, context(tempDir('pg-cut2-')).ctx, []));
    assert.deepEqual(
      [...alone.entries()].map(([id, r]) => [id, r.status]),
      [
        ['cut/sleep 0.001', 'ok'],
        ['cut', 'failed'],
      ],
    );
  });

  test('a sweep runs once per point, records params, and a crash at one point fails only that point', async () => {
    const dir = tempDir('pg-sweep-');
    const suites = suitesOf(
      `  - name: sweep
    run: test {n} != 2 || { echo "point two broke" >&2; exit 7; }; ${HF} sleep\\ 0.00{n}
    format: hyperfine
    params:
      n: [1, 2, 3]
`,
      dir,
    );
    const { ctx, log } = context(dir, { GITHUB_ACTIONS: 'true' });
    const rows = byId(await runSuites(suites, ctx, []));
    assert.deepEqual([...rows.keys()], ['sweep/sleep 0.001[n=1]', 'sweep[n=2]', 'sweep/sleep 0.003[n=3]']);
    assert.deepEqual(rows.get('sweep/sleep 0.001[n=1]')?.params, { n: '1' });
    assert.equal(rows.get('sweep/sleep 0.003[n=3]')?.status, 'ok');
    const failed = rows.get('sweep[n=2]');
    assert.equal(failed?.status, 'failed');
    assert.deepEqual(failed?.params, { n: '2' });
    assert.equal(failed?.error?.exitCode, 7);
    assert.match(failed?.error?.logTail ?? '', /point two broke/);
    assert.ok(existsSync(join(dir, 'out', 'sweep', 'run.p2-n=2.log')));
    assert.match(log(), /^::group::suite sweep \(1 of 1, elapsed 0s, time left unknown\)$/m);
    assert.match(log(), /^::endgroup::$/m);
  });

  test('placeholders are substituted as single shell words and also given as environment variables', async () => {
    const dir = tempDir('pg-quote-');
    const suites = suitesOf(
      `  - name: quoting
    run: printf '%s|' {word} "$PERF_GATE_PARAM_WORD" > "${dir}"/seen-{i}; ${HF} true
    format: hyperfine
    params:
      word: ["two words", "$(touch pwned)", "it's"]
      i: [x]
`,
      dir,
    );
    const { ctx } = context(dir);
    const rows = await runSuites(suites, ctx, []);
    assert.equal(rows.filter((r) => r.status === 'ok').length, 3);
    assert.equal(readFileSync(join(dir, 'seen-x'), 'utf8'), "it's|it's|", 'the last point wrote the file');
    assert.equal(existsSync(join(dir, 'pwned')), false, 'a parameter value never runs as code');
    assert.ok(rows.some((r) => r.id === 'quoting/true[word=$(touch pwned),i=x]'));
  });

  test('repeat concatenates the samples of several harness invocations; a failed build fails the suite', async () => {
    const dir = tempDir('pg-repeat-');
    const suites = suitesOf(
      `  - name: twice
    run: ${HF} true
    repeat: 2
  - name: unbuildable
    build: 'echo "cc: error" >&2; false'
    run: ${HF} true
`,
      dir,
    );
    const { ctx } = context(dir);
    const rows = byId(await runSuites(suites, ctx, []));
    assert.equal(rows.get('twice/true')?.metrics.time?.samples?.length, 6);
    assert.equal(rows.get('twice/true')?.metrics.time?.summary, undefined, 'the per-invocation summary is dropped, not mixed');
    const broken = rows.get('unbuildable');
    assert.equal(broken?.status, 'failed');
    assert.equal(broken?.error?.message, 'build exited with code 1');
    assert.match(broken?.error?.logTail ?? '', /cc: error/);
    assert.equal(existsSync(join(dir, 'out', 'unbuildable', 'run.log')), false, 'run is not attempted after a failed build');
  });
});
