import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileInput } from '../../src/adapters/index.js';
import { resultSetAdapter } from '../../src/adapters/result-set.js';
import { cachegrindAdapter } from '../../src/adapters/cachegrind.js';
import type { GateReport } from '../../src/gate/index.js';
import type { BenchmarkResult } from '../../src/model/index.js';
import { runCli } from '../support/cli.js';
import { busyLoopSource } from '../support/programs.js';
import { compileC, runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('valgrind', 'gcc');

function readSet(path: string): BenchmarkResult[] {
  return resultSetAdapter.parse(fileInput(path, readFileSync(path, 'utf8')));
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: readonly number[]): number => (Math.max(...xs) - Math.min(...xs)) / median(xs);

describe('perf-gate count on two builds of a C program, one doing 1 % more work', () => {
  const dir = tempDir();
  // Two checkouts of one program: the command (and so the benchmark id) is the same, the work differs.
  const base = join(dir, 'base');
  const pr = join(dir, 'pr');
  let a: BenchmarkResult;
  let b: BenchmarkResult;

  before(async () => {
    mkdirSync(base);
    mkdirSync(pr);
    compileC(base, 'work', busyLoopSource(1_000_000), '-O2');
    compileC(pr, 'work', busyLoopSource(1_010_000), '-O2');
    for (const [cwd, out] of [
      [base, '../a.json'],
      [pr, '../b.json'],
    ] as const) {
      const r = await runCli(['count', '--repeat', '3', '--export-json', out, '--command', './work'], cwd, process.env);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /perf-gate count: "\.\/work": [\d,]+ instructions \(3 repeats, spread/);
    }
    a = readSet(join(dir, 'a.json'))[0]!;
    b = readSet(join(dir, 'b.json'))[0]!;
  });

  test('one benchmark named by the command, three samples per counter, exact lower-is-better counts', () => {
    for (const r of [a, b]) {
      assert.equal(r.id, './work');
      assert.equal(r.status, 'ok');
      assert.deepEqual(Object.keys(r.metrics).sort(), ['estimated_cycles', 'instructions', 'l1_misses', 'll_misses']);
      for (const m of Object.values(r.metrics)) {
        assert.equal(m.samples!.length, 3);
        assert.equal(m.exact, true);
        assert.equal(m.direction, 'lower');
      }
    }
  });

  test('the 1 % more work shows as ~1 % more instructions and estimated cycles; repeats move far less', () => {
    const ia = a.metrics.instructions!.samples!;
    const ib = b.metrics.instructions!.samples!;
    const change = median(ib) / median(ia) - 1;
    // The loop is ~7 instructions an iteration beside ~0.1 M of start-up, so a little under 1 %.
    assert.ok(change > 0.008 && change < 0.0105, `instructions changed by ${(change * 100).toFixed(3)} %`);
    const cycles = median(b.metrics.estimated_cycles!.samples!) / median(a.metrics.estimated_cycles!.samples!) - 1;
    assert.ok(cycles > 0.005 && cycles < 0.0105, `estimated cycles changed by ${(cycles * 100).toFixed(3)} %`);
    for (const xs of [ia, ib]) assert.ok(spread(xs) < 0.0005, `repeat spread ${(spread(xs) * 100).toFixed(4)} % of ${xs.join(', ')}`);
  });

  test("the counts are the program's, not the wrapper shell's", () => {
    // The program alone under cachegrind: the count must be it (give or take the environment), not it plus
    // the dash wrapper's ~200k instructions (~3 % here).
    const out = join(dir, 'direct.cachegrind');
    runTool('valgrind', ['-q', '--tool=cachegrind', '--cache-sim=yes', `--cachegrind-out-file=${out}`, './work'], { cwd: base, timeoutMs: 120_000 });
    const [direct] = cachegrindAdapter.parse(fileInput(out, readFileSync(out, 'utf8')));
    const alone = direct!.metrics.instructions!.value!;
    const counted = median(a.metrics.instructions!.samples!);
    assert.ok(Math.abs(counted / alone - 1) < 0.005, `counted ${counted}, the program alone ${alone}`);
  });

  test('compare at the 0.5 % count default flags the 1 % as regressed on instructions; swapped, improved; a tolerance of 2 % lets it pass', async () => {
    mkdirSync(join(dir, 'loose'));
    writeFileSync(join(dir, 'loose', 'counts.yml'), 'version: 1\ndefaults:\n  count-regression: 2%\n');
    const row = (report: GateReport, metric: string) => report.rows.find((r) => r.benchmark === './work' && r.metric === metric)!;

    const worse = await runCli(['compare', '--baseline', 'a.json', '--current', 'b.json', '--json', 'worse.json'], dir);
    assert.equal(worse.status, 1, worse.stdout + worse.stderr);
    const report = JSON.parse(readFileSync(join(dir, 'worse.json'), 'utf8')) as GateReport;
    assert.equal(row(report, 'instructions').status, 'regressed');
    assert.ok(row(report, 'instructions').flags.includes('exact'));
    assert.equal(row(report, 'estimated_cycles').status, 'regressed');

    const better = await runCli(['compare', '--baseline', 'b.json', '--current', 'a.json', '--json', 'better.json'], dir);
    assert.equal(better.status, 0, better.stdout + better.stderr);
    assert.equal(row(JSON.parse(readFileSync(join(dir, 'better.json'), 'utf8')) as GateReport, 'instructions').status, 'improved');

    const loose = await runCli(['compare', '--baseline', 'a.json', '--current', 'b.json', '--budgets', 'loose', '--json', 'loose.json'], dir);
    assert.equal(loose.status, 0, loose.stdout + loose.stderr);
    assert.equal(row(JSON.parse(readFileSync(join(dir, 'loose.json'), 'utf8')) as GateReport, 'instructions').status, 'unchanged');
  });
});

describe('perf-gate count failures', () => {
  const dir = tempDir();

  test('a command exiting non-zero is a failed row with its exit status and stderr tail; exit 1', async () => {
    const r = await runCli(['count', '--export-json', 'fail.json', '--command', 'echo broke on purpose >&2; exit 3'], dir, process.env);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /"echo broke on purpose >&2; exit 3" exited with code 3 under valgrind \(repeat 1 of 3\)/);
    const [row] = readSet(join(dir, 'fail.json'));
    assert.equal(row!.id, 'echo broke on purpose >&2; exit 3');
    assert.equal(row!.status, 'failed');
    assert.equal(row!.error!.exitCode, 3);
    assert.match(row!.error!.logTail!, /broke on purpose/);
  });

  test('a run over the time limit is killed with everything it started, and is a failed row', async () => {
    const started = performance.now();
    const r = await runCli(['count', '--repeat', '2', '--timeout', '1s', '--export-json', 'slow.json', '--command', 'sleep 30'], dir, process.env);
    assert.equal(r.status, 1);
    assert.ok(performance.now() - started < 20_000, 'the 30 s sleep was not waited for');
    const [row] = readSet(join(dir, 'slow.json'));
    assert.equal(row!.status, 'failed');
    assert.match(row!.error!.message, /timed out under valgrind \(repeat 1 of 2\)/);
  });

  test('a command running only shell builtins is a failed row saying nothing was counted', async () => {
    const r = await runCli(['count', '--repeat', '1', '--export-json', 'builtin.json', '--command', 'true'], dir, process.env);
    assert.equal(r.status, 1);
    const [row] = readSet(join(dir, 'builtin.json'));
    assert.equal(row!.status, 'failed');
    assert.match(row!.error!.message, /started no program/);
  });

  test('without valgrind: exit 2 naming the package to install', async () => {
    const r = await runCli(['count', '--export-json', 'none.json', '--command', 'true'], dir, { PATH: join(dir, 'empty-path') });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /valgrind: perf-gate count runs commands under valgrind's cachegrind, and valgrind is not on PATH.*install the valgrind package/);
  });

  test('--name names each command, as hyperfine -n does, so a renamed command keeps its id', async () => {
    const r = await runCli(
      ['count', '--repeat', '1', '--export-json', 'named.json', '--command', 'ls /', 'ls /usr', '--name', 'list-root', 'list-usr'],
      dir,
      process.env,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(
      readSet(join(dir, 'named.json')).map((b) => [b.id, b.status]),
      [
        ['list-root', 'ok'],
        ['list-usr', 'ok'],
      ],
    );
    assert.match(r.stdout, /perf-gate count: "list-root": [\d,]+ instructions/);
  });

  test('bad flags are usage errors (exit 2)', async () => {
    for (const args of [
      ['--export-json', 'x.json'],
      ['--command', 'true'],
      ['--repeat', '0', '--export-json', 'x', '--command', 'true'],
      ['--timeout', 'soon', '--export-json', 'x', '--command', 'true'],
      ['--export-json', 'x', '--command', 'a', 'b', '--name', 'one'],
      ['--export-json', 'x', '--command', 'a', 'b', '--name', 'n', 'n'],
    ]) {
      const r = await runCli(['count', ...args], dir, process.env);
      assert.equal(r.status, 2, args.join(' '));
    }
  });
});
