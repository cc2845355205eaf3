import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonReport, JsonRow } from '../../src/report/json.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';
import { isUndecided, measureUntilDecided } from '../support/undecided.js';

/**
 * The two-stage verdict end to end, on real git, a real compiler and real
 * hyperfine: a main branch recorded in a history folder, then pull requests
 * screened against it and their suspects measured again interleaved against
 * the main commit.
 */
requireTool('hyperfine', 'git', 'cc', 'valgrind');

const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };

/** Commits dated before the runs: the test's clock (runCli's) stands at 2026-11-21, and a history ignores runs older than their commit. */
const DATED = { ...process.env, GIT_AUTHOR_DATE: '2026-11-20T12:00:00Z', GIT_COMMITTER_DATE: '2026-11-20T12:00:00Z' };

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: DATED }).trim();
}

/** The loop of every benchmark: `./busy N` runs N steps; `slowAt` plants a slowdown of `factor` for one N only. */
function busySource(slowAt?: { n: number; factor: number }): string {
  const plant = slowAt ? `  if (n == ${slowAt.n}UL) n = n * ${slowAt.factor * 100}UL / 100UL;\n` : '';
  return `#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000000UL;
${plant}  volatile unsigned long x = 1;
  for (unsigned long i = 0; i < n; i++) x = x * 6364136223846793005UL + 1442695040888963407UL;
  printf("%lu\\n", (unsigned long)x);
  return 0;
}
`;
}

const CONFIG = `version: 1
history: history
ab:
  seed: 3
suites:
  - name: work
    build: cc -O2 -o busy busy.c
    commands:
      a: ./busy 4000000
      b: ./busy 6000000
      c: ./busy 5000000
    runs: 10
    timeout: 2m
`;

function readReport(dir: string): JsonReport {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JsonReport;
}

function rowOf(report: JsonReport, benchmark: string): JsonRow {
  const row = report.rows.find((r) => r.benchmark === benchmark && r.metric === 'time');
  assert.ok(row, `no row ${benchmark}: ${report.rows.map((r) => r.benchmark).join(', ')}`);
  return row;
}

/** A branch off main with `change` applied and committed. */
function branch(repo: string, name: string, change: () => void): void {
  git(repo, 'checkout', '--quiet', '-B', name, 'main');
  change();
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', name);
}

