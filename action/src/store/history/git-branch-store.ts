import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../model/index.js';
import type { Backend, Change, Planner, Snapshot } from './backend.js';
import type { ValidateResultSet } from './codec.js';
import { historyStore, type HistoryStore } from './history-store.js';
import { authEnv, catFileBatch, git, GitCommandError, gitText, type GitAuth } from './git.js';

/** The default data branch in the action. */
export const DEFAULT_DATA_BRANCH = 'perf-gate-data';

export interface GitBranchOptions {
  /** A local git repository to work in (the project's checkout); its working tree and index are never touched. */
  repo: string;
  /** The remote holding the data branch (a name such as "origin", or a URL/path); null: the local branch `refs/heads/<branch>` itself. */
  remote: string | null;
  /** The data branch; default "perf-gate-data". */
  branch?: string;
  /** Fetch depth (1 is enough to read and to append); undefined fetches the whole branch history. */
  depth?: number;
  /** Attempts per write before giving up (each after a push race); default 10. */
  maxAttempts?: number;
  /** Base of the jittered exponential backoff between attempts, in ms; default 100 (capped at 30 times that). */
  backoffMs?: number;
  /** A number in [0, 1) for the jitter; injectable for tests. */
  random?: () => number;
  /** The data branch's commit author; default perf-gate <perf-gate@localhost>. */
  identity?: { name: string; email: string };
  /** Refuse every write (a pull-request job only reads). */
  readOnly?: boolean;
  /** A token for fetch and push, given to those git processes only (git.ts authEnv). */
  auth?: GitAuth;
}

const RACE =
  /non-fast-forward|fetch first|\[rejected\]|cannot lock ref|failed to update ref|unable to update local ref|incorrect old value|stale info|reference already exists|but expected|failed to lock/i;

/**
 * The history on a data branch of a git repository, never checked out.
 *
 * Reading fetches the branch into a private ref and reads files with
 * `git ls-tree` and one `git cat-file --batch`. Writing builds the new commit
 * with plumbing in a temporary index (read-tree of the fetched tip,
 * hash-object, update-index, write-tree, commit-tree) and pushes it; a push
 * refused because another writer got there first (non-fast-forward, a ref
 * lock) re-fetches and re-plans from the new tip, at most `maxAttempts`
 * times, with jittered exponential backoff. A planner only adds its own file
 * (or, for compaction, rewrites from the fresh view), so a retry never
 * overwrites another writer's run. The remote moves from one whole commit to
 * the next, so a writer killed at any point leaves the branch readable and
 * loses at most its own run.
 */
