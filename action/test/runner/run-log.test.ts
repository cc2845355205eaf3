import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePerfGateConfig } from '../../src/config/perf-gate-config.js';
import { parseOutputFile } from '../../src/pipeline/output-parser.js';
import { logProgress } from '../../src/runner/progress.js';
import { runSuites } from '../../src/runner/run-suite.js';
import { processSpawner } from '../../src/runner/spawn.js';
import { tempDir } from '../support/temp.js';

test('each run starts fresh logs, keeps the previous one as .1, and a failed row quotes this run only', async () => {
  const dir = tempDir('pg-runlog-');
  // Each invocation counts itself in a file and fails, printing its number.
  const yaml = `version: 1
suites:
  - name: crash
    build: echo built
    run: 'n=$(( $(cat count 2>/dev/null || echo 0) + 1 )); echo $n > count; echo "output of run $n"; exit 4'
`;
  const suites = parsePerfGateConfig(yaml, 'perf-gate.yml', dir).suites;
  const outDir = join(dir, 'out');
  const run = () =>
    runSuites(
      suites,
      {
        spawner: processSpawner(),
        parse: parseOutputFile,
        outDir,
        env: { PATH: process.env.PATH },
        progress: logProgress({ githubActions: false, write: () => undefined, clock: () => 0 }),
      },
      [],
    );

  await run();
  await run();
  const [row] = await run();
  assert.equal(row?.status, 'failed');
  assert.equal(row?.error?.message, 'run exited with code 4');
  assert.equal(row?.error?.logTail, 'output of run 3');
  assert.equal(readFileSync(join(outDir, 'crash', 'run.log'), 'utf8'), 'output of run 3\n');
  assert.equal(readFileSync(join(outDir, 'crash', 'run.log.1'), 'utf8'), 'output of run 2\n', "the previous run's log is kept once");
  assert.equal(readFileSync(join(outDir, 'crash', 'build.log'), 'utf8'), 'built\n');
});
