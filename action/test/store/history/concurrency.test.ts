import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HistoryEntry, HistoryStore } from '../../../src/store/history/index.js';
import { tempDir } from '../../support/temp.js';
import { bareRepo, gitSync, openBranch, openFolder, workRepo } from '../../support/history.js';

const WRITERS = 20;
const writerScript = new URL('../../support/history-writer.ts', import.meta.url).pathname;

interface Exit {
  status: number | null;
  entries: HistoryEntry[];
  stderr: string;
}

/**
 * Starts WRITERS writer processes, waits until every one has started (so the
 * appends race rather than trickle in), lets them go, and collects each
 * one's exit status and printed entries.
 */
async function race(dir: string, optionsOf: (writer: number) => Record<string, unknown>): Promise<Exit[]> {
  mkdirSync(dir, { recursive: true });
  const go = join(dir, 'go');
  const exits = Array.from({ length: WRITERS }, (_, writer) => {
    const ready = join(dir, `ready-${writer}`);
    const options = { ...optionsOf(writer), writer, count: 1, ready, go };
    const child = spawn(process.execPath, ['--import', 'tsx', writerScript, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return {
      ready,
      done: new Promise<Exit>((resolve) =>
        child.on('close', (status) =>
          resolve({
            status,
            stderr,
            entries: stdout
              .split('\n')
              .filter((l) => l !== '')
              .map((l) => JSON.parse(l) as HistoryEntry),
          }),
        ),
      ),
    };
  });
  for (let i = 0; i < 4800 && !exits.every((e) => existsSync(e.ready)); i++) await new Promise((r) => setTimeout(r, 50));
  writeFileSync(go, '');
  return Promise.all(exits.map((e) => e.done));
}

/** Every successful writer's run is listed, and every listed file reads and validates. */
async function assertAllThere(store: HistoryStore, exits: Exit[]): Promise<void> {
  for (const e of exits) assert.equal(e.status, 0, `a writer failed: ${e.stderr}`);
  const written = exits.flatMap((e) => e.entries);
  assert.equal(written.length, WRITERS);
  const listed = await store.list();
  assert.deepEqual(listed.map((e) => e.runId).sort(), written.map((e) => e.runId).sort());
  const sets = await store.readMany(listed);
  assert.deepEqual(
    sets.map((s) => s.commit),
    listed.map((e) => e.commit),
  );
}

describe(`${WRITERS} processes appending at once`, { timeout: 30 * 60 * 1000 }, () => {
  const dir = tempDir('perf-gate-concurrency-');

  test('to one data branch of a bare repository, each from its own clone: every run is there, no file is corrupt', async () => {
    const remote = bareRepo(join(dir, 'remote.git'));
    // Attempts enough for the last of 20 writers to win one push race each round.
    const exits = await race(join(dir, 'git-race'), (writer) => ({
      kind: 'git',
      repo: workRepo(join(dir, `job-${writer}`), remote),
      remote: 'origin',
      maxAttempts: 60,
    }));
    await assertAllThere(openBranch({ repo: workRepo(join(dir, 'reader'), remote), remote: 'origin', readOnly: true }), exits);
    assert.equal(Number(gitSync(remote, ['rev-list', '--count', 'perf-gate-data'])), WRITERS, 'one commit per run, none lost to a race');
    gitSync(remote, ['fsck', '--strict', '--no-progress']);
  });

  test('to one local folder: every run is there, no file is corrupt', async () => {
    const root = join(dir, 'history');
    const exits = await race(join(dir, 'folder-race'), () => ({ kind: 'folder', root }));
    await assertAllThere(openFolder(root), exits);
  });
});
