import { cutText } from './cut-text.js';

/**
 * The software a run was measured with, beside the machine (the Testbed):
 * what a routine upgrade changes without changing the hardware. A change
 * here is reported next to the verdict as a likely cause; it never splits
 * the history the way a different testbed does.
 */
export interface Environment {
  /** The kernel release, e.g. "6.1.0-26-amd64". */
  kernel?: string;
  /** The CPU microcode revision, e.g. "0xa201016" (from /proc/cpuinfo). */
  microcode?: string;
  /** Tool name → the first line it prints of its version, e.g. rustc → "rustc 1.83.0 (90b35a623 2024-11-26)". */
  toolchains?: Record<string, string>;
  /** Build-flag variables the suites run with (CFLAGS, RUSTFLAGS, GOFLAGS, …) → their value. */
  flags?: Record<string, string>;
  /** Lockfile path (relative to the config's folder, "/" separated) → the first 16 hex digits of its SHA-256. */
  lockfiles?: Record<string, string>;
}

/** One package whose version a lockfile change moved: `before` or `after` is null when it was added or removed. */
export interface PackageChange {
  name: string;
  before: string | null;
  after: string | null;
}

/**
 * One difference between the baseline's environment and the current one.
 * `machine` kinds (kernel, microcode, toolchain, flag) change under unchanged
 * code and end a stretch of the history; a lockfile change comes with a commit.
 */
export type EnvironmentChange =
  | { kind: 'kernel' | 'microcode'; before: string | null; after: string | null }
  | { kind: 'toolchain' | 'flag'; name: string; before: string | null; after: string | null }
  /** `packages` is absent when the lockfile's contents at both commits could not be read or parsed; then only "changed" is known. */
  | { kind: 'lockfile'; path: string; before: string | null; after: string | null; packages?: PackageChange[] };

/**
 * The bounds a stored run's environment keeps (the ResultSet schema's, which
 * every reader applies): what the runner reads is cut to them before the run
 * is measured, never refused, since a long CFLAGS is no reason not to gate.
 */
export const ENVIRONMENT_LIMITS = {
  kernel: 200,
  microcode: 100,
  toolchains: { entries: 50, chars: 300 },
  flags: { entries: 50, chars: 2000 },
  lockfiles: { entries: 200 },
} as const;

/** The first `entries` of a record (in key order), each value cut to `chars`. */
function boundRecord(record: Record<string, string>, entries: number, chars: number): Record<string, string> {
  const keys = Object.keys(record).sort();
  return Object.fromEntries(keys.slice(0, entries).map((k) => [k, cutText(record[k]!, chars)]));
}

/** The environment within ENVIRONMENT_LIMITS: long values cut with an ellipsis, the entries past a record's bound left out. */
export function boundedEnvironment(env: Environment): Environment {
  const L = ENVIRONMENT_LIMITS;
  return {
    ...(env.kernel !== undefined ? { kernel: cutText(env.kernel, L.kernel) } : {}),
    ...(env.microcode !== undefined ? { microcode: cutText(env.microcode, L.microcode) } : {}),
    ...(env.toolchains ? { toolchains: boundRecord(env.toolchains, L.toolchains.entries, L.toolchains.chars) } : {}),
    ...(env.flags ? { flags: boundRecord(env.flags, L.flags.entries, L.flags.chars) } : {}),
    ...(env.lockfiles ? { lockfiles: boundRecord(env.lockfiles, L.lockfiles.entries, Number.MAX_SAFE_INTEGER) } : {}),
  };
}
