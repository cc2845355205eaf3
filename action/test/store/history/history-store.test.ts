import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { InputError, type ResultSet } from '../../../src/model/index.js';
import type { HistoryStore } from '../../../src/store/history/index.js';
import { chooseStep } from '../../../src/store/history/sample-packing.js';
import { tempDir } from '../../support/temp.js';
import { bareRepo, fakeCommit, gitSync, openBranch, openFolder, sampleRun, workRepo } from '../../support/history.js';

/** The same behaviour is asserted of both backends. */
const backends: { name: string; open: (dir: string) => { store: HistoryStore; rawWrite: (path: string, bytes: Buffer) => void } }[] = [
  {
    name: 'folder',
    open: (dir) => ({ store: openFolder(join(dir, 'history')), rawWrite: (path, bytes) => writeFileSync(join(dir, 'history', path), bytes) }),
  },
  {
    name: 'git data branch',
    open: (dir) => {
      const remote = bareRepo(join(dir, 'remote.git'));
      const repo = workRepo(join(dir, 'work'), remote);
      return {
        store: openBranch({ repo, remote: 'origin' }),
        rawWrite: (path, bytes) => {
          // A commit made by hand on the data branch, as a careless user might.
          const other = workRepo(join(dir, `raw-${Date.now()}`), remote);
          gitSync(other, ['fetch', '--quiet', 'origin', 'perf-gate-data']);
          gitSync(other, ['checkout', '--quiet', '-b', 'perf-gate-data', 'FETCH_HEAD']);
          writeFileSync(join(other, 'tmp'), bytes);
          const blob = gitSync(other, ['hash-object', '-w', 'tmp']);
          gitSync(other, ['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`]);
          gitSync(other, ['commit', '--quiet', '-m', 'raw']);
          gitSync(other, ['push', '--quiet', 'origin', 'perf-gate-data']);
        },
      };
    },
  },
];

for (const backend of backends) {
  describe(`history store on a ${backend.name}`, () => {
    const dir = tempDir('perf-gate-history-');

    test('appends runs under testbed, month and commit, and lists them in creation order', async () => {
      const { store } = backend.open(join(dir, 'basic'));
      const b = await store.append(sampleRun(fakeCommit(2), '2026-11-21T12:00:05.250Z'));
      const a = await store.append(sampleRun(fakeCommit(1), '2026-10-02T08:00:00Z'));
      const other = await store.append(sampleRun(fakeCommit(1), '2026-11-01T00:00:00Z', 'bed-b'));
      assert.match(b.file, new RegExp(`^bed-a/2026/11/${fakeCommit(2)}-20261121T120005Z-[0-9a-f]{12}\\.json\\.gz$`));
      assert.equal(b.created, '2026-11-21T12:00:05Z');
      assert.deepEqual(await store.list({ testbed: 'bed-a' }), [a, b]);
      assert.deepEqual(await store.list(), [a, other, b]);
      assert.deepEqual(await store.list({ testbed: 'bed-a', since: new Date('2026-11-01T00:00:00Z') }), [b]);
      assert.deepEqual(await store.list({ testbed: 'bed-c' }), []);
    });

    test('reads back the ResultSet appended: all of it exactly, samples to the stored resolution', async () => {
      const { store } = backend.open(join(dir, 'read'));
      const run = sampleRun(fakeCommit(3), '2026-11-21T12:00:00Z');
      const entry = await store.append(run);
      const stored = await store.read(entry);
      assert.deepEqual(withoutSamples(stored), withoutSamples(run));
      for (const [i, b] of run.benchmarks.entries()) {
        for (const [name, metric] of Object.entries(b.metrics)) {
          const back = stored.benchmarks[i]!.metrics[name]!.samples!;
          const step = chooseStep(metric.samples!);
          const half = step === undefined ? 0 : (step.m * 10 ** step.k) / 2;
          assert.equal(back.length, metric.samples!.length);
          metric.samples!.forEach((x, j) =>
            assert.ok(Math.abs(back[j]! - x) <= half * (1 + 1e-9), `${b.id} ${name}[${j}]: ${back[j]} against ${x}, step ${2 * half}`),
          );
        }
      }
    });

    test('a run needs a commit and a testbed id that can be a folder name', async () => {
      const { store } = backend.open(join(dir, 'refuse'));
      const run = sampleRun(fakeCommit(4), '2026-11-21T12:00:00Z');
      await assert.rejects(store.append({ ...run, commit: undefined }), (e: unknown) => e instanceof InputError && /full commit id/.test(e.message));
      await assert.rejects(store.append(run, { commit: 'abc123' }), InputError);
      await assert.rejects(store.append(run, { testbed: '../escape' }), (e: unknown) => e instanceof InputError && e.key === 'testbed.id');
      await assert.rejects(store.append({ ...run, created: 'yesterday' }), (e: unknown) => e instanceof InputError && e.key === 'created');
      const entry = await store.append(run, { testbed: 'bed-z', commit: fakeCommit(5) });
      assert.equal(entry.testbed, 'bed-z');
      const stored = await store.read(entry);
      assert.equal(stored.commit, fakeCommit(5));
      assert.equal(stored.testbed?.id, 'bed-z');
    });

    test('a corrupt or invalid file is an InputError naming it, never a half-read run', async () => {
      const { store, rawWrite } = backend.open(join(dir, 'corrupt'));
      const good = await store.append(sampleRun(fakeCommit(6), '2026-11-21T12:00:00Z'));
      const whole = gzipSync(JSON.stringify(sampleRun(fakeCommit(7), '2026-11-21T12:00:00Z')));
      const truncated = `bed-a/2026/11/${fakeCommit(7)}-20261121T120000Z-aaaaaaaaaaaa.json.gz`;
      rawWrite(truncated, whole.subarray(0, whole.length - 9));
      const invalid = `bed-a/2026/11/${fakeCommit(8)}-20261121T120000Z-bbbbbbbbbbbb.json.gz`;
      rawWrite(invalid, gzipSync(JSON.stringify({ ...sampleRun(fakeCommit(8), '2026-11-21T12:00:00Z'), benchmarks: 'none' })));
      const entries = await store.list();
      assert.equal(entries.length, 3);
      assert.ok(gunzipSync(gzipSync('ok')));
      await assert.rejects(
        store.read(entries.find((e) => e.commit === fakeCommit(7))!),
        (e: unknown) => e instanceof InputError && e.file === truncated && /gzip/.test(e.message),
      );
      await assert.rejects(store.read(entries.find((e) => e.commit === fakeCommit(8))!), (e: unknown) => e instanceof InputError && e.file === invalid);
      assert.equal((await store.read(good)).commit, fakeCommit(6));
    });

    test('pruning removes runs created before a time, from single files and month files alike', async () => {
      const { store } = backend.open(join(dir, 'prune'));
      const old1 = await store.append(sampleRun(fakeCommit(10), '2026-08-03T00:00:00Z'));
      const old2 = await store.append(sampleRun(fakeCommit(11), '2026-09-10T00:00:00Z'));
      const keep1 = await store.append(sampleRun(fakeCommit(12), '2026-09-20T00:00:00Z'));
      const keep2 = await store.append(sampleRun(fakeCommit(13), '2026-11-20T00:00:00Z'));
      await store.compact({ before: new Date('2026-11-21T00:00:00Z') });
      const removed = await store.prune({ before: new Date('2026-09-15T00:00:00Z') });
      assert.deepEqual(
        removed.map((e) => e.runId),
        [old1.runId, old2.runId],
      );
      const left = await store.list();
      assert.deepEqual(
        left.map((e) => e.runId),
        [keep1.runId, keep2.runId],
      );
      assert.deepEqual(
        (await store.readMany(left)).map((s) => s.commit),
        [fakeCommit(12), fakeCommit(13)],
      );
    });
  });
}

describe('history store on a folder, specifics', () => {
  const dir = tempDir('perf-gate-history-');

  test("a killed writer's hidden temporary file is ignored by listing", async () => {
    const root = join(dir, 'temp-files');
    const store = openFolder(root);
    const entry = await store.append(sampleRun(fakeCommit(1), '2026-11-21T12:00:00Z'));
    writeFileSync(join(root, 'bed-a/2026/11/.123.456.tmp-abc'), 'half a fi');
    assert.deepEqual(await store.list(), [entry]);
    assert.equal(readdirSync(join(root, 'bed-a/2026/11')).length, 2);
  });

  test('compaction refuses to run beside another (the lock file names itself)', async () => {
    const root = join(dir, 'locked');
    const store = openFolder(root);
    await store.append(sampleRun(fakeCommit(1), '2026-10-21T12:00:00Z'));
    writeFileSync(join(root, '.lock'), '1 then\n');
    await assert.rejects(
      store.compact({ before: new Date('2026-11-21T00:00:00Z') }),
      (error: unknown) => error instanceof InputError && /\.lock: process 1 since then holds this history's lock .* remove it with rm /.test(error.message),
    );
    assert.ok(existsSync(join(root, '.lock')));
  });
});

describe('history store on a git data branch, specifics', () => {
  const dir = tempDir('perf-gate-history-');

  test('never touches the working tree, index or branches of the repository it works in', async () => {
    const remote = bareRepo(join(dir, 'remote.git'));
    const repo = workRepo(join(dir, 'work'), remote);
    writeFileSync(join(repo, 'file.txt'), 'user work\n');
    gitSync(repo, ['add', 'file.txt']);
    gitSync(repo, ['commit', '--quiet', '-m', 'user']);
    writeFileSync(join(repo, 'file.txt'), 'uncommitted\n');
    const store = openBranch({ repo, remote: 'origin' });
    await store.append(sampleRun(fakeCommit(1), '2026-11-21T12:00:00Z'));
    assert.equal(gitSync(repo, ['status', '--porcelain']), 'M file.txt');
    assert.equal(gitSync(repo, ['branch', '--list']), '* main');
    assert.equal(gitSync(remote, ['ls-tree', '-r', '--name-only', 'perf-gate-data']).split('\n').length, 1);
  });

  test('a local branch works without a remote; a read-only store refuses to write', async () => {
    const repo = workRepo(join(dir, 'local'));
    const store = openBranch({ repo, remote: null, branch: 'history' });
    const entry = await store.append(sampleRun(fakeCommit(1), '2026-11-21T12:00:00Z'));
    assert.deepEqual(await store.list(), [entry]);
    assert.equal(gitSync(repo, ['ls-tree', '-r', '--name-only', 'history']), entry.file);
    const reader = openBranch({ repo, remote: null, branch: 'history', readOnly: true });
    assert.deepEqual(await reader.list(), [entry]);
    await assert.rejects(reader.append(sampleRun(fakeCommit(2), '2026-11-21T12:00:00Z')), /read-only/);
  });

  test('a missing data branch reads as an empty history', async () => {
    const remote = bareRepo(join(dir, 'empty.git'));
    const store = openBranch({ repo: workRepo(join(dir, 'reader'), remote), remote: 'origin', depth: 1 });
    assert.deepEqual(await store.list(), []);
  });
});

/** A ResultSet with every metric's samples left out, to compare everything else exactly. */
function withoutSamples(set: ResultSet): unknown {
  return {
    ...set,
    benchmarks: set.benchmarks.map((b) => ({ ...b, metrics: Object.fromEntries(Object.entries(b.metrics).map(([k, { samples: _, ...m }]) => [k, m])) })),
  };
}
