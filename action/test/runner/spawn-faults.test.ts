import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { processSpawner, type SpawnRequest } from '../../src/runner/spawn.js';
import { tempDir } from '../support/temp.js';

/**
 * Benchmarks that misbehave (docs/reliability.md): one that leaves children
 * running, one that never ends, one that prints a gigabyte. The spawner runs
 * each in a process group of its own, kills the group when the command
 * exits or times out, and streams output to files, so perf-gate's memory
 * does not grow with what a benchmark prints.
 */
function request(dir: string, command: string, extra: Partial<SpawnRequest> = {}): SpawnRequest {
  return { command, cwd: dir, env: { PATH: process.env.PATH ?? '' }, timeoutSeconds: 20, logPath: join(dir, 'log'), stdoutPath: null, outputPath: null, pin: null, ...extra };
}

/** Processes whose command line contains `marker`, other than pgrep itself. */
function processesWith(marker: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).split('\n').filter((l) => l !== '');
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

describe('misbehaving benchmarks', () => {
  const dir = tempDir('pg-spawn-faults-');

  test('a benchmark that starts children and exits leaves no process behind', async () => {
    const marker = `313.${process.pid}`;
    const r = await processSpawner().run(request(dir, `sleep ${marker} & (sleep ${marker} &) & echo started`));
    assert.equal(r.exitCode, 0);
    // The group is killed right after the command's exit; give the kernel a moment to reap.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(processesWith(`sleep ${marker}`), [], 'no orphaned child');
  });

  test('a benchmark that never ends is stopped at its timeout, with its children', async () => {
    const marker = `627.${process.pid}`;
    const started = performance.now();
    const r = await processSpawner().run(request(dir, `sleep ${marker} & sleep ${marker}`, { timeoutSeconds: 1 }));
    const seconds = (performance.now() - started) / 1000;
    assert.equal(r.timedOut, true);
    assert.ok(seconds < 10, `stopped after ${seconds.toFixed(1)} s (timeout 1 s, then SIGTERM and SIGKILL)`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(processesWith(`sleep ${marker}`), []);
  });

  test('a benchmark that prints 1 GiB is streamed to its files: perf-gate\'s memory stays bounded', async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const r = await processSpawner().run(request(dir, 'head -c 1073741824 /dev/zero', { stdoutPath: join(dir, 'stdout'), logPath: join(dir, 'gigabyte.log'), timeoutSeconds: 120 }));
    clearInterval(sampler);
    assert.equal(r.exitCode, 0);
    assert.equal(statSync(join(dir, 'stdout')).size, 1024 ** 3, 'the whole output is kept for the adapter');
    assert.equal(statSync(join(dir, 'gigabyte.log')).size, 1024 ** 3);
    const grew = (peak - before) / 1024 ** 2;
    assert.ok(grew < 256, `perf-gate's resident memory grew by ${grew.toFixed(0)} MiB while 1 GiB went through it`);
    rmSync(join(dir, 'stdout'));
    rmSync(join(dir, 'gigabyte.log'));
  });
});
