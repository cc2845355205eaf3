import type { SystemFiles } from './system-files.js';

/**
 * The kernel boot parameters from /proc/cmdline, name to value ("" for a bare
 * flag), up to the "--" that hands the rest to init. Undefined when unreadable.
 */
export function bootParams(files: SystemFiles): Map<string, string> | undefined {
  const cmdline = files.read('/proc/cmdline');
  if (cmdline === undefined) return undefined;
  const params = new Map<string, string>();
  for (const word of cmdline.split(/\s+/)) {
    if (word === '--') break;
    if (word === '') continue;
    const eq = word.indexOf('=');
    if (eq < 0) params.set(word, '');
    else params.set(word.slice(0, eq), word.slice(eq + 1));
  }
  return params;
}
