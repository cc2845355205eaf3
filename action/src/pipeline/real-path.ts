import { realpathSync } from 'node:fs';

/**
 * The path with every symbolic link resolved, or the path as given when it
 * does not exist (yet): git worktrees, suite workdirs and store folders are
 * compared by where they really are.
 */
export function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
