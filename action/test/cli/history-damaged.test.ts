import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangesReport } from '../../src/pipeline/history/history-changes.js';
import { newResultSet, type ResultSet } from '../../src/model/index.js';
import { runCli } from '../support/cli.js';
import { commitChain } from '../support/commit-chain.js';
import { gitSync, openFolder, workRepo } from '../support/history.js';
import { tempDir } from '../support/temp.js';

/**
 * Hardening, round two (docs/reliability.md): one damaged history file must
 * not stop the readers, and the store must say which file it is and how to
 * remove it; a leftover lock is a clear error; series follow commit order.
 */

const levels = (i: number): number => (i >= 20 ? 1.2 : 1) * 1e-3;

function runOf(commit: string, i: number, created: Date, level = levels(i)): ResultSet {
  const set = newResultSet(created.toISOString(), [
    { id: 'parse', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [0.99, 1, 1.01, 0.995, 1.005].map((f) => f * level) } } },
  ]);
  return { ...set, commit, testbed: { id: 'vm' } };
}

/** The single-run files of the history, oldest run first. */
function runFiles(history: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (name.isDirectory()) walk(join(dir, name.name));
      else if (name.name.endsWith('.json.gz')) out.push(join(dir, name.name));
    }
  };
  walk(history);
  return out.sort((a, b) => (a.split('-').slice(-2).join('-') < b.split('-').slice(-2).join('-') ? -1 : 1));
}

