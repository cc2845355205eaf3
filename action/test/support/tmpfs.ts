import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A real small file system for the file-system fault tests: a tmpfs mounted
 * at `dir` (root only, as CI runs), unmounted afterwards whatever happens,
 * before the temporary folder around it is removed.
 */
export async function withTmpfs(dir: string, options: string, fn: (mount: string) => Promise<void>): Promise<void> {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  try {
    await fn(dir);
  } finally {
    execFileSync('umount', [dir]);
  }
}

/** Takes the last free byte of a (tmpfs) folder. */
export function fillUp(dir: string): void {
  execFileSync('sh', ['-c', `head -c 1000000 /dev/zero > ${join(dir, 'filler')} || true`]);
}
