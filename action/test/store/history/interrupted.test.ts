import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HistoryEntry, HistoryStore } from '../../../src/store/history/index.js';
import { tempDir } from '../../support/temp.js';
import { bareRepo, fakeCommit, openBranch, openFolder, sampleRun, workRepo } from '../../support/history.js';
import { seededRandom } from '../../../src/stats/prng.js';

const TRIALS = 3;
const writerScript = new URL('../../support/history-writer.ts', import.meta.url).pathname;

/** Deterministic pseudo-random numbers from the project's seeded generator, so a run can be replayed. */
function rng(seed: number): () => number {
  const random = seededRandom(seed);
  return () => random.next();
}

/**
 * Starts a writer appending run after run, waits until it has reported
 * `after` finished runs, waits `delayMs` more (landing anywhere in the next
 * append: writing, fetching, building, pushing) and kills its whole process
 * group with SIGKILL (git children included). Returns the runs it reported.
 */
async function killMidWrite(options: Record<string, unknown>, after: number, delayMs: number): Promise<HistoryEntry[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', writerScript, JSON.stringify({ ...options, writer: 7, count: 1000 })], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const reported = (): HistoryEntry[] =>
    stdout
      .split('\n')
      .filter((l) => l.endsWith('}'))
      .map((l) => JSON.parse(l) as HistoryEntry);
  for (let i = 0; i < 3000 && reported().length < after && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, delayMs));
  process.kill(-child.pid!, 'SIGKILL');
  await closed;
  return reported();
}

/** The store reads whole after the kill: every reported run is there, at most one more (the one in flight), all parse and validate, and appending still works. */
async function assertReadableAfterKill(reader: HistoryStore, writer: HistoryStore, reported: HistoryEntry[]): Promise<void> {
  const listed = await reader.list();
  const ids = new Set(listed.map((e) => e.runId));
  for (const e of reported) assert.ok(ids.has(e.runId), `reported run ${e.runId} is in the store`);
  assert.ok(listed.length <= reported.length + 1, `${listed.length} runs listed, ${reported.length} reported: at most the interrupted one more`);
  const sets = await reader.readMany(listed);
  assert.deepEqual(
    sets.map((s) => s.commit),
    listed.map((e) => e.commit),
  );
  const next = await writer.append(sampleRun(fakeCommit(999_999), '2026-11-22T00:00:00Z'));
  assert.ok(
    (await reader.list()).some((e) => e.runId === next.runId),
    'the writer that was killed can append again',
  );
}

describe('a writer killed at a random point', { timeout: 15 * 60 * 1000 }, () => {
  const dir = tempDir('perf-gate-interrupted-');

  for (let trial = 0; trial < TRIALS; trial++) {
    const random = rng(1000 + trial);
    const after = 1 + Math.floor(random() * 3);
    const delay = Math.floor(random() * 1500);

    test(`mid-push to a data branch (seed ${1000 + trial}: after ${after} runs + ${delay} ms) leaves the branch readable and loses at most that run`, async () => {
      const remote = bareRepo(join(dir, `remote-${trial}.git`));
      const repo = workRepo(join(dir, `job-${trial}`), remote);
      const reported = await killMidWrite({ kind: 'git', repo, remote: 'origin' }, after, delay);
      const reader = openBranch({ repo: workRepo(join(dir, `reader-${trial}`), remote), remote: 'origin', readOnly: true });
      await assertReadableAfterKill(reader, openBranch({ repo, remote: 'origin' }), reported);
    });

    test(`mid-write to a folder (seed ${1000 + trial}: after ${after} runs + ${Math.floor(delay / 10)} ms) leaves the folder readable and loses at most that run`, async () => {
      const root = join(dir, `folder-${trial}`);
      const reported = await killMidWrite({ kind: 'folder', root, benchmarks: 400 }, after, Math.floor(delay / 10));
      const store = openFolder(root);
      await assertReadableAfterKill(store, store, reported);
      const names = readdirSync(join(root, 'bed-a/2026/11'));
      assert.ok(names.filter((n) => n.startsWith('.')).length <= 1, 'at most one temporary file is left behind');
    });
  }
});