describe('a history with damaged files', () => {
  const repo = workRepo(tempDir('perf-gate-damaged-'));
  const history = join(repo, 'history');
  let commits: string[] = [];

  before(async () => {
    commits = commitChain(repo, 40);
    gitSync(repo, ['reset', '--quiet', '--hard', 'main']);
    const store = openFolder(history);
    for (let i = 0; i < 40; i++)
      await store.append(runOf(commits[i]!, i, new Date(Date.UTC(2026, 9, 1) + i * 3600_000)), { commit: commits[i]!, testbed: 'vm' });
    // Two flipped bytes in one run, a month's file cut in half in another testbed's past month.
    const files = runFiles(history);
    const victim = files[5]!;
    const bytes = readFileSync(victim);
    bytes[bytes.length - 6]! ^= 0xff;
    bytes[bytes.length - 7]! ^= 0xff;
    writeFileSync(victim, bytes);
  });

  test('history changes, noise and compare --history skip the damaged run, name it and the command that removes it', async () => {
    const changes = await runCli(['history', 'changes', '--history', 'history', '--json', 'changes.json'], repo, process.env);
    assert.equal(changes.status, 0, changes.stderr);
    const report = JSON.parse(readFileSync(join(repo, 'changes.json'), 'utf8')) as ChangesReport;
    assert.deepEqual(report.runs, { vm: 39 }, 'one run left out');
    assert.equal(report.changes[0]?.commit, commits[20], 'the step is still found');
    assert.match(
      changes.stderr,
      /^perf-gate: warning: skipped vm\/2026\/10\/[0-9a-f]{40}-\d{8}T\d{6}Z-[0-9a-f]{12}\.json\.gz \(run [^)]+\): not a whole gzip file/,
    );
    assert.match(changes.stderr, /remove it with: perf-gate history remove vm\/2026\/10\//);

    const noise = await runCli(['history', 'noise', '--history', 'history', '--testbed', 'vm', '--runs', '40'], repo, process.env);
    assert.equal(noise.status, 0, noise.stderr);
    assert.match(noise.stderr, /skipped vm\/2026\/10\//);

    // The baseline's own run is the damaged one: the gate falls back to the commit before it and says so.
    const current = join(repo, 'current.json');
    writeFileSync(current, JSON.stringify(runOf(commits[5]!, 5, new Date(Date.UTC(2026, 10, 1)))));
    const compare = await runCli(
      ['compare', '--history', 'history', '--base', commits[5]!, '--current', 'current.json', '--testbed', 'vm', '--json', 'report.json'],
      repo,
      process.env,
    );
    assert.equal(compare.status, 0, compare.stdout + compare.stderr);
    assert.match(
      compare.stdout,
      new RegExp(`baseline: the run of ${commits[4]!.slice(0, 12)} .*1 commit before --base.*; skipped 1 unreadable file: vm/2026/10/`),
    );
    const json = JSON.parse(readFileSync(join(repo, 'report.json'), 'utf8')) as { baseline: { commit: string } };
    assert.equal(json.baseline.commit, commits[4]);
  });

  test('history verify lists the damaged file (exit 2); history remove FILE removes it; verify is then clean', async () => {
    const verify = await runCli(['history', 'verify', '--history', 'history'], repo, process.env);
    assert.equal(verify.status, 2, verify.stdout);
    assert.match(verify.stdout, /read 40 file\(s\) holding 39 run\(s\) in .*: 1 unreadable/);
    const file = /^ {2}(vm\/\S+\.json\.gz) \(run /m.exec(verify.stdout)![1]!;
    const removed = await runCli(['history', 'remove', '--history', 'history', file], repo, process.env);
    assert.equal(removed.status, 0, removed.stderr);
    assert.equal(existsSync(join(history, file)), false);
    const again = await runCli(['history', 'verify', '--history', 'history'], repo, process.env);
    assert.equal(again.status, 0, again.stdout);
    assert.match(again.stdout, /read 39 file\(s\) holding 39 run\(s\) .*: all readable/);
  });

  test('a month file cut in half: readers skip it, prune and compact leave it alone, remove clears it', async () => {
    const compact = await runCli(['history', 'compact', '--history', 'history'], repo, process.env);
    assert.equal(compact.status, 0, compact.stderr);
    assert.match(compact.stdout, /compacted 39 run file\(s\) of vm in 2026-10 into one file of 39 run\(s\)/);
    const month = join(history, 'vm/2026/10/month.json.br');
    truncateSync(month, Math.floor(readFileSync(month).length / 2));
    const changes = await runCli(['history', 'changes', '--history', 'history'], repo, process.env);
    assert.equal(changes.status, 0, changes.stderr);
    assert.match(
      changes.stderr,
      /skipped vm\/2026\/10\/month\.json\.br: truncated: the month header line never ends; remove it with: perf-gate history remove vm\/2026\/10\/month\.json\.br/,
    );
    const prune = await runCli(['history', 'prune', '--history', 'history', '--before', '2026-10-02'], repo, process.env);
    assert.equal(prune.status, 0, prune.stderr);
    assert.match(prune.stderr, /skipped vm\/2026\/10\/month\.json\.br/);
    assert.ok(existsSync(month), 'a month file that does not decode is never rewritten');
    const remove = await runCli(['history', 'remove', '--history', 'history', 'vm/2026/10/month.json.br'], repo, process.env);
    assert.equal(remove.status, 0, remove.stderr);
    const verify = await runCli(['history', 'verify', '--history', 'history'], repo, process.env);
    assert.equal(verify.status, 0, verify.stdout);
  });

  test('a lock left by a killed process is a clear error naming it and the fix, not an internal error', async () => {
    writeFileSync(join(history, '.lock'), '2147480000 2026-11-20T10:00:00.000Z\n');
    const r = await runCli(['history', 'remove', '--history', 'history', 'vm/2026/10/month.json.br'], repo, process.env);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
    assert.match(
      r.stderr,
      /\.lock: process 2147480000 \(no longer running on this machine\) since 2026-11-20T10:00:00\.000Z holds this history's lock.*remove it with rm /,
    );
  });
});

describe('series in commit order; history add of the same results twice', () => {
  const repo = workRepo(tempDir('perf-gate-order-'));
  let commits: string[] = [];

  before(() => {
    commits = commitChain(repo, 30, {}, { 10: 'v1.0.0' });
    gitSync(repo, ['reset', '--quiet', '--hard', 'main']);
  });

  test('a backfill of older commits recorded last falls where its commits are: the step is still found, and --since agrees with the release report', async () => {
    const store = openFolder(join(repo, 'history'));
    // Commits 0–27 recorded in order, then 28 and 29 …, then a re-run of commits 16 and 17 (the step is at 20).
    const order = [...Array.from({ length: 30 }, (_, i) => i), 16, 17];
    for (const [k, i] of order.entries()) {
      const level = (i >= 20 ? 1.149 : 1) * 1e-3;
      await store.append(runOf(commits[i]!, i, new Date(Date.UTC(2026, 9, 1) + k * 3600_000), level), { commit: commits[i]!, testbed: 'vm' });
    }
    const r = await runCli(['history', 'changes', '--history', 'history', '--since', 'v1.0.0', '--json', 'c.json'], repo, process.env);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(readFileSync(join(repo, 'c.json'), 'utf8')) as ChangesReport;
    assert.deepEqual(report.order, { vm: { by: 'commit' } });
    assert.equal(report.changes.length, 1, r.stdout);
    assert.equal(report.changes[0]!.commit, commits[20]);
    assert.ok(Math.abs(report.changes[0]!.change - 0.149) < 0.01, String(report.changes[0]!.change));
    const release = await runCli(
      ['report', 'release', '--history', 'history', '--from', 'v1.0.0', '--to', 'main', '--testbed', 'vm', '--json', 'release.json'],
      repo,
      process.env,
    );
    assert.ok(release.status === 0 || release.status === 1, release.stderr);
    assert.match(readFileSync(join(repo, 'release.json'), 'utf8'), new RegExp(commits[20]!));
  });

  test('without the commits in git, the order is by time and the output says why', async () => {
    const elsewhere = workRepo(tempDir('perf-gate-order-nogit-'));
    const r = await runCli(['history', 'changes', '--history', join(repo, 'history')], elsewhere, process.env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /\nruns of vm in the order they were recorded, not by commit: HEAD names no commit here\n/);
  });

  test('history add of the same results twice records them once', async () => {
    const file = join(repo, 'results.json');
    writeFileSync(file, JSON.stringify(runOf(commits[29]!, 29, new Date(Date.UTC(2026, 10, 2)))));
    const first = await runCli(['history', 'add', '--history', 'added', '--testbed', 'vm', 'results.json'], repo, process.env);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /recorded .* as run /);
    const second = await runCli(['history', 'add', '--history', 'added', '--testbed', 'vm', 'results.json'], repo, process.env);
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stdout, /already recorded for [0-9a-f]{12} on testbed vm as run \S+ .*; nothing added/);
    const list = await runCli(['history', 'list', '--history', 'added'], repo, process.env);
    assert.equal(list.stdout.trim().split('\n').length, 2, list.stdout);
  });
});
