/**
 * What changed in the environment between two runs (model/environment.ts).
 * Pure: environments in, differences out. Package names of a changed lockfile
 * need both versions of the file, so the pipeline adds them (git).
 */
import type { Environment, EnvironmentChange } from '../model/index.js';

/** Keys of two records, in the order: `before`'s, then `after`'s new ones. */
function keysOf(before: Record<string, string> | undefined, after: Record<string, string> | undefined): string[] {
  return [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
}

/**
 * The differences from `before` to `after`, machine first (kernel, microcode,
 * toolchains, flags), then lockfiles. A side that recorded no environment
 * (results from a perf-gate before this, or converted from harness files)
 * gives none: unknown is not a change. A part one side did not record at all
 * (no kernel readable) is not compared either.
 */
export function environmentChanges(before: Environment | undefined, after: Environment | undefined): EnvironmentChange[] {
  if (before === undefined || after === undefined) return [];
  const changes: EnvironmentChange[] = [];
  for (const kind of ['kernel', 'microcode'] as const) {
    if (before[kind] !== undefined && after[kind] !== undefined && before[kind] !== after[kind]) {
      changes.push({ kind, before: before[kind], after: after[kind] });
    }
  }
  const named = (kind: 'toolchain' | 'flag', b: Record<string, string> | undefined, a: Record<string, string> | undefined): void => {
    for (const name of keysOf(b, a)) {
      const was = b?.[name] ?? null;
      const now = a?.[name] ?? null;
      if (was !== now) changes.push({ kind, name, before: was, after: now });
    }
  };
  // A tool only one side asked about (a suite added since) is not a change of that tool.
  const asked = (side: Record<string, string> | undefined, other: Record<string, string> | undefined): Record<string, string> =>
    Object.fromEntries(Object.entries(side ?? {}).filter(([name]) => other?.[name] !== undefined));
  named('toolchain', asked(before.toolchains, after.toolchains), asked(after.toolchains, before.toolchains));
  named('flag', before.flags, after.flags);
  if (before.lockfiles !== undefined && after.lockfiles !== undefined) {
    for (const path of keysOf(before.lockfiles, after.lockfiles)) {
      const was = before.lockfiles[path] ?? null;
      const now = after.lockfiles[path] ?? null;
      if (was !== now) changes.push({ kind: 'lockfile', path, before: was, after: now });
    }
  }
  return changes;
}
