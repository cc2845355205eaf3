/**
 * What a pull request costs in runner time (`npm run bench:pr-cost`): the
 * example project examples/cli-hyperfine (a C sieve timed by hyperfine, or
 * perf-gate's own timer) as an adopter would run it, with a run history and
 * the default two-stage verdict.
 *
 * 1. main: `perf-gate run --mode main` records HISTORY_RUNS runs of the base
 *    commit (five or more, so the drift is learned from them);
 * 2. an unchanged pull request (an empty commit): `perf-gate run` — the screen
 *    alone unless it suspects something;
 * 3. a slower pull request (slower-head.patch): `perf-gate run` — the screen,
 *    then the interleaved second stage for its suspects.
 *
 * Prints each step's wall time, the report's stage times and verdict, and
 * the machine. Runs one thing at a time; take the figures with nothing else
 * running.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../', import.meta.url).pathname;
const CLI = join(ROOT, 'action/dist/cli.js');
const HISTORY_RUNS = Number(process.env['HISTORY_RUNS'] ?? 5);

function git(repo: string, args: string[]): string {
  return execFileSync('git', ['-C', repo, '-c', 'user.name=bench', '-c', 'user.email=bench@perf-gate.invalid', '-c', 'commit.gpgsign=false', ...args], {
    encoding: 'utf8',
  }).trim();
}

interface Step {
  name: string;
  seconds: number;
  status: number | null;
  verdict: string;
  stages: string;
}

function gate(repo: string, name: string, args: string[]): Step {
  const json = join(repo, '..', `${name}.json`);
  const t0 = performance.now();
  const run = spawnSync('node', [CLI, 'run', '--config', 'perf-gate.yml', '--history', '../history', '--json', json, ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, PERF_GATE_CLI: CLI },
  });
  const seconds = (performance.now() - t0) / 1000;
  let verdict = '?';
  let stages = '';
  try {
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      verdict: string;
      stages?: { screen: { seconds: number; suspects: number; driftRuns: number | null }; confirm: { seconds: number } };
    };
    verdict = report.verdict;
    if (report.stages) {
      const s = report.stages;
      stages = `screen ${s.screen.seconds.toFixed(0)} s (${s.screen.suspects} suspects, drift from ${s.screen.driftRuns ?? 'the config'} runs), confirm ${s.confirm.seconds.toFixed(0)} s`;
    }
  } catch {
    verdict = `no report (exit ${run.status}): ${run.stderr.split('\n').slice(-3).join(' ')}`;
  }
  return { name, seconds, status: run.status, verdict, stages };
}

const work = mkdtempSync(join(tmpdir(), 'perf-gate-pr-cost-'));
try {
  const repo = join(work, 'repo');
  cpSync(join(ROOT, 'examples/cli-hyperfine'), repo, { recursive: true, filter: (src) => !src.includes('/baselines') });
  git(repo, ['init', '-q', '-b', 'main']);
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'base: the sieve']);
  const steps: Step[] = [];
  for (let i = 0; i < HISTORY_RUNS; i++) steps.push(gate(repo, `main-${i + 1}`, ['--mode', 'main']));
  git(repo, ['checkout', '-q', '-b', 'unchanged']);
  git(repo, ['commit', '-q', '--allow-empty', '-m', 'an unrelated change']);
  steps.push(gate(repo, 'pr-unchanged', []));
  git(repo, ['checkout', '-q', '-b', 'slower', 'main']);
  git(repo, ['apply', 'slower-head.patch']);
  git(repo, ['commit', '-q', '-am', 'head: int flags (slower)']);
  steps.push(gate(repo, 'pr-slower', []));

  const timer = spawnSync('hyperfine', ['--version'], { encoding: 'utf8' }).stdout?.trim() || 'perf-gate time';
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}; timer: ${timer}; ${new Date().toISOString().slice(0, 10)}`);
  console.log('| step | wall time | exit | verdict | stages |');
  console.log('| :-- | --: | --: | :-- | :-- |');
  for (const s of steps) console.log(`| ${s.name} | ${s.seconds.toFixed(0)} s | ${s.status} | ${s.verdict} | ${s.stages} |`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
