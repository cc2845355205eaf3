import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
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
  return {
    command,
    cwd: dir,
    env: { PATH: process.env.PATH ?? '' },
    timeoutSeconds: 20,
    logPath: join(dir, 'log'),
    stdoutPath: null,
    outputPath: null,
    pin: null,
    ...extra,
  };
}

/** `sleep` processes whose whole command line is `command` (not the shells or node processes that mention it). */
function processesWith(command: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', `^${command.replace(/\./g, '\\.')}$`], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l !== '');
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

  test('perf-gate killed with SIGKILL mid-suite: the orphan guard stops the benchmark within seconds', async () => {
    const marker = `419.${process.pid}`;
    const spawner = new URL('../../src/runner/spawn.ts', import.meta.url).pathname;
    // A perf-gate of its own (a node process running the spawner), killed while its benchmark sleeps.
    const code = `import { processSpawner } from ${JSON.stringify(spawner)}; await processSpawner().run({ command: 'sleep ${marker} & sleep ${marker}', cwd: ${JSON.stringify(dir)}, env: { PATH: process.env.PATH }, timeoutSeconds: 600, logPath: ${JSON.stringify(join(dir, 'killed.log'))}, stdoutPath: null, outputPath: null, pin: null });`;
    const gate = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: 'ignore' });
    for (let i = 0; i < 100 && processesWith(`sleep ${marker}`).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(processesWith(`sleep ${marker}`).length, 2, 'the benchmark started');
    gate.kill('SIGKILL');
    const killed = performance.now();
    while (processesWith(`sleep ${marker}`).length > 0 && performance.now() - killed < 10_000) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(processesWith(`sleep ${marker}`), [], 'no benchmark process outlives the killed perf-gate by 10 s');
  });

  test("a benchmark that prints 1 GiB is streamed to its files: perf-gate's memory stays bounded", async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const r = await processSpawner().run(
      request(dir, 'head -c 1073741824 /dev/zero', { stdoutPath: join(dir, 'stdout'), logPath: join(dir, 'gigabyte.log'), timeoutSeconds: 120 }),
    );
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
