import { git, GitCommandError, gitText } from './git.js';
import type { ChainCommit } from './select.js';

/**
 * The few facts baseline selection needs from the project's own repository,
 * each one git command. The repository must hold the history being asked
 * about (in a CI checkout: fetch-depth 0, or deep enough for the merge base
 * and the search distance).
 */

/** The full id of a commit-ish, or undefined when it does not name a commit. */
export async function resolveCommit(repo: string, ref: string): Promise<string | undefined> {
  try {
    return await gitText(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  } catch {
    return undefined;
  }
}

/** The ref a symbolic ref points at (origin/HEAD → "refs/remotes/origin/main"), or undefined. */
export async function symbolicRef(repo: string, name: string): Promise<string | undefined> {
  try {
    return (await gitText(repo, ['symbolic-ref', '--quiet', name])) || undefined;
  } catch {
    return undefined;
  }
}

/** The merge base of two commits, or undefined when they share no history (or one is missing). */
export async function mergeBase(repo: string, head: string, base: string): Promise<string | undefined> {
  try {
    return (await gitText(repo, ['merge-base', '--end-of-options', head, base])) || undefined;
  } catch (error) {
    if (error instanceof GitCommandError && (error.exitCode === 1 || /not a valid|unknown revision|bad revision/i.test(error.stderr))) return undefined;
    throw error;
  }
}

/** `start` and up to `limit` of its first-parent ancestors, nearest first, with committer dates (UTC). */
export async function firstParentChain(repo: string, start: string, limit: number): Promise<ChainCommit[]> {
  const out = await gitText(repo, ['log', '--first-parent', `--max-count=${limit + 1}`, '--format=%H %cI', '--end-of-options', start]);
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [commit, date] = l.split(' ') as [string, string];
      // UTC, to the second, like every other time the store reports.
      return { commit, date: new Date(date).toISOString().replace(/\.\d{3}Z$/, 'Z') };
    });
}

/**
 * The release tag before `head`: the nearest tag matching `pattern`
 * (a glob, e.g. "v*") reachable from `head`, not counting tags on `head`
 * itself (the release being made). Undefined when there is none.
 */
export async function previousReleaseTag(repo: string, head: string, pattern: string): Promise<{ tag: string; commit: string } | undefined> {
  const onHead = (await gitText(repo, ['tag', '--list', '--points-at', head, pattern])).split('\n').filter((t) => t !== '');
  try {
    const tag = await gitText(repo, [
      'describe',
      '--tags',
      '--abbrev=0',
      '--match',
      pattern,
      ...onHead.flatMap((t) => ['--exclude', t]),
      '--end-of-options',
      head,
    ]);
    const commit = await resolveCommit(repo, `refs/tags/${tag}`);
    return commit !== undefined ? { tag, commit } : undefined;
  } catch (error) {
    if (error instanceof GitCommandError) return undefined;
    throw error;
  }
}

/** Whether the repository is a shallow clone (its chain may end early). */
export async function isShallow(repo: string): Promise<boolean> {
  return (await git(repo, ['rev-parse', '--is-shallow-repository'])).stdout.toString('utf8').trim() === 'true';
}

/** Whether `ancestor` is an ancestor of (or the same commit as) `descendant`. */
export async function isAncestor(repo: string, ancestor: string, descendant: string): Promise<boolean> {
  try {
    await git(repo, ['merge-base', '--is-ancestor', '--end-of-options', ancestor, descendant]);
    return true;
  } catch (error) {
    if (error instanceof GitCommandError && error.exitCode === 1) return false;
    throw error;
  }
}

/**
 * The commits of `to`'s first-parent chain that `from` cannot reach, oldest
 * first (`git rev-list --first-parent from..to`): the main-line commits that
 * came in after `from`, up to and including `to`.
 */
export async function firstParentRange(repo: string, from: string, to: string): Promise<string[]> {
  const out = await gitText(repo, ['rev-list', '--first-parent', '--reverse', '--end-of-options', `${from}..${to}`]);
  return out.split('\n').filter((l) => l !== '');
}

/** Every commit of `head`'s first-parent chain, oldest first (`git rev-list --first-parent --reverse`). */
export async function firstParentLine(repo: string, head: string): Promise<string[]> {
  const out = await gitText(repo, ['rev-list', '--first-parent', '--reverse', '--end-of-options', head]);
  return out.split('\n').filter((l) => l !== '');
}

/** Whether `dir` is inside a git work tree (or is a git directory). */
export async function isGitRepository(dir: string): Promise<boolean> {
  try {
    await gitText(dir, ['rev-parse', '--git-dir']);
    return true;
  } catch {
    return false;
  }
}
