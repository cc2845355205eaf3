/**
 * Names the packages behind a report's lockfile changes: the gate knows only
 * that a lockfile's hash moved; both versions of the file (the baseline's
 * commit through git, the current one from the checkout) say which packages
 * moved. A version whose hash does not match what the run recorded (a dirty
 * tree, a shallow clone without the baseline's commit) names nothing: the
 * report then says "changed" and no more.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateReport } from '../gate/index.js';
import type { EnvironmentChange } from '../model/index.js';
import { contentHash } from '../runner/lockfiles.js';
import { lockfilePackages, packageChanges } from '../runner/lockfile-packages.js';

/** The file at `commit` (`path` relative to `dir`), or null. */
function atCommit(dir: string, commit: string | undefined, path: string): Buffer | null {
  // A stored run's commit is data: only a hex object id reaches git, after --end-of-options (never an option such as --output=file).
  if (commit === undefined || !/^[0-9a-f]{7,64}$/.test(commit)) return null;
  try {
    return execFileSync('git', ['-C', dir, 'show', '--end-of-options', `${commit}:./${path}`], {
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch {
    return null;
  }
}

function inTree(dir: string, path: string): Buffer | null {
  try {
    return readFileSync(join(dir, path));
  } catch {
    return null;
  }
}

/** The first candidate whose hash is the recorded one. */
function matching(hash: string, ...candidates: Array<() => Buffer | null>): string | null {
  for (const candidate of candidates) {
    const bytes = candidate();
    if (bytes !== null && contentHash(bytes) === hash) return bytes.toString('utf8');
  }
  return null;
}

function named(change: EnvironmentChange, dir: string, commits: { baseline?: string; current?: string }): EnvironmentChange {
  if (change.kind !== 'lockfile' || change.before === null || change.after === null) return change;
  const before = matching(change.before, () => atCommit(dir, commits.baseline, change.path));
  const after = matching(
    change.after,
    () => inTree(dir, change.path),
    () => atCommit(dir, commits.current, change.path),
  );
  if (before === null || after === null) return change;
  const [was, now] = [lockfilePackages(change.path, before), lockfilePackages(change.path, after)];
  return was === null || now === null ? change : { ...change, packages: packageChanges(was, now) };
}

/** The report with each changed lockfile's packages named where both versions can be read; `dir` is the checkout's perf-gate.yml folder. */
export function withPackageNames(report: GateReport, dir: string): GateReport {
  if (!report.environment?.some((c) => c.kind === 'lockfile')) return report;
  const commits = {
    ...(report.baseline?.commit ? { baseline: report.baseline.commit } : {}),
    ...(report.current.commit ? { current: report.current.commit } : {}),
  };
  return { ...report, environment: report.environment.map((c) => named(c, dir, commits)) };
}