export function gitBranchBackend(options: GitBranchOptions): Backend {
  const branch = options.branch ?? DEFAULT_DATA_BRANCH;
  const remote = options.remote;
  const maxAttempts = options.maxAttempts ?? 10;
  const backoff = options.backoffMs ?? 100;
  const random = options.random ?? Math.random;
  const identity = options.identity ?? { name: 'perf-gate', email: 'perf-gate@localhost' };
  const repo = options.repo;
  const description = remote === null ? `branch ${branch} of ${repo}` : `branch ${branch} of ${remote}`;

  /** The branch's tip now, or undefined when the branch does not exist yet. */
  async function fetchTip(): Promise<string | undefined> {
    if (remote === null) return resolve(`refs/heads/${branch}`);
    // A ref of our own per fetch: concurrent processes in one repository never
    // contend for a ref lock, and a killed fetch leaves nothing others trip on.
    const scratch = `refs/perf-gate/fetch/${process.pid}-${randomBytes(4).toString('hex')}`;
    const args = [
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      ...(options.depth !== undefined ? [`--depth=${options.depth}`] : []),
      remote,
      `+refs/heads/${branch}:${scratch}`,
    ];
    try {
      await git(repo, args, { env: authEnv(options.auth) });
    } catch (error) {
      if (error instanceof GitCommandError && /couldn't find remote ref/i.test(error.stderr)) return undefined;
      // A reader without credentials (a pull-request job whose checkout kept no
      // token) reads the copy an earlier workflow step fetched with its own.
      const fetched = options.readOnly ? await resolve(`refs/remotes/${remote}/${branch}`) : undefined;
      if (fetched !== undefined) return fetched;
      if (error instanceof GitCommandError) {
        const why = error.stderr.trim().split('\n')[0] ?? '';
        throw new InputError(
          description,
          `cannot fetch the data branch (${why}); a job without push access can fetch it in an earlier step into refs/remotes/${remote}/${branch} (docs/history.md)`,
        );
      }
      throw error;
    }
    const tip = await resolve(scratch);
    // Keep the fetched objects reachable from one stable ref (later fetches
    // negotiate from it); best effort, a lost race here costs nothing.
    await git(repo, ['update-ref', `refs/perf-gate/${branch}`, tip!]).catch(() => undefined);
    await git(repo, ['update-ref', '-d', scratch]).catch(() => undefined);
    return tip;
  }

  async function resolve(ref: string): Promise<string | undefined> {
    try {
      return await gitText(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    } catch {
      return undefined;
    }
  }

  function viewAt(tip: string | undefined): Snapshot {
    return {
      async paths(testbed) {
        if (tip === undefined) return [];
        const out = await git(repo, ['ls-tree', '-r', '--name-only', '-z', tip, ...(testbed !== undefined ? ['--', `${testbed}/`] : [])]);
        return out.stdout
          .toString('utf8')
          .split('\0')
          .filter((p) => p !== '');
      },
      async read(paths) {
        if (tip === undefined) return new Map(paths.map((p) => [p, undefined]));
        const blobs = await catFileBatch(
          repo,
          paths.map((p) => `${tip}:${p}`),
        );
        return new Map(paths.map((p) => [p, blobs.get(`${tip}:${p}`)]));
      },
    };
  }

  /** The commit that applies `change` on top of `tip`, built without a worktree. */
  async function commitOf(tip: string | undefined, change: Change): Promise<string> {
    const temp = mkdtempSync(join(tmpdir(), 'perf-gate-index-'));
    try {
      const env = { GIT_INDEX_FILE: join(temp, 'index') };
      await git(repo, tip !== undefined ? ['read-tree', tip] : ['read-tree', '--empty'], { env });
      const lines: string[] = [];
      for (const { path, bytes } of change.add) {
        const blob = await gitText(repo, ['hash-object', '-w', '--stdin'], { input: bytes });
        lines.push(`100644 ${blob}\t${path}`);
      }
      const zero = '0'.repeat((tip ?? '').length || 40);
      for (const path of change.remove) lines.push(`0 ${zero}\t${path}`);
      await git(repo, ['update-index', '--index-info'], { env, input: lines.map((l) => `${l}\n`).join('') });
      const tree = await gitText(repo, ['write-tree'], { env });
      const who = { GIT_AUTHOR_NAME: identity.name, GIT_AUTHOR_EMAIL: identity.email, GIT_COMMITTER_NAME: identity.name, GIT_COMMITTER_EMAIL: identity.email };
      return await gitText(repo, ['commit-tree', tree, ...(tip !== undefined ? ['-p', tip] : []), '-m', change.message], { env: who });
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }

  /** Moves the branch from `tip` to `commit`; rejects when another writer moved it first. */
  async function publish(commit: string, tip: string | undefined): Promise<void> {
    if (remote === null) {
      await git(repo, ['update-ref', `refs/heads/${branch}`, commit, tip ?? '0'.repeat(commit.length)]);
    } else {
      await git(repo, ['push', '--quiet', '--no-verify', remote, `${commit}:refs/heads/${branch}`], { env: authEnv(options.auth) });
    }
  }

  return {
    description,
    async snapshot() {
      return viewAt(await fetchTip());
    },
    async apply(plan: Planner): Promise<Change | undefined> {
      if (options.readOnly) throw new Error(`the history on ${description} is open read-only (a pull-request job never writes)`);
      let lastError: unknown;
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        const tip = await fetchTip();
        const change = await plan(viewAt(tip));
        if (change === undefined) return undefined;
        const commit = await commitOf(tip, change);
        try {
          await publish(commit, tip);
          if (remote !== null) await git(repo, ['update-ref', `refs/perf-gate/${branch}`, commit]).catch(() => undefined);
          return change;
        } catch (error) {
          if (!(error instanceof GitCommandError)) throw error;
          // A race says so in its message; anything else is a race only if the branch moved meanwhile.
          if (!RACE.test(error.stderr) && (await fetchTip()) === tip) throw error;
          lastError = error;
        }
        const delay = Math.min(backoff * 2 ** (attempt - 1), backoff * 30) * (0.5 + random());
        await new Promise((r) => setTimeout(r, delay));
      }
      throw new Error(
        `gave up writing to ${description} after ${maxAttempts} attempts, each overtaken by another writer; last: ${(lastError as Error).message}`,
      );
    },
  };
}

/** The history on a data branch (see gitBranchBackend). */
export function gitBranchHistory(options: GitBranchOptions, validate: ValidateResultSet): HistoryStore {
  return historyStore(gitBranchBackend(options), validate);
}