describe('a pull request fails only on a confirmed regression (real git, cc and hyperfine)', () => {
  const repo = tempDir('pg-two-stage-');
  const mainRun = join(repo, 'main-run');

  before(async () => {
    git(repo, 'init', '--quiet', '--initial-branch=main');
    git(repo, 'config', 'user.email', 'test@example.invalid');
    git(repo, 'config', 'user.name', 'perf-gate test');
    writeFileSync(join(repo, 'perf-gate.yml'), CONFIG);
    writeFileSync(join(repo, 'busy.c'), busySource());
    writeFileSync(join(repo, '.gitignore'), 'busy\nhistory/\nout/\nmain-run/\n*.json\n*.md\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '--quiet', '-m', 'main');
    // Six runs of main: enough history for the screen to learn this machine's drift (five is the minimum).
    for (let i = 0; i < 6; i++) {
      // Each run of main is gated against the one before (one stage, as mode main is): noise may fail it; it is stored all the same.
      const r = await runCli(['run', '--mode', 'main', '--out', 'out'], repo, ENV);
      assert.match(r.stdout, /baseline written to/, r.stdout + r.stderr);
    }
    const r = await runCli(['run', '--out', 'main-run'], repo, ENV);
    assert.ok(r.status <= 1, r.stdout + r.stderr);
  });

  test('A/A: nothing fails, every row says which stage decided it, and the report says what each stage cost', async () => {
    branch(repo, 'docs-only', () => writeFileSync(join(repo, 'README'), 'docs only\n'));
    const r = await runCli(['run', '--json', 'report.json', '--markdown', 'report.md', '--out', 'out'], repo, ENV);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const report = readReport(repo);
    assert.equal(report.verdict, 'pass');
    assert.ok(report.stages, 'the report has the two stages');
    assert.equal(report.stages.screen.rows, 3);
    assert.equal(report.stages.screen.driftRuns, 6);
    assert.ok(report.stages.screen.seconds > 0);
    assert.equal(report.stages.confirm.base, git(repo, 'rev-parse', 'main'));
    // Whatever the screen suspected went to the second stage, and only those rows.
    const suspects = report.rows.filter((row) => row.stage?.by === 'interleaved');
    assert.equal(suspects.length, report.stages.screen.suspects);
    assert.equal(report.stages.confirm.seconds > 0, suspects.length > 0);
    for (const row of report.rows) {
      assert.ok(row.stage, `${row.benchmark} has a stage`);
      assert.notEqual(row.status, 'regressed', JSON.stringify(row));
      // A cleared row is unchanged only when its interval's slower end lies inside the tolerance.
      if (row.stage.by === 'screen' && row.status === 'unchanged') assert.ok(row.ci![1] < 0.05, JSON.stringify(row));
    }
    const markdown = readFileSync(join(repo, 'report.md'), 'utf8');
    assert.match(markdown, /Screen: 3 rows against the stored baseline, with the drift of 6 runs of history/);
    assert.match(markdown, /Confirmation: (not needed|interleaved against [0-9a-f]{7})/);
  });

  test('a slowdown planted in one of three benchmarks: the screen suspects it, interleaved rounds confirm it, the gate fails, the comment shows both stages', async () => {
    const { r, report } = await measureUntilDecided(
      async () => {
        branch(repo, 'slow-b', () => writeFileSync(join(repo, 'busy.c'), busySource({ n: 6_000_000, factor: 2 })));
        const r = await runCli(['run', '--json', 'report.json', '--markdown', 'report.md', '--out', 'out'], repo, ENV);
        return { r, report: readReport(repo) };
      },
      ({ report }) => isUndecided(rowOf(report, 'work/b')),
    );
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const b = rowOf(report, 'work/b');
    assert.equal(b.status, 'regressed', JSON.stringify(b));
    assert.ok(b.flags.includes('paired') && b.flags.includes('confirmed'), b.flags.join(','));
    assert.equal(b.stage?.by, 'interleaved');
    assert.ok(b.stage.by === 'interleaved' && b.stage.screen.change! > 0.3 && b.stage.rounds >= 10, JSON.stringify(b.stage));
    assert.ok(report.stages!.confirm.suites.some((s) => s.suite === 'work' && s.rows.includes('work/b time')));
    // Only the suspect commands were measured again, not the whole suite.
    const again = JSON.parse(readFileSync(join(repo, 'out', 'confirm', 'results.json'), 'utf8')) as { benchmarks: { id: string }[] };
    assert.deepEqual(
      again.benchmarks.map((x) => x.id).sort(),
      report.rows
        .filter((row) => row.stage?.by === 'interleaved')
        .map((row) => row.benchmark)
        .sort(),
    );
    assert.ok(report.stages!.confirm.seconds > 0);
    const markdown = readFileSync(join(repo, 'report.md'), 'utf8');
    assert.match(markdown, /decided by \d+ interleaved rounds \(screen: \+\d/);
    // The rows measured again are named; a noisy one the screen sent on beside work/b may be among them.
    assert.match(markdown, /Confirmation: interleaved against [0-9a-f]{7}: work \(\d+ rounds, then \d+ fresh to confirm, for [^)]*\bwork\/b time\b[^)]*\)/);
  });

  test('a base that does not build: the suspect is suspected, with the reason; it fails only with --fail-on suspected', async () => {
    branch(repo, 'needs-extra', () => {
      writeFileSync(join(repo, 'busy.c'), busySource({ n: 6_000_000, factor: 2 }));
      writeFileSync(join(repo, 'extra.c'), 'int extra(void) { return 1; }\n');
      writeFileSync(join(repo, 'perf-gate.yml'), CONFIG.replace('cc -O2 -o busy busy.c', 'cc -O2 -o busy busy.c extra.c'));
    });
    const r = await runCli(['run', '--json', 'report.json', '--out', 'out'], repo, ENV);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const b = rowOf(readReport(repo), 'work/b');
    assert.equal(b.status, 'suspected', JSON.stringify(b));
    assert.equal(b.failsGate, false);
    assert.ok(b.stage?.by === 'screen' && b.stage.suspect && b.stage.unconfirmed.code === 'base-failed', JSON.stringify(b.stage));
    assert.match(b.stage.text, /not confirmed: the base commit [0-9a-f]{7} did not build or run \(build \(base\) exited with code 1\)/);
    assert.match(r.stdout, /suspected \(screen: \+\d/);
    const strict = await runCli(['run', '--json', 'report.json', '--out', 'out', '--fail-on', 'suspected'], repo, ENV);
    assert.equal(strict.status, 1, strict.stdout + strict.stderr);
    assert.equal(rowOf(readReport(repo), 'work/b').failsGate, true);
  });

  test('a shallow clone: the base commit is not there; suspected, with the fix in words (fetch-depth: 0)', async () => {
    branch(repo, 'slow-again', () => writeFileSync(join(repo, 'busy.c'), busySource({ n: 6_000_000, factor: 2 })));
    const shallow = join(tempDir('pg-two-stage-shallow-'), 'clone');
    execFileSync('git', ['clone', '--quiet', '--depth', '1', '--branch', 'slow-again', `file://${repo}`, shallow], { stdio: 'pipe' });
    const r = await runCli(
      ['run', '--baseline', join(mainRun, 'results.json'), '--confirm', 'interleaved', '--json', 'report.json', '--out', 'out'],
      shallow,
      ENV,
    );
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const report = readReport(shallow);
    const b = rowOf(report, 'work/b');
    assert.equal(b.status, 'suspected', JSON.stringify(b));
    assert.ok(b.stage?.by === 'screen' && b.stage.suspect && b.stage.unconfirmed.code === 'base-not-in-checkout');
    assert.match(b.stage.text, /is not in the checkout \(a shallow clone\); check out with fetch-depth: 0/);
    assert.match(report.stages!.text.join('\n'), /Not confirmed: the base commit [0-9a-f]{7} is not in the checkout/);
    assert.equal(git(shallow, 'worktree', 'list').split('\n').length, 1, 'no worktree was left behind');
    // With the history itself, a shallow clone cannot even find its merge base's run: the message says why and how to fix it.
    cpSync(join(repo, 'history'), join(shallow, 'history'), { recursive: true });
    const fromHistory = await runCli(['run', '--out', 'out'], shallow, ENV);
    assert.match(fromHistory.stdout, /no baseline in .*history: .*\(this checkout is a shallow clone, .*check out with fetch-depth: 0\); budgets only/);
  });

  test('--confirm off: the comparison decides alone, as a run of one stage', async () => {
    git(repo, 'checkout', '--quiet', 'slow-b');
    const r = await runCli(['run', '--confirm', 'off', '--json', 'report.json', '--out', 'out'], repo, ENV);
    const report = readReport(repo);
    assert.equal(report.stages, undefined);
    assert.ok(report.rows.every((row) => row.stage === undefined));
    assert.ok(r.status <= 1, r.stdout + r.stderr);
  });
});

describe('run --ab counts each side as a plain run does (real cachegrind)', () => {
  test('a [time, counts] suite with 1 % more work: the counts regress, exit 1', async () => {
    const repo = tempDir('pg-ab-counts-');
    git(repo, 'init', '--quiet', '--initial-branch=main');
    git(repo, 'config', 'user.email', 'test@example.invalid');
    git(repo, 'config', 'user.name', 'perf-gate test');
    writeFileSync(
      join(repo, 'perf-gate.yml'),
      `version: 1
ab:
  rounds: 10
  max-rounds: 10
suites:
  - name: work
    build: cc -O2 -o busy busy.c
    commands:
      loop: ./busy 2000000
    measure: [time, counts]
    runs: 3
    count-repeat: 1
`,
    );
    writeFileSync(join(repo, 'busy.c'), busySource());
    writeFileSync(join(repo, '.gitignore'), 'busy\nout/\n*.json\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '--quiet', '-m', 'base');
    git(repo, 'tag', 'base');
    writeFileSync(join(repo, 'busy.c'), busySource({ n: 2_000_000, factor: 1.01 }));
    git(repo, 'commit', '--quiet', '-am', '1 % more work');
    const r = await runCli(['run', '--ab', 'base', '--json', 'report.json', '--out', 'out'], repo, ENV);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const report = readReport(repo);
    const instructions = report.rows.find((row) => row.benchmark === 'work/loop' && row.metric === 'instructions');
    assert.ok(instructions, `rows: ${report.rows.map((row) => `${row.benchmark} ${row.metric}`).join(', ')}`);
    assert.equal(instructions.status, 'regressed', JSON.stringify(instructions));
    assert.ok(instructions.flags.includes('exact'));
    // About +1 % of the loop's instructions (the program's start-up adds a few).
    assert.ok(instructions.change! > 0.005 && instructions.change! < 0.011, `change ${instructions.change}`);
    assert.ok(report.rows.some((row) => row.benchmark === 'work/loop' && row.metric === 'time' && row.flags.includes('paired')));
    assert.doesNotMatch(r.stdout + r.stderr, /counts are not measured/);
  });
});
