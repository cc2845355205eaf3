import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRunCommand } from '../../src/cli/run.js';
import type { CliContext } from '../../src/pipeline/command.js';
import { processSpawner } from '../../src/runner/spawn.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('hyperfine');

const dir = tempDir();

async function runWithCounters(counters: { core: number; package: number }[]): Promise<string> {
  writeFileSync(
    join(dir, 'perf-gate.yml'),
    "version: 1\nsuites:\n  - name: s\n    run: hyperfine --style none --runs 2 --export-json {output} --command-name t 'true'\n    format: hyperfine\n",
  );
  let out = '';
  let reads = 0;
  const command = makeRunCommand(() => ({
    spawner: processSpawner(),
    testbed: () => undefined,
    throttle: () => counters[Math.min(reads++, counters.length - 1)],
  }));
  const ctx: CliContext = {
    cwd: dir,
    env: { ...process.env, GITHUB_ACTIONS: 'true' },
    stdout: (t) => void (out += t),
    stderr: (t) => void (out += t),
    now: () => new Date('2026-11-21T12:00:00Z'),
  };
  const status = await command.run(['--config', 'perf-gate.yml', '--out', 'out'], ctx);
  assert.equal(status, 0, out);
  return out;
}

test('thermal throttling that rose during the run is reported as a warning next to the results', async () => {
  const out = await runWithCounters([
    { core: 10, package: 2 },
    { core: 14, package: 2 },
  ]);
  assert.match(out, /::warning::perf-gate: .*throttl/i);
  assert.equal(reads(out), 1);
});

test('counters that did not move say nothing', async () => {
  const out = await runWithCounters([
    { core: 10, package: 2 },
    { core: 10, package: 2 },
  ]);
  assert.doesNotMatch(out, /throttl/i);
});

function reads(out: string): number {
  return out.split('\n').filter((l) => /throttl/i.test(l)).length;
}
