/**
 * What one preflight check found. Statuses, from good to bad:
 * - `ok`: the setting is what stable timings need;
 * - `info`: a fact worth recording (CPU model, kernel), never a problem;
 * - `advice`: would make timings steadier, but many good runners live without
 *   it (SMT on, no isolated CPUs); shown, never fails the job;
 * - `warn`: changes timings between runs (powersave governor, turbo, swap in
 *   use, load, throttling, a noisy probe); `strict` fails the job on these;
 * - `unknown`: the check could not read its source (a VM or container has no
 *   such /sys entry); it names what it could not read and never fails.
 */
export type FindingStatus = 'ok' | 'info' | 'advice' | 'warn' | 'unknown';

/** A value a check observed, as read (for the JSON report and the testbed). */
export type Observed = string | number | boolean | null;

export interface Finding {
  /** Stable check name: "governor", "turbo", "smt", "isolation", "load", "swap", "throttle", "aslr", "perf-events", "cpu", "kernel", "noise". */
  check: string;
  status: FindingStatus;
  /** One sentence for people. */
  message: string;
  /** A command that fixes it, when there is one (run as root; scripts/tune applies most). */
  fix?: string;
  /** The paths the check could not read (under the injected root, shown as absolute kernel paths). */
  unreadable?: string[];
  /** The raw values behind the finding, keyed by name. */
  observed?: Record<string, Observed>;
}

/** Levels of the `preflight` input and flag: `strict` fails on `warn` findings, `warn` annotates, `off` skips. */
export type PreflightLevel = 'strict' | 'warn' | 'off';

export const PREFLIGHT_LEVELS: readonly PreflightLevel[] = ['strict', 'warn', 'off'];

/** A finding for a check whose sources could not be read at all. */
export function unknownFinding(check: string, what: string, paths: string[]): Finding {
  return {
    check,
    status: 'unknown',
    message: `${what}: could not read ${paths.join(', ')} (a VM or container often hides it); not checked`,
    unreadable: paths,
  };
}
