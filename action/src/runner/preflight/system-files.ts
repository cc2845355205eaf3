import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Read-only access to the kernel's /sys and /proc files under an injected root
 * ("/" on a real machine, a temporary folder in tests), so every check can be
 * exercised on fake bare-metal trees. Reads never throw: a file that is absent
 * or unreadable (a VM, a container) yields undefined and the check says so.
 */
export interface SystemFiles {
  /** The root the absolute paths are resolved under (shown in reports). */
  readonly root: string;
  /** The trimmed content of an absolute path such as "/proc/loadavg", or undefined when it cannot be read. */
  read(path: string): string | undefined;
  /** The entry names of a folder, sorted, or undefined when it cannot be listed. */
  list(path: string): string[] | undefined;
}

/** SystemFiles over the real file system below `root`. */
export function systemFiles(root = '/'): SystemFiles {
  const resolve = (path: string): string => join(root, path);
  return {
    root,
    read(path) {
      try {
        return readFileSync(resolve(path), 'utf8').trim();
      } catch {
        return undefined;
      }
    },
    list(path) {
      try {
        return readdirSync(resolve(path)).sort();
      } catch {
        return undefined;
      }
    },
  };
}
