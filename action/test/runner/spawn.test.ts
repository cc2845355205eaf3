import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { processSpawner, type SpawnRequest } from '../../src/runner/spawn.js';
import { tempDir } from '../support/temp.js';

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

describe('the process spawner', () => {
  const dir = tempDir('pg-spawn-');

  test('both streams go to the log, stdout also to the output file when asked; the exit code is reported', async () => {
    const r = await processSpawner().run(request(dir, 'echo out; echo err >&2; exit 4', { stdoutPath: join(dir, 'stdout') }));
    assert.deepEqual({ exitCode: r.exitCode, signal: r.signal, timedOut: r.timedOut }, { exitCode: 4, signal: null, timedOut: false });
    assert.equal(readFileSync(join(dir, 'stdout'), 'utf8'), 'out\n');
    assert.match(readFileSync(join(dir, 'log'), 'utf8'), /out\n[\s\S]*err\n|err\n[\s\S]*out\n/);
  });

  test('a process killed by a signal reports the signal; the environment is exactly the one given', async () => {
    const r = await processSpawner().run(
      request(dir, 'test "$ONLY" = yes && test -z "${HOME:-}" && kill -SEGV $$', { env: { PATH: process.env.PATH ?? '', ONLY: 'yes' } }),
    );
    assert.equal(r.signal, 'SIGSEGV');
    assert.equal(r.exitCode, null);
  });

  test('pinning runs the command under taskset on the given CPUs', async () => {
    const r = await processSpawner().run(request(dir, 'grep Cpus_allowed_list /proc/self/status', { pin: '0', stdoutPath: join(dir, 'cpus') }));
    assert.equal(r.exitCode, 0, 'taskset must be installed (util-linux)');
    assert.match(readFileSync(join(dir, 'cpus'), 'utf8'), /Cpus_allowed_list:\s+0\n/);
  });
});
