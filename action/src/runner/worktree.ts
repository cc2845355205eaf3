import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../model/index.js';

/** The base side of an A/B run: a detached git worktree in a temporary folder. */
export interface BaseCheckout {
  /** Root of the worktree. */
  dir: string;
  /** The full commit id the ref resolved to. */
  commit: string;
  /** Removes the worktree and its folder; safe to call twice. */
  remove(): void;
}

function git(cwd: string, args: readonly string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The top folder of the git repository containing `dir`; an InputError blaming `flag` outside one. */
export function repositoryRoot(dir: string, flag = '--ab'): string {
  try {
    return git(dir, ['rev-parse', '--show-toplevel']);
  } catch {
    throw new InputError(flag, `${dir} is not inside a git repository; interleaved A/B runs check the commits out with git worktree`);
  }
}

/** The commit HEAD (or another commit-ish) points at, or undefined outside a repository or for an unknown ref. */
export function headCommit(dir: string, ref = 'HEAD'): string | undefined {
  try {
    return git(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  } catch {
    return undefined;
  }
}

/**
 * Checks `ref` out into a new temporary worktree (detached, so no branch is
 * created or moved). The caller removes it in a `finally`.
 */
export function addBaseWorktree(repo: string, ref: string, flag = '--ab'): BaseCheckout {
  let commit: string;
  try {
    commit = git(repo, ['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`]);
  } catch {
    throw new InputError(flag, `"${ref}" is not a commit in ${repo}; fetch it first (actions/checkout with fetch-depth: 0)`);
  }
  // Not /tmp/perf-…: perf reads any file under that prefix as a JIT's symbol map, so a profile of the base side would name no function.
  const dir = mkdtempSync(join(tmpdir(), 'pg-base-'));
  try {
    git(repo, ['worktree', 'add', '--detach', '--quiet', dir, commit]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new InputError(flag, `git worktree add failed: ${(error as { stderr?: string }).stderr?.trim() || String(error)}`);
  }
  let removed = false;
  return {
    dir,
    commit,
    remove() {
      if (removed) return;
      removed = true;
      try {
        git(repo, ['worktree', 'remove', '--force', dir]);
      } catch {
        // Fall through: the folder is removed and the stale entry pruned below.
      }
      rmSync(dir, { recursive: true, force: true });
      try {
        git(repo, ['worktree', 'prune']);
      } catch {
        // Nothing more to clean.
      }
    },
  };
}
