/**
 * The environment change above a report's table, in words: "rustc 1.82.0 →
 * 1.83.0; Cargo.lock changed (3 packages: serde 1.0.210 → 1.0.214, …);
 * kernel 6.1.0-25-amd64 → 6.1.0-26-amd64". Plain text: each face escapes it.
 */
import type { EnvironmentChange, PackageChange } from '../model/index.js';

/** Changes named before "and N more"; packages named per lockfile. */
const CHANGES_SHOWN = 8;
const PACKAGES_SHOWN = 5;
/** Longest text of one change: a toolchain's whole version line can be long. */
const CHANGE_CHARS = 240;

/** The version in a tool's version line ("rustc 1.83.0 (90b35a623 2024-11-26)" → "1.83.0"), or the whole line. */
export function versionOf(line: string): string {
  return /\d+(?:\.\d+)+(?:[-+~][\w.+~-]*)?/.exec(line)?.[0] ?? /\bgo\d+(?:\.\d+)*/.exec(line)?.[0] ?? line;
}

function packageText(p: PackageChange): string {
  if (p.before === null) return `${p.name} ${p.after} (added)`;
  if (p.after === null) return `${p.name} ${p.before} (removed)`;
  return `${p.name} ${p.before} → ${p.after}`;
}

function lockfileText(change: Extract<EnvironmentChange, { kind: 'lockfile' }>): string {
  if (change.before === null) return `${change.path} added`;
  if (change.after === null) return `${change.path} removed`;
  const packages = change.packages;
  if (packages === undefined) return `${change.path} changed`;
  if (packages.length === 0) return `${change.path} changed (no package version changed)`;
  const shown = packages.slice(0, PACKAGES_SHOWN).map(packageText).join(', ');
  const more = packages.length > PACKAGES_SHOWN ? `, and ${packages.length - PACKAGES_SHOWN} more` : '';
  return `${change.path} changed (${packages.length} package${packages.length === 1 ? '' : 's'}: ${shown}${more})`;
}

/** One change in words. */
export function environmentChangeText(change: EnvironmentChange): string {
  const text = ((): string => {
    switch (change.kind) {
      case 'kernel':
      case 'microcode':
        return `${change.kind} ${change.before} → ${change.after}`;
      case 'toolchain': {
        const [was, now] = [versionOf(change.before ?? ''), versionOf(change.after ?? '')];
        return was !== now ? `${change.name} ${was} → ${now}` : `${change.name} "${change.before}" → "${change.after}"`;
      }
      case 'flag':
        return `${change.name} ${change.before === null ? '(unset)' : JSON.stringify(change.before)} → ${change.after === null ? '(unset)' : JSON.stringify(change.after)}`;
      case 'lockfile':
        return lockfileText(change);
    }
  })();
  return text.length > CHANGE_CHARS ? `${text.slice(0, CHANGE_CHARS - 1)}…` : text;
}

/** All changes on one line, at most CHANGES_SHOWN of them. */
export function environmentChangesText(changes: readonly EnvironmentChange[]): string {
  const shown = changes.slice(0, CHANGES_SHOWN).map(environmentChangeText).join('; ');
  return changes.length > CHANGES_SHOWN ? `${shown}; and ${changes.length - CHANGES_SHOWN} more` : shown;
}

/** The sentence above the table, or '' when nothing changed. */
export function environmentSentence(changes: readonly EnvironmentChange[] | undefined): string {
  if (changes === undefined || changes.length === 0) return '';
  return `Environment changed since the baseline: ${environmentChangesText(changes)}.`;
}
