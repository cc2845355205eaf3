import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * After perf-gate got SIGTERM in the middle of an A/B run: the benchmark
 * process `benchPid` is gone (or a zombie), and the base worktree named in
 * perf-gate's output ("base, in DIR)") is removed, folder and git entry both.
 */
export async function assertCleanedUpAfterInterrupt(benchPid: number, output: string, repo: string): Promise<void> {
  let gone = false;
  for (let i = 0; i < 50 && !gone; i++) {
    try {
      gone = /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${benchPid}/stat`, 'utf8'));
    } catch {
      gone = true;
    }
    if (!gone) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(gone, 'the benchmark process was killed');
  const worktree = /base, in (\S+)\)/.exec(output)?.[1];
  assert.ok(worktree && !existsSync(worktree), `the worktree folder is removed: ${output}`);
  const list = execFileSync('git', ['worktree', 'list'], { cwd: repo, encoding: 'utf8' }).trim();
  assert.equal(list.split('\n').length, 1);
  const admin = join(repo, '.git', 'worktrees');
  assert.ok(!existsSync(admin) || readdirSync(admin).length === 0, 'no stale worktree entry is left in .git');
}
