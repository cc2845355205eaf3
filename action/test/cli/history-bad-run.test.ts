import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newResultSet, type ResultSet } from '../../src/model/index.js';
import { encodeMonth, monthPath, newRunId, runLine } from '../../src/store/history/index.js';
import { runCli } from '../support/cli.js';
import { commitChain } from '../support/commit-chain.js';
import { gitSync, openFolder, workRepo } from '../support/history.js';
import { tempDir } from '../support/temp.js';

/**
 * Hardening, round three (docs/reliability.md, finding 4): one run of a month
 * file that its reader refuses — what a history compacted before the id cap
 * can hold — is skipped and named alone; the month's other runs still read,
 * and removing that run rewrites the month without it.
 */

function runOf(commit: string, created: Date, level: number, id = 'parse'): ResultSet {
  const set = newResultSet(created.toISOString(), [
    { id, status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [0.99, 1, 1.01, 0.995, 1.005, 1.002, 0.998].map((f) => f * level) } } },
  ]);
  return { ...set, commit, testbed: { id: 'vm' } };
}

describe('a month file holding one run its reader refuses', () => {
  const repo = workRepo(tempDir('perf-gate-bad-run-'));
  const history = join(repo, 'history');
  let commits: string[] = [];
  let badRun = '';

  before(async () => {
    commits = commitChain(repo, 22);
    gitSync(repo, ['reset', '--quiet', '--hard', 'main']);
    const at = (i: number) => new Date(Date.UTC(2026, 9, 1) + i * 3600_000);
    // 20 good runs and, between them, one whose benchmark id is 5,000 characters long, in one month file.
    const lines = Array.from({ length: 21 }, (_, i) => {
      const created = at(i);
      const runId = newRunId(created);
      const set = i === 10 ? runOf(commits[i]!, created, 1e-3, `parse-${'x'.repeat(5000)}`) : runOf(commits[i]!, created, 1e-3);
      if (i === 10) badRun = runId;
      return { commit: commits[i]!, runId, json: runLine(set) };
    });
    const file = join(history, monthPath({ testbed: 'vm', month: '2026-10' }));
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, encodeMonth({ testbed: 'vm', month: '2026-10' }, lines));
  });

  test('history verify reads the 20 good runs and names the one bad run with the command that removes only it', async () => {
    const verify = await runCli(['history', 'verify', '--history', 'history'], repo, process.env);
    assert.equal(verify.status, 2, verify.stdout);
    assert.match(verify.stdout, /read 1 file\(s\) holding 20 run\(s\) in .*: 1 unreadable/);
    assert.match(
      verify.stdout,
      new RegExp(`vm/2026/10/month\\.json\\.br \\(run ${badRun}\\): benchmarks\\.0\\.id: .*; remove it with: perf-gate history remove ${badRun}\\n`),
    );
  });

  test('a pull request 2x slower is regressed against the month, not new', async () => {
    writeFileSync(join(repo, 'current.json'), JSON.stringify(runOf(commits[21]!, new Date(Date.UTC(2026, 10, 1)), 2e-3)));
    const compare = await runCli(
      ['compare', '--history', 'history', '--base', commits[19]!, '--current', 'current.json', '--testbed', 'vm', '--json', 'report.json'],
      repo,
      process.env,
    );
    assert.equal(compare.status, 1, compare.stdout + compare.stderr);
    const report = JSON.parse(readFileSync(join(repo, 'report.json'), 'utf8')) as { rows: { benchmark: string; status: string }[] };
    assert.deepEqual(
      report.rows.map((r) => [r.benchmark, r.status]),
      [['parse', 'regressed']],
    );
  });

  test('history remove of the bad run rewrites the month with the 20 good runs', async () => {
    const removed = await runCli(['history', 'remove', '--history', 'history', badRun], repo, process.env);
    assert.equal(removed.status, 0, removed.stderr);
    assert.match(removed.stdout, new RegExp(`removed run ${badRun}`));
    const verify = await runCli(['history', 'verify', '--history', 'history'], repo, process.env);
    assert.equal(verify.status, 0, verify.stdout);
    assert.match(verify.stdout, /read 1 file\(s\) holding 20 run\(s\) .*: all readable/);
  });

  test('the writer refuses what its reader would refuse: a run with a 5,000-character id is not stored', async () => {
    const store = openFolder(history);
    await assert.rejects(
      store.append(runOf(commits[21]!, new Date(Date.UTC(2026, 9, 28)), 1e-3, 'y'.repeat(5000)), { commit: commits[21]!, testbed: 'vm' }),
      /benchmarks\.0\.id: perf-gate will not store a run its own reader refuses: .*must NOT have more than 4096 characters/,
    );
    const verify = await runCli(['history', 'verify', '--history', 'history'], repo, process.env);
    assert.match(verify.stdout, /holding 20 run\(s\)/);
  });
});
