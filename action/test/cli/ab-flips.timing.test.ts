import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { FLIP_C } from '../support/programs.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('git', 'cc');

/**
 * Benchmarks that flip, end to end: `perf-gate run --ab` with its default
 * rounds, on a real program that draws its level per process (FLIP_C: 50 %
 * more work in the slow level), built at the base commit in a worktree and
 * in the checkout. The head draws the slow level far more often than the
 * base (70 % of runs against 30 %); read as one distribution that is a
 * slowdown of about 20 %, and each round's median of five processes is in
 * the slow level in 84 % of the head's rounds against 16 % of the base's.
 * Only the head whose code does 10 % more work is a regression.
 */
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/** FLIP_C with its defaults set: the share of runs in the slow level and the work's scale. */
function flipSource(slowShare: number, scale: number): string {
  return FLIP_C.replace('atof(argv[1]) : 0.5', `atof(argv[1]) : ${slowShare}`).replace('atof(argv[2]) : 1.0', `atof(argv[2]) : ${scale}`);
}

/** A repository whose `base` commit draws the slow level in 30 % of runs; the checkout's head in 70 %, its work scaled by `scale`. */
function flipRepository(scale: number): string {
  const dir = tempDir('pg-ab-flips-');
  git(dir, 'init', '--quiet', '--initial-branch=main');
  git(dir, 'config', 'user.email', 'test@example.invalid');
  git(dir, 'config', 'user.name', 'perf-gate test');
  writeFileSync(
    join(dir, 'perf-gate.yml'),
    'version: 1\nsuites:\n  - name: flips\n    build: cc -O2 -o flip flip.c\n    commands:\n      flip: ./flip\n    runs: 5\n',
  );
  writeFileSync(join(dir, '.gitignore'), 'flip\nout/\n*.json\n');
  writeFileSync(join(dir, 'flip.c'), flipSource(0.3, 1.0));
  git(dir, 'add', '.');
  git(dir, 'commit', '--quiet', '-m', 'base');
  git(dir, 'tag', 'base');
  writeFileSync(join(dir, 'flip.c'), flipSource(0.7, scale));
  git(dir, 'commit', '--quiet', '-am', 'head');
  return dir;
}

interface Row {
  benchmark: string;
  status: string;
  flags: string[];
  change: number | null;
  reason: string;
}

async function ab(scale: number): Promise<{ status: number; out: string; row: Row }> {
  const repo = flipRepository(scale);
  const r = await runCli(['run', '--ab', 'base', '--json', 'report.json', '--out', 'out'], repo, ENV);
  const report = JSON.parse(readFileSync(join(repo, 'report.json'), 'utf8')) as { rows: Row[] };
  const row = report.rows.find((x) => x.benchmark === 'flips/flip');
  assert.ok(row, r.stdout + r.stderr);
  return { status: r.status, out: r.stdout + r.stderr, row };
}

describe('perf-gate run --ab on a benchmark that flips (real git worktree, real compiler)', () => {
  test('the head draws the slow level more often, the code unchanged: no change, and the row says it flips', async () => {
    const { status, out, row } = await ab(1.0);
    assert.equal(status, 0, `${JSON.stringify(row)}\n${out}`);
    assert.ok(row.status !== 'regressed' && row.status !== 'improved', JSON.stringify(row));
    assert.ok(row.flags.includes('flips'), JSON.stringify(row));
    assert.match(
      row.reason,
      /^Flips between \d+(\.\d+)? m?s and \d+(\.\d+)? m?s \(current: \d+% of runs in the slow level; baseline: \d+% of runs in the slow level\); compared level by level: each round's processes fast with fast and slow with slow, by Wilcoxon signed-rank/,
    );
  });

  test('the head does 10 % more work in both levels: regressed, confirmed by fresh rounds, at about +10 %', async () => {
    const { status, out, row } = await ab(1.1);
    assert.equal(status, 1, `${JSON.stringify(row)}\n${out}`);
    assert.equal(row.status, 'regressed', JSON.stringify(row));
    assert.ok(row.flags.includes('flips') && row.flags.includes('confirmed'), JSON.stringify(row));
    assert.ok(row.change! > 0.05 && row.change! < 0.15, `change ${row.change}`);
  });
});
