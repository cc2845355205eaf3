/**
 * Cancelling the action (the runner sends SIGTERM) kills the running benchmark
 * and removes the A/B worktree, like `perf-gate run --ab` does: `perf-gate
 * action` shares one spawner between its phases and runs under the same
 * interrupt cleanup.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp.js';
import { assertCleanedUpAfterInterrupt } from '../support/interrupted.js';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

const repo = tempDir('pg-action-cancel-');

test('a cancelled action (SIGTERM) kills the running benchmark and removes the A/B worktree', async () => {
  const pidFile = join(repo, 'bench.pid');
  git(repo, 'init', '--quiet', '--initial-branch=main');
  git(repo, 'config', 'user.email', 'test@example.invalid');
  git(repo, 'config', 'user.name', 'perf-gate test');
  writeFileSync(join(repo, 'perf-gate.yml'), `version: 1\nsuites:\n  - name: hang\n    run: sleep 60 & echo $! > ${pidFile}; wait\n    format: hyperfine\n`);
  writeFileSync(join(repo, '.gitignore'), 'bench.pid\nout/\n_temp/\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'base');
  git(repo, 'tag', 'v0');
  const temp = join(repo, '_temp');
  mkdirSync(temp);
  const eventPath = join(temp, 'event.json');
  writeFileSync(eventPath, JSON.stringify({ ref: 'refs/heads/main' }));
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: repo,
    GITHUB_REPOSITORY: 'acme/x',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_SHA: git(repo, 'rev-parse', 'HEAD'),
    GITHUB_REF: 'refs/heads/main',
    GITHUB_API_URL: 'http://127.0.0.1:9',
    RUNNER_TEMP: temp,
    RUNNER_OS: 'Linux',
    INPUT_AB: 'v0',
    INPUT_MODE: 'pr',
    INPUT_CONFIG: 'perf-gate.yml',
    INPUT_PREFLIGHT: 'off',
    INPUT_OUTPUT_DIR: 'out',
  };
  const cli = join(import.meta.dirname, '..', '..', 'src', 'cli.ts');
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, cli, 'action'], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const exited = once(child, 'exit');
  for (let i = 0; i < 300 && !existsSync(pidFile) && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(existsSync(pidFile), `the benchmark started within 30 s: ${output}`);
  const benchPid = Number(readFileSync(pidFile, 'utf8'));
  child.kill('SIGTERM');
  const [code, signal] = (await exited) as [number | null, string | null];
  assert.equal(signal, 'SIGTERM', `perf-gate ends by the signal it got (code ${code}): ${output}`);
  await assertCleanedUpAfterInterrupt(benchPid, output, repo);
});
