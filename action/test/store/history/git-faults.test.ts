import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { selectBaseline } from '../../../src/store/history/index.js';
import { bareRepo, gitSync, openBranch, openFolder, sampleRun, workRepo } from '../../support/history.js';
import { tempDir } from '../../support/temp.js';

/**
 * git misbehaving under the history (docs/reliability.md), with real
 * repositories: a push the server refuses for good (a protected branch),
 * a shallow clone that lacks the merge base, a detached HEAD. None loses a
 * run or passes a wrong baseline off as right.
 */

/** origin with main (c1..c5) and feature (from c3, two commits); a full clone of feature; the commits by name. */
function repositories(dir: string): { origin: string; clone: string; c: Record<string, string> } {
  const origin = bareRepo(join(dir, 'origin.git'));
  const seed = workRepo(join(dir, 'seed'), origin);
  const c: Record<string, string> = {};
  const commit = (name: string): void => {
    gitSync(seed, ['commit', '-q', '--allow-empty', '-m', name]);
    c[name] = gitSync(seed, ['rev-parse', 'HEAD']);
  };
  ['c1', 'c2', 'c3'].forEach(commit);
  gitSync(seed, ['branch', 'feature']);
  ['c4', 'c5'].forEach(commit);
  gitSync(seed, ['checkout', '-q', 'feature']);
  ['f1', 'f2'].forEach(commit);
  gitSync(seed, ['push', '-q', 'origin', 'main', 'feature']);
  const clone = join(dir, 'clone');
  gitSync(dir, ['clone', '-q', '--branch', 'feature', `file://${origin}`, clone]);
  return { origin, clone, c };
}

test("a push the server refuses for good (a pre-receive hook) fails the append with the server's words, and the branch does not move", async () => {
  const dir = tempDir('pg-git-faults-');
  const { origin, clone } = repositories(dir);
  const store = openBranch({ repo: clone, remote: 'origin', maxAttempts: 3, backoffMs: 1 });
  await store.append(sampleRun('a'.repeat(40), '2026-11-01T00:00:00Z', 'bed'));
  const before = gitSync(origin, ['rev-parse', 'perf-gate-data']);
  const hook = join(origin, 'hooks', 'pre-receive');
  writeFileSync(hook, '#!/bin/sh\necho "perf-gate-data is a protected branch" >&2\nexit 1\n');
  chmodSync(hook, 0o755);
  await assert.rejects(
    store.append(sampleRun('b'.repeat(40), '2026-11-02T00:00:00Z', 'bed')),
    (e: Error) => /protected branch/.test(e.message) && /pre-receive hook declined/.test(e.message),
  );
  assert.equal(gitSync(origin, ['rev-parse', 'perf-gate-data']), before, 'the data branch did not move');
  const reader = openBranch({ repo: workRepo(join(dir, 'reader'), origin), remote: 'origin', readOnly: true });
  assert.deepEqual(
    (await reader.list()).map((e) => e.commit),
    ['a'.repeat(40)],
    'the earlier run is still there, whole',
  );
});

test('a shallow clone without the merge base: no baseline, said as no-merge-base (budgets only), never a wrong commit', async () => {
  const dir = tempDir('pg-git-faults-');
  const { origin, c } = repositories(dir);
  const shallow = join(dir, 'shallow');
  gitSync(dir, ['clone', '-q', '--depth=1', '--branch', 'feature', `file://${origin}`, shallow]);
  gitSync(shallow, ['fetch', '-q', '--depth=1', 'origin', 'main:refs/remotes/origin/main']);
  const history = openFolder(join(dir, 'history'));
  await history.append(sampleRun(c.c3!, new Date().toISOString(), 'bed'));
  const choice = await selectBaseline(history, { repo: shallow, testbed: 'bed', from: { mergeBaseWith: 'origin/main' } });
  assert.equal(choice.found, false);
  assert.ok(!choice.found && choice.reason === 'no-merge-base', JSON.stringify(choice));
});

test("a detached HEAD (as actions/checkout leaves a pull request) finds the merge base's run", async () => {
  const dir = tempDir('pg-git-faults-');
  const { clone, c } = repositories(dir);
  gitSync(clone, ['checkout', '-q', '--detach', c.f2!]);
  const history = openFolder(join(dir, 'history'));
  await history.append(sampleRun(c.c3!, new Date().toISOString(), 'bed'));
  const choice = await selectBaseline(history, { repo: clone, testbed: 'bed', from: { mergeBaseWith: 'origin/main' } });
  assert.ok(choice.found, JSON.stringify(choice));
  assert.equal(choice.found && choice.commit, c.c3);
  assert.equal(choice.found && choice.distance, 0);
});
