import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangesReport } from '../../src/pipeline/history/history-changes.js';
import { newResultSet } from '../../src/model/index.js';
import { runCli } from '../support/cli.js';
import { gitSync, openFolder, workRepo } from '../support/history.js';
import { seriesWithSteps } from '../support/synthetic-series.js';
import { tempDir } from '../support/temp.js';

/**
 * A real git repository with 80 commits on main, and one run of each in a
 * history folder: `parse/small` gets 8 % slower at commit 50 (index 50), a
 * throughput gets 10 % higher at commit 20, `parse/large` never changes.
 * Each run holds 5 samples around its level (2 % noise between runs).
 */
describe('perf-gate history changes on a recorded history', () => {
  const repo = workRepo(tempDir('perf-gate-changes-'));
  const history = join(repo, 'history');
  const commits: string[] = [];

  before(async () => {
    const small = seriesWithSteps(1, 80, 0.02, [{ at: 50, size: 0.08 }]);
    const large = seriesWithSteps(2, 80, 0.02);
    const rate = seriesWithSteps(3, 80, 0.02, [{ at: 20, size: 0.1 }]);
    const store = openFolder(history);
    for (let i = 0; i < 80; i++) {
      gitSync(repo, ['commit', '--quiet', '--allow-empty', '-m', `commit ${i}`]);
      const commit = gitSync(repo, ['rev-parse', 'HEAD']);
      commits.push(commit);
      const samples = (level: number, scale: number): number[] => [0.99, 1, 1.01, 0.995, 1.005].map((f) => level * f * scale);
      const set = newResultSet(new Date(Date.UTC(2026, 9, 1) + i * 3600_000).toISOString(), [
        { id: 'parse/small', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: samples(small[i]!, 1e-5) } } },
        { id: 'parse/large', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: samples(large[i]!, 1e-3) } } },
        { id: 'serve', status: 'ok', metrics: { throughput: { unit: '1/s', direction: 'higher', samples: samples(rate[i]!, 10) } } },
      ]);
      await store.append({ ...set, commit, testbed: { id: 'vm' } }, { commit, testbed: 'vm' });
    }
  });

  test('each step with its commit range, size, interval and verdict; the steady benchmark has none', async () => {
    const r = await runCli(['history', 'changes', '--history', 'history', '--json', 'changes.json', '--markdown', 'changes.md'], repo, process.env);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const report = JSON.parse(readFileSync(join(repo, 'changes.json'), 'utf8')) as ChangesReport;
    assert.equal(report.schema, 'perf-gate/changes@1');
    assert.deepEqual(report.runs, { vm: 80 });
    assert.deepEqual(
      report.changes.map((c) => [c.benchmark, c.metric]),
      [
        ['parse/small', 'time'],
        ['serve', 'throughput'],
      ],
      'newest first',
    );
    const [slower, faster] = report.changes;
    assert.equal(slower!.commit, commits[50]);
    assert.equal(slower!.previousCommit, commits[49]);
    assert.equal(slower!.regression, true);
    assert.ok(slower!.change > 0.06 && slower!.change < 0.1, String(slower!.change));
    assert.ok(slower!.interval[0] < slower!.change && slower!.change < slower!.interval[1] && slower!.interval[0] > 0, String(slower!.interval));
    assert.ok(slower!.pValue < 0.001);
    assert.equal(faster!.commit, commits[20]);
    assert.equal(faster!.regression, false, 'more throughput is an improvement');
    // The terminal and the Markdown say the same.
    assert.match(r.stdout, /^2 change points \(1 slower\) in the runs \(80 on vm\)/);
    assert.match(r.stdout, new RegExp(`parse/small\\s+time\\s+vm\\s+${commits[49]!.slice(0, 7)}\\w*\\.\\.${commits[50]!.slice(0, 7)}\\w*\\s+.*slower`));
    const markdown = readFileSync(join(repo, 'changes.md'), 'utf8');
    assert.match(markdown, /\| parse\/small \| time \| vm \| \w+\.\.\w+ \| .* \| slower \|/);
  });

  test('--since a ref keeps the steps after its run; --benchmark filters by glob', async () => {
    gitSync(repo, ['tag', 'v1', commits[30]!]);
    const since = await runCli(['history', 'changes', '--history', 'history', '--since', 'v1', '--json', 'since.json'], repo, process.env);
    assert.equal(since.status, 0, since.stderr);
    assert.deepEqual(
      (JSON.parse(readFileSync(join(repo, 'since.json'), 'utf8')) as ChangesReport).changes.map((c) => c.benchmark),
      ['parse/small'],
    );
    const glob = await runCli(['history', 'changes', '--history', 'history', '--benchmark', 'serve*', '--json', 'glob.json'], repo, process.env);
    assert.equal(glob.status, 0, glob.stderr);
    assert.deepEqual(
      (JSON.parse(readFileSync(join(repo, 'glob.json'), 'utf8')) as ChangesReport).changes.map((c) => c.benchmark),
      ['serve'],
    );
  });

  test('--previous: each point says whether it is new, the same, or moved, and a point no longer found is listed as gone', async () => {
    const now = await runCli(['history', 'changes', '--history', 'history', '--json', 'now.json'], repo, process.env);
    assert.equal(now.status, 0, now.stderr);
    const current = JSON.parse(readFileSync(join(repo, 'now.json'), 'utf8')) as ChangesReport;
    const [slower, faster] = current.changes;
    // An earlier report placed the slowdown one run later, did not have the throughput step, and had a step of parse/large at run 60.
    const runIds = (await openFolder(history).list()).map((e) => e.runId);
    const earlier: ChangesReport = {
      ...current,
      changes: [
        { ...slower!, commit: commits[51]!, previousCommit: commits[50]!, runId: runIds[51]! },
        { ...slower!, benchmark: 'parse/large', commit: commits[60]!, previousCommit: commits[59]!, runId: runIds[60]!, change: 0.07 },
      ],
    };
    writeFileSync(join(repo, 'earlier.json'), JSON.stringify(earlier));
    const r = await runCli(['history', 'changes', '--history', 'history', '--previous', 'earlier.json', '--json', 'compared.json'], repo, process.env);
    assert.equal(r.status, 0, r.stderr);
    const compared = JSON.parse(readFileSync(join(repo, 'compared.json'), 'utf8')) as ChangesReport;
    assert.deepEqual(
      compared.changes.map((c) => [c.benchmark, c.since]),
      [
        ['parse/small', { kind: 'moved', commit: commits[51], runs: 1 }],
        ['serve', { kind: 'new' }],
      ],
    );
    assert.equal(faster!.commit, compared.changes[1]!.commit);
    assert.deepEqual(
      compared.gone?.map((g) => [g.benchmark, g.commit]),
      [['parse/large', commits[60]]],
    );
    assert.match(
      r.stdout,
      new RegExp(
        `gone since --previous:\\n  parse/large time on vm: ${commits[59]!.slice(0, 7)}\\w*\\.\\.${commits[60]!.slice(0, 7)}\\w* \\+7\\.0 % .* is no longer found`,
      ),
    );
    assert.match(r.stdout, new RegExp(`slower\\s+moved from ${commits[51]!.slice(0, 7)}\\w* \\(1 run later\\)`));
    const same = await runCli(['history', 'changes', '--history', 'history', '--previous', 'now.json'], repo, process.env);
    assert.equal((same.stdout.match(/ same$/gm) ?? []).length, 2, same.stdout);
    assert.doesNotMatch(same.stdout, /gone since/);
  });

  test('a --previous that is not a history changes report is a clear error (exit 2)', async () => {
    writeFileSync(join(repo, 'other.json'), JSON.stringify({ schema: 'perf-gate/report@1', rows: [] }));
    const r = await runCli(['history', 'changes', '--history', 'history', '--previous', 'other.json'], repo, process.env);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /other\.json.*schema.*expected the JSON of history changes --json \(schema "perf-gate\/changes@1"\)/);
  });

  test('a --since with no run, an unknown testbed and a stray word are clear errors (exit 2)', async () => {
    gitSync(repo, ['commit', '--quiet', '--allow-empty', '-m', 'not measured']);
    const unmeasured = await runCli(['history', 'changes', '--history', 'history', '--since', 'HEAD'], repo, process.env);
    assert.equal(unmeasured.status, 2);
    assert.match(unmeasured.stderr, /--since: HEAD \(\w{12}\) has no run in the history on testbed vm/);
    const testbed = await runCli(['history', 'changes', '--history', 'history', '--testbed', 'metal'], repo, process.env);
    assert.equal(testbed.status, 2);
    assert.match(testbed.stderr, /no runs of testbed metal; it holds runs of vm/);
    assert.equal((await runCli(['history', 'changes', '--history', 'history', 'extra'], repo, process.env)).status, 2);
  });
});
