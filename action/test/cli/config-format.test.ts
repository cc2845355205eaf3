import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

/**
 * A misspelt `format:` is found when perf-gate.yml is read: exit 2 naming the
 * file, the format's line and the nearest format, before the suite's build
 * (which would leave a file behind) or its run starts.
 */
function configWithFormat(format: string): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'perf-gate.yml'),
    ['version: 1', 'suites:', '  - name: speed', '    build: touch built', '    run: touch ran', `    format: ${format}`, ''].join('\n'),
  );
  return dir;
}

test('format: hyperfin is exit 2 naming the line and "hyperfine", before anything builds or runs', async () => {
  const dir = configWithFormat('hyperfin');
  const run = await runCli(['run', '--config', 'perf-gate.yml', '--out', 'out'], dir, process.env);
  assert.equal(run.status, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /perf-gate\.yml:6\b/);
  assert.match(run.stderr, /unknown format "hyperfin" in suite "speed"; did you mean "hyperfine"\?/);
  assert.equal(existsSync(join(dir, 'built')), false, 'the build did not start');
  assert.equal(existsSync(join(dir, 'ran')), false, 'the run did not start');
  assert.doesNotMatch(run.stderr, /internal error/);
});

test('a format nothing resembles lists the formats instead of guessing', async () => {
  const dir = configWithFormat('xlsx');
  const run = await runCli(['run', '--config', 'perf-gate.yml', '--out', 'out'], dir, process.env);
  assert.equal(run.status, 2, run.stdout + run.stderr);
  assert.doesNotMatch(run.stderr, /did you mean/);
  assert.match(run.stderr, /Expected one of auto, .*hyperfine.*marker-lines/);
});

test('a real format name, auto, or a format with options passes the load: the build runs', async () => {
  const formats = ['auto', 'go-bench', `{ name: marker-lines, markers: [{ pattern: 'T: (\\S+)', metric: time, unit: s }] }`];
  for (const format of formats) {
    const dir = configWithFormat(format);
    const run = await runCli(['run', '--config', 'perf-gate.yml', '--out', 'out'], dir, process.env);
    assert.doesNotMatch(run.stderr, /format/, `${format}: ${run.stderr}`);
    assert.equal(existsSync(join(dir, 'built')), true, `${format}: the build ran`);
    // The run writes an empty output: a failed row (exit 1), never a pass.
    assert.equal(run.status, 1, `${format}: ${run.stdout}${run.stderr}`);
  }
});
