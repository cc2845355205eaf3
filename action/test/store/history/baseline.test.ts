import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { selectBaseline, type HistoryStore } from '../../../src/store/history/index.js';
import { tempDir } from '../../support/temp.js';
import { gitSync, openFolder, sampleRun, workRepo } from '../../support/history.js';

/**
 * A real repository:
 *
 *   main:    c0 ─ c1 ─ c2 ─ M ─ c4          (tags: v1.0 on c1, v1.1 on c4)
 *                 └─ f1 ──────┘             (a feature merged at M: its second parent)
 *   pr:                         c4 ─ p1     (the pull request's head)
 *   orphan:  o1                             (no shared history)
 */
describe('baseline selection on a real repository', () => {
  const dir = tempDir('perf-gate-baseline-');
  const repo = workRepo(join(dir, 'repo'));
  const c: Record<string, string> = {};
  let day = 1;
  const commit = (name: string): void => {
    const date = `2026-11-${String(day++).padStart(2, '0')}T10:00:00Z`;
    gitSync(repo, ['commit', '--quiet', '--allow-empty', '-m', name], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
    c[name] = gitSync(repo, ['rev-parse', 'HEAD']);
  };
  let n = 0;
  /** A store holding one run per (commit name, testbed) pair given. */
  const storeWith = async (runs: [string, string][]): Promise<HistoryStore> => {
    const store = openFolder(join(dir, `store-${n++}`));
    for (const [name, testbed] of runs) await store.append(sampleRun(c[name]!, '2026-11-25T00:00:00Z', testbed, n));
    return store;
  };

  before(() => {
    commit('c0');
    commit('c1');
    gitSync(repo, ['tag', 'v1.0']);
    gitSync(repo, ['checkout', '--quiet', '-b', 'feature']);
    commit('f1');
    gitSync(repo, ['checkout', '--quiet', 'main']);
    commit('c2');
    gitSync(repo, ['merge', '--quiet', '--no-ff', '-m', 'M', 'feature'], { GIT_COMMITTER_DATE: '2026-11-10T10:00:00Z' });
    c.M = gitSync(repo, ['rev-parse', 'HEAD']);
    commit('c4');
    gitSync(repo, ['tag', 'v1.1']);
    gitSync(repo, ['checkout', '--quiet', '-b', 'pr']);
    commit('p1');
    gitSync(repo, ['checkout', '--quiet', '--orphan', 'orphan']);
    commit('o1');
    gitSync(repo, ['checkout', '--quiet', 'pr']);
  });

  const pr = { repo, testbed: 'bed-a', head: 'pr', from: { mergeBaseWith: 'main' } };

  test('the merge base has a run: it is the baseline, distance 0', async () => {
    const choice = await selectBaseline(
      await storeWith([
        ['c4', 'bed-a'],
        ['c2', 'bed-a'],
      ]),
      pr,
    );
    assert.ok(choice.found);
    assert.deepEqual([choice.commit, choice.distance, choice.start], [c.c4, 0, { kind: 'merge-base', commit: c.c4, base: 'main' }]);
    assert.equal(choice.pooled.set.commit, c.c4);
  });

  test('the merge base has no run: the nearest first-parent ancestor with one, named with its date and distance; a merged branch is not searched', async () => {
    const choice = await selectBaseline(
      await storeWith([
        ['f1', 'bed-a'],
        ['c2', 'bed-a'],
        ['c0', 'bed-a'],
      ]),
      pr,
    );
    assert.ok(choice.found);
    assert.deepEqual([choice.commit, choice.date, choice.distance], [c.c2, '2026-11-04T10:00:00Z', 2]);
  });

  test("another testbed's runs are ignored", async () => {
    const store = await storeWith([
      ['c4', 'bed-b'],
      ['M', 'bed-b'],
      ['c1', 'bed-a'],
    ]);
    const choice = await selectBaseline(store, pr);
    assert.ok(choice.found);
    assert.deepEqual([choice.commit, choice.distance], [c.c1, 3]);
    assert.equal(choice.pooled.set.testbed?.id, 'bed-a');
    const other = await selectBaseline(store, { ...pr, testbed: 'bed-b' });
    assert.equal(other.found && other.commit, c.c4);
  });

  test('no run at all, or none within the distance: budgets only, with the reason', async () => {
    const none = await selectBaseline(await storeWith([['c4', 'bed-b']]), pr);
    assert.deepEqual(none, {
      found: false,
      use: 'budgets-only',
      reason: 'no-run-within-distance',
      start: { kind: 'merge-base', commit: c.c4, base: 'main' },
      searched: 5,
      maxDistance: 50,
    });
    const far = await selectBaseline(await storeWith([['c0', 'bed-a']]), { ...pr, maxDistance: 2 });
    assert.deepEqual(far.found === false && [far.reason, far.searched], ['no-run-within-distance', 3]);
    const unrelated = await selectBaseline(await storeWith([['c4', 'bed-a']]), { ...pr, from: { mergeBaseWith: 'orphan' } });
    assert.deepEqual(unrelated, { found: false, use: 'budgets-only', reason: 'no-merge-base', searched: 0, maxDistance: 50 });
  });

  test('re-runs of the chosen commit are pooled into one baseline', async () => {
    const store = await storeWith([
      ['c4', 'bed-a'],
      ['c4', 'bed-a'],
      ['c4', 'bed-b'],
    ]);
    const choice = await selectBaseline(store, pr);
    assert.ok(choice.found);
    assert.equal(choice.runs.length, 2);
    assert.equal(choice.pooled.runs, 2);
    assert.equal(choice.pooled.set.benchmarks[0]!.metrics.time!.samples!.length, 10);
  });

  test('a release compares with the previous release tag, falling back along its first-parent chain', async () => {
    const release = { repo, testbed: 'bed-a', head: 'v1.1', from: { previousTag: true as const } };
    const tagged = await selectBaseline(
      await storeWith([
        ['c1', 'bed-a'],
        ['c4', 'bed-a'],
      ]),
      release,
    );
    assert.ok(tagged.found);
    assert.deepEqual([tagged.commit, tagged.distance, tagged.start], [c.c1, 0, { kind: 'release-tag', commit: c.c1, tag: 'v1.0' }]);
    const fallback = await selectBaseline(await storeWith([['c0', 'bed-a']]), release);
    assert.deepEqual(fallback.found && [fallback.commit, fallback.distance], [c.c0, 1]);
    const noTag = await selectBaseline(await storeWith([['c0', 'bed-a']]), { ...release, from: { previousTag: true, tagPattern: 'release-*' } });
    assert.deepEqual(noTag.found === false && noTag.reason, 'no-previous-tag');
  });

  test('an explicit base commit (--base) starts the search there', async () => {
    const choice = await selectBaseline(await storeWith([['c1', 'bed-a']]), { ...pr, from: { commit: 'v1.0' } });
    assert.deepEqual(choice.found && [choice.commit, choice.distance, choice.start.kind], [c.c1, 0, 'commit']);
  });
});
