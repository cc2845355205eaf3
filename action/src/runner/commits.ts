import { execFileSync } from 'node:child_process';

/**
 * The commits `perf-gate bisect` searches: reading a repository's first-parent
 * history, nothing more. Read-only git plumbing; the checkouts themselves are
 * worktree.ts's.
 */

/** One commit as the bisect report names it. */
export interface CommitSummary {
  sha: string;
  subject: string;
  /** "Name <email>". */
  author: string;
}

function git(repo: string, args: readonly string[]): string {
  return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

// NUL separates the fields and RS the records: a subject may hold any other character.
const FORMAT = '--format=%H%x00%s%x00%an <%ae>%x00%P%x1e';

interface LoggedCommit extends CommitSummary {
  parents: string[];
}

function parseLog(text: string): LoggedCommit[] {
  return text
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record.length > 0)
    .map((record) => {
      const [sha = '', subject = '', author = '', parents = ''] = record.split('\x00');
      return { sha, subject, author, parents: parents.trim().split(' ').filter(Boolean) };
    });
}

/** The subject and author of one commit (a full sha). */
export function commitSummary(repo: string, sha: string): CommitSummary {
  const [commit] = parseLog(git(repo, ['log', '-1', FORMAT, '--end-of-options', sha]));
  if (!commit) throw new Error(`git log printed nothing for ${sha}`);
  return { sha: commit.sha, subject: commit.subject, author: commit.author };
}

/** Is `ancestor` an ancestor of (or the same commit as) `descendant`? */
export function isAncestor(repo: string, ancestor: string, descendant: string): boolean {
  try {
    git(repo, ['merge-base', '--is-ancestor', ancestor, descendant]);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first-parent path from `good` (excluded) to `bad` (included), oldest
 * first: `git rev-list --first-parent --reverse good..bad`. Null when `good`
 * is not on bad's first-parent line (reachable only through a merged
 * branch), where the path would not start at good.
 */
export function firstParentPath(repo: string, good: string, bad: string): CommitSummary[] | null {
  const path = parseLog(git(repo, ['log', '--first-parent', '--reverse', FORMAT, `${good}..${bad}`, '--']));
  if (path.length === 0 || path[0]!.parents[0] !== good) return null;
  return path.map(({ sha, subject, author }) => ({ sha, subject, author }));
}
