import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/**
 * The dependency lockfiles of the repository and a hash of each: a bumped
 * dependency changes a lockfile, so two runs whose hashes differ ran different
 * code even at an unchanged line of the project's own.
 */

/** Lockfile names by ecosystem; requirements*.txt and *.lockfile are matched by pattern below. */
const LOCKFILE_NAMES = new Set([
  'Cargo.lock',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'go.sum',
  'poetry.lock',
  'uv.lock',
  'Pipfile.lock',
  'pom.xml',
  'gradle.lockfile',
  'Package.resolved',
  'Gemfile.lock',
  'composer.lock',
  'packages.lock.json',
]);

/** Whether a repository path names a lockfile. */
export function isLockfile(path: string): boolean {
  const name = posix.basename(path);
  return LOCKFILE_NAMES.has(name) || /^requirements.*\.txt$/.test(name) || /\.lockfile$/.test(name);
}

/** At most this many lockfiles are recorded (a monorepo with a pom.xml per module), the first in path order. */
export const MAX_LOCKFILES = 200;

/**
 * The tracked lockfiles under `dir` (paths relative to it, "/" separated,
 * sorted), from `git ls-files`: untracked files and vendored trees
 * (node_modules, target) are not the project's lockfiles. Not a git
 * repository: none.
 */
export function trackedLockfiles(dir: string): string[] {
  let listing: string;
  try {
    listing = execFileSync('git', ['-C', dir, 'ls-files', '-z'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024 });
  } catch {
    return [];
  }
  return listing
    .split('\0')
    .filter((p) => p !== '' && isLockfile(p))
    .sort()
    .slice(0, MAX_LOCKFILES);
}

/** The first 16 hex digits of a SHA-256: enough to tell versions of one file apart. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

/** Each tracked lockfile under `dir` → the hash of its contents in the working tree (a file deleted there is left out). */
export function lockfileHashes(dir: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const path of trackedLockfiles(dir)) {
    try {
      hashes[path] = contentHash(readFileSync(join(dir, path)));
    } catch {
      // Tracked but deleted in the working tree: nothing was built from it.
    }
  }
  return hashes;
}
