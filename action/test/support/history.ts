import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { validateResultSet } from '../../src/adapters/result-set.js';
import { newResultSet, type ResultSet } from '../../src/model/index.js';
import { folderHistory, gitBranchHistory, type GitBranchOptions, type HistoryStore } from '../../src/store/history/index.js';

/** Runs git synchronously in `cwd` with a fixed identity (test setup only). */
export function gitSync(cwd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', ...env },
  }).trim();
}

/** A bare repository standing in for the remote. */
export function bareRepo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  gitSync(dir, ['init', '--quiet', '--bare']);
  return dir;
}

/** An empty work repository (a job's checkout) with `remote` as origin. */
export function workRepo(dir: string, remote?: string): string {
  mkdirSync(dir, { recursive: true });
  gitSync(dir, ['init', '--quiet', '-b', 'main']);
  if (remote !== undefined) gitSync(dir, ['remote', 'add', 'origin', remote]);
  return dir;
}

/** A commit id that looks real (tests of the store need no real commit). */
export function fakeCommit(n: number): string {
  return n.toString(16).padStart(40, 'c');
}

/** A small run: `benchmarks` benchmarks with one time metric of 5 samples derived from `seed`. */
export function sampleRun(commit: string, created: string, testbed = 'bed-a', seed = 1, benchmarks = 3): ResultSet {
  const set = newResultSet(
    created,
    Array.from({ length: benchmarks }, (_, i) => ({
      id: `bench-${i}`,
      status: 'ok' as const,
      metrics: {
        time: { unit: 's', direction: 'lower' as const, samples: Array.from({ length: 5 }, (_, k) => 0.001 * (1 + i) + 1e-6 * ((seed * 31 + k * 7) % 97)) },
      },
    })),
  );
  return { ...set, commit, testbed: { id: testbed } };
}

/** A validator for the store: the ResultSet schema check the CLI uses. */
export const validate = (data: unknown, file: string): ResultSet => validateResultSet(data, file);

export function openFolder(root: string): HistoryStore {
  return folderHistory(root, validate);
}

export function openBranch(options: GitBranchOptions): HistoryStore {
  return gitBranchHistory(options, validate);
}
