/**
 * What a run checks before it writes a store: that a folder can be written
 * and does not lead out of the repository through a symbolic link, and that
 * a data branch's remote answers. Checked before any suite runs, so a run
 * that could not be stored is not measured for minutes first.
 */
import { accessSync, constants, existsSync, mkdirSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from '../model/index.js';
import { git, GitCommandError } from './history/git.js';

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

/** A folder store can be created and written (root is tried for real: a read-only mount refuses even root). */
export async function checkFolderWritable(dir: string): Promise<void> {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new InputError(dir, `the history folder cannot be written: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** A data branch's remote must answer before a long measurement is spent on a run that cannot be stored. */
export async function checkRemoteReachable(repo: string, location: { branch: string; remote: string }): Promise<void> {
  try {
    await git(repo, ['ls-remote', '--heads', location.remote, location.branch]);
  } catch (error) {
    const detail = error instanceof GitCommandError ? error.stderr.trim().split('\n')[0] : String(error);
    throw new InputError(
      'history',
      `the data branch ${location.branch} cannot be written: the remote ${JSON.stringify(location.remote)} of ${repo} does not answer (${detail})`,
    );
  }
}

/**
 * Refuses to write a store folder that lies inside the repository by its
 * path but outside it in fact, through a symbolic link somewhere between:
 * a link committed to the repository would make the main-branch job write
 * wherever it points. A folder configured outside the repository (an
 * absolute path in perf-gate.yml) is the user's choice and is written.
 */
export function refuseRedirectedFolder(repo: string, folder: string, key: string): void {
  const root = realpathOrSelf(resolve(repo));
  const lexical = resolve(folder);
  if (lexical !== resolve(repo) && !lexical.startsWith(`${resolve(repo)}/`)) return;
  // The nearest part of the path that exists says where writes would land.
  let existing = lexical;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const real = realpathOrSelf(existing);
  if (real === root || real.startsWith(`${root}/`)) return;
  throw new InputError(
    key,
    `${lexical} leads outside the repository (to ${real}) through a symbolic link; perf-gate does not write its store through one. Configure the real path in perf-gate.yml if that place is meant`,
  );
}
