import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonReport } from '../../src/report/json.js';
import { runCli } from './cli.js';
import { isUndecided, measureUntilDecided } from './undecided.js';

/**
 * What the two-stage suite tests share: git with fixed dates (the history's
 * months do not depend on the day the test runs), and a pull request gated
 * with `perf-gate run`, run again while the followed row is undecided.
 */
const DATED = { ...process.env, GIT_AUTHOR_DATE: '2026-11-20T12:00:00Z', GIT_COMMITTER_DATE: '2026-11-20T12:00:00Z' };

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: DATED }).trim();
}

/** The JSON report a run wrote to `<dir>/report.json`. */
export function readReport(dir: string): JsonReport {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JsonReport;
}

/** `perf-gate run` on the checked-out pull request (report.json, out/), again while `benchmark`'s time row is undecided (support/undecided.ts). */
export async function gatePullRequest(
  repo: string,
  env: NodeJS.ProcessEnv,
  benchmark: string,
): Promise<{ r: Awaited<ReturnType<typeof runCli>>; report: JsonReport }> {
  return measureUntilDecided(
    async () => {
      const r = await runCli(['run', '--json', 'report.json', '--out', 'out'], repo, env);
      return { r, report: readReport(repo) };
    },
    ({ report }) => isUndecided(report.rows.find((row) => row.benchmark === benchmark && row.metric === 'time')),
  );
}
