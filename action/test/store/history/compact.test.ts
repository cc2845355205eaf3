import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HistoryEntry, HistoryStore } from '../../../src/store/history/index.js';
import { tempDir } from '../../support/temp.js';
import { bareRepo, fakeCommit, gitSync, openBranch, openFolder, sampleRun, workRepo } from '../../support/history.js';

const withoutFile = (entries: HistoryEntry[]) => entries.map(({ file: _file, ...rest }) => rest);
const NOW = new Date('2026-11-21T12:00:00Z');

/** Runs in three past months on two testbeds, and one in the current month. */
async function fill(store: HistoryStore): Promise<void> {
  const times = [
    '2026-08-03T10:00:00Z',
    '2026-08-30T23:59:59Z',
    '2026-09-01T00:00:00Z',
    '2026-10-15T12:00:00Z',
    '2026-10-15T12:00:00Z',
    '2026-11-02T00:00:00Z',
  ];
  for (const [i, t] of times.entries()) {
    await store.append(sampleRun(fakeCommit(i), t, 'bed-a', i));
    if (i % 2 === 0) await store.append(sampleRun(fakeCommit(i), t, 'bed-b', 100 + i));
  }
}

describe('compaction on a folder', () => {
  const dir = tempDir('perf-gate-compact-');

  test('old months become one file per testbed and month: same listing, same reads, single-run files gone', async () => {
    const root = join(dir, 'history');
    const store = openFolder(root);
    await fill(store);
    const before = await store.list();
    const sets = await store.readMany(before);
    const done = await store.compact({ before: NOW });
    assert.deepEqual(
      done.map((m) => [m.testbed, m.month, m.runs, m.removed.length]),
      [
        ['bed-a', '2026-08', 2, 2],
        ['bed-a', '2026-09', 1, 1],
        ['bed-a', '2026-10', 2, 2],
        ['bed-b', '2026-08', 1, 1],
        ['bed-b', '2026-09', 1, 1],
        ['bed-b', '2026-10', 1, 1],
      ],
    );
    const after = await store.list();
    assert.deepEqual(withoutFile(after), withoutFile(before));
    assert.deepEqual(await store.readMany(after), sets);
    assert.deepEqual(readdirSync(join(root, 'bed-a/2026/08')), ['month.json.br']);
    assert.deepEqual(readdirSync(join(root, 'bed-a/2026/10')), ['month.json.br']);
    assert.equal(readdirSync(join(root, 'bed-a/2026/11')).length, 1, 'the current month is left alone');
    assert.deepEqual(await store.compact({ before: NOW }), [], 'compacting again has nothing to do');
  });

  test('a late run in a compacted month, and a compaction killed before removing its single files, are each listed once and merged next time', async () => {
    const root = join(dir, 'late');
    const store = openFolder(root);
    const first = await store.append(sampleRun(fakeCommit(1), '2026-09-10T00:00:00Z'));
    const saved = readFileSync(join(root, first.file));
    await store.compact({ before: NOW });
    writeFileSync(join(root, first.file), saved); // as if the removal never happened
    const late = await store.append(sampleRun(fakeCommit(2), '2026-09-11T00:00:00Z'));
    assert.deepEqual(
      (await store.list()).map((e) => e.runId),
      [first.runId, late.runId],
    );
    const done = await store.compact({ before: NOW });
    assert.deepEqual(
      done.map((m) => [m.runs, m.removed.length]),
      [[2, 2]],
    );
    assert.deepEqual(readdirSync(join(root, 'bed-a/2026/09')), ['month.json.br']);
    assert.deepEqual(
      (await store.readMany(await store.list())).map((s) => s.commit),
      [fakeCommit(1), fakeCommit(2)],
    );
  });
});

describe('compaction on a git data branch', () => {
  const dir = tempDir('perf-gate-compact-');

  test('one commit per month replaces its single-run files with the month file: same listing, same reads', async () => {
    const remote = bareRepo(join(dir, 'remote.git'));
    const store = openBranch({ repo: workRepo(join(dir, 'writer'), remote), remote: 'origin' });
    await fill(store);
    const before = await store.list();
    const sets = await store.readMany(before);
    const commitsBefore = Number(gitSync(remote, ['rev-list', '--count', 'perf-gate-data']));
    const done = await store.compact({ before: NOW });
    assert.equal(done.length, 6);
    assert.equal(Number(gitSync(remote, ['rev-list', '--count', 'perf-gate-data'])), commitsBefore + 6);

    // A fresh reader (another job) sees the same runs.
    const reader = openBranch({ repo: workRepo(join(dir, 'reader'), remote), remote: 'origin', depth: 1, readOnly: true });
    const after = await reader.list();
    assert.deepEqual(withoutFile(after), withoutFile(before));
    assert.deepEqual(await reader.readMany(after), sets);
    const files = gitSync(remote, ['ls-tree', '-r', '--name-only', 'perf-gate-data']).split('\n');
    assert.deepEqual(
      files.filter((f) => !f.startsWith('bed-a/2026/11/')),
      [
        'bed-a/2026/08/month.json.br',
        'bed-a/2026/09/month.json.br',
        'bed-a/2026/10/month.json.br',
        'bed-b/2026/08/month.json.br',
        'bed-b/2026/09/month.json.br',
        'bed-b/2026/10/month.json.br',
      ],
    );
    assert.deepEqual(
      await reader.list({ testbed: 'bed-a', since: new Date('2026-10-01T00:00:00Z') }),
      after.filter((e) => e.testbed === 'bed-a' && e.created >= '2026-10'),
    );
  });
});
