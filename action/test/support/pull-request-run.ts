import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { JsonReport } from '../../src/report/json.js';
import { runCli } from './cli.js';
import { isUndecided, measureUntilDecided } from './undecided.js';

/**
 * What the two-stage suite tests share: git with fixed dates (the history's
 * months do not depend on the day the test runs), a main branch with runs
 * of it recorded, a pull request's branch, and the pull request gated with
 * `perf-gate run`, run again while the followed row is undecided.
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

/** Writes `files` (path in the repository → text), creating their folders. */
function writeFiles(repo: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
}

/** A repository at `repo` whose main branch is one commit of what the folder holds plus `files`; then `runs` runs of main recorded. */
export async function mainWithRuns(repo: string, files: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv, runs = 1): Promise<void> {
  git(repo, 'init', '--quiet', '--initial-branch=main');
  git(repo, 'config', 'user.email', 'test@example.invalid');
  git(repo, 'config', 'user.name', 'perf-gate test');
  writeFiles(repo, files);
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'main');
  for (let i = 0; i < runs; i++) {
    const r = await runCli(['run', '--mode', 'main', '--out', 'out'], repo, env);
    assert.match(r.stdout, /baseline written to/, r.stdout + r.stderr);
  }
}

/** The pull request's branch `name`, off main, with `files` changed in one commit. */
export function pullRequestBranch(repo: string, name: string, files: Readonly<Record<string, string>>, message: string): void {
  git(repo, 'checkout', '--quiet', '-B', name, 'main');
  writeFiles(repo, files);
  git(repo, 'commit', '--quiet', '-am', message);
}

/** A failure's message: the verdict line and the followed row first (CI shows the start of a message), then all the run printed. */
export function verdictFacts(r: Awaited<ReturnType<typeof runCli>>, row: unknown): string {
  return `${r.stdout.trim().split('\n').at(-1)}\n${JSON.stringify(row)}\n\n${r.stdout}${r.stderr}`;
}
