import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hyperfineAdapter } from '../../src/adapters/hyperfine.js';
import { fileInput } from '../../src/adapters/index.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir();

test('perf-gate time writes hyperfine-shaped JSON that the hyperfine adapter reads, runs in order', async () => {
  const result = await runCli(['time', '--runs', '4', '--warmup', '1', '--export-json', 'out.json', '--command', 'sleep 0.02', 'true'], dir, process.env);
  assert.equal(result.status, 0, result.stderr);
  const text = readFileSync(join(dir, 'out.json'), 'utf8');
  const [sleep, fast] = hyperfineAdapter.parse(fileInput('out.json', text));
  assert.equal(sleep!.id, 'sleep 0.02');
  assert.equal(sleep!.metrics.time!.samples!.length, 4);
  // A 20 ms sleep takes at least 20 ms (and, on a virtual machine that stalls for seconds, under 10 s);
  // `true` takes far less than it.
  assert.ok(
    sleep!.metrics.time!.samples!.every((t) => t >= 0.02 && t < 10),
    sleep!.metrics.time!.samples!.join(', '),
  );
  assert.ok(fast!.metrics.time!.summary!.median! < sleep!.metrics.time!.summary!.median!);
});

test('a failing command is recorded with its exit code, makes a failed benchmark, and exits 1', async () => {
  const result = await runCli(['time', '--runs', '2', '--warmup', '0', '--export-json', 'fail.json', '--command', 'exit 3'], dir, process.env);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /"exit 3" exited non-zero \(exit codes 3\)/);
  const [b] = hyperfineAdapter.parse(fileInput('fail.json', readFileSync(join(dir, 'fail.json'), 'utf8')));
  assert.equal(b!.status, 'failed');
  assert.equal(b!.error?.exitCode, 3);
});

test('a run over the time limit is killed and recorded as exit 124', async () => {
  const result = await runCli(
    ['time', '--runs', '1', '--warmup', '0', '--timeout', '200ms', '--export-json', 'slow.json', '--command', 'sleep 5'],
    dir,
    process.env,
  );
  assert.equal(result.status, 1);
  const data = JSON.parse(readFileSync(join(dir, 'slow.json'), 'utf8')) as { results: { exit_codes: number[]; times: number[] }[] };
  assert.deepEqual(data.results[0]!.exit_codes, [124]);
  assert.ok(data.results[0]!.times[0]! < 2);
});

test('bad flags are usage errors (exit 2)', async () => {
  for (const args of [
    ['--export-json', 'x.json'],
    ['--command', 'true'],
    ['--runs', '0', '--export-json', 'x', '--command', 'true'],
    ['--timeout', '10parsecs', '--export-json', 'x', '--command', 'true'],
  ]) {
    const result = await runCli(['time', ...args], dir, process.env);
    assert.equal(result.status, 2, args.join(' '));
  }
});

test('--name names each command (hyperfine -n): the ids are the names; a count that does not match the commands is a usage error', async () => {
  const result = await runCli(
    ['time', '--runs', '2', '--warmup', '0', '--export-json', 'named.json', '--command', 'true', 'sleep 0.01', '--name', 'noop', 'nap'],
    dir,
    process.env,
  );
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(
    hyperfineAdapter.parse(fileInput('named.json', readFileSync(join(dir, 'named.json'), 'utf8'))).map((b) => b.id),
    ['noop', 'nap'],
  );
  const wrong = await runCli(['time', '--export-json', 'x.json', '--command', 'true', 'false', '--name', 'one'], dir, process.env);
  assert.equal(wrong.status, 2);
  assert.match(wrong.stderr, /--name gives 1 name\(s\) for 2 --command\(s\)/);
});
