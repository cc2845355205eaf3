import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parsePerfGateConfig } from '../../src/config/perf-gate-config.js';
import { parseOutputFile } from '../../src/pipeline/output-parser.js';
import { RESULT_SET_SCHEMA } from '../../src/model/index.js';
import { mockSpawner } from '../support/mock-spawner.js';
import { logProgress } from '../../src/runner/progress.js';
import { runSuites } from '../../src/runner/run-suite.js';
import { tempDir } from '../support/temp.js';

describe('what a harness process is given', () => {
  test('its environment: the suite env and PERF_GATE_* added, the action inputs and runner tokens withheld', async () => {
    const dir = tempDir('pg-invoke-');
    const suites = parsePerfGateConfig(
      'version: 1\nsuites:\n  - { name: s, run: "x {n} > {output}", env: { MODE: fast }, params: { n: [7] } }\n',
      'p.yml',
      dir,
    ).suites;
    const output = JSON.stringify({
      schema: RESULT_SET_SCHEMA,
      created: '2026-11-21T12:00:00Z',
      benchmarks: [{ id: 'b', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', value: 1 } } }],
    });
    const spawner = mockSpawner(() => ({ output }));
    const rows = await runSuites(
      suites,
      {
        spawner,
        parse: parseOutputFile,
        outDir: join(dir, 'out'),
        env: { PATH: '/bin', 'INPUT_GITHUB-TOKEN': 'ghs_secret', GITHUB_TOKEN: 'ghs_secret', ACTIONS_RUNTIME_TOKEN: 'x', GITHUB_SHA: 'abc' },
        progress: logProgress({ githubActions: false, write: () => undefined, clock: () => 0 }),
      },
      [],
    );
    const call = spawner.calls[0]!;
    const output0 = join(dir, 'out', 's', 'run.p1-n=7.output');
    assert.deepEqual(call.env, { PATH: '/bin', GITHUB_SHA: 'abc', MODE: 'fast', PERF_GATE_SUITE: 's', PERF_GATE_PARAM_N: '7', PERF_GATE_OUTPUT: output0 });
    assert.equal(call.command, `x 7 > ${output0}`);
    assert.equal(call.cwd, dir);
    assert.equal(call.timeoutSeconds, 600);
    assert.deepEqual(
      rows.map((r) => [r.id, r.status, r.params]),
      [['s/b[n=7]', 'ok', { n: '7' }]],
    );
  });
});

describe('a shared CARGO_TARGET_DIR in interleaved rounds', () => {
  test('the base side builds into a folder of its own inside it; the head side and plain runs keep it', async () => {
    const { suiteEnv } = await import('../../src/runner/invoke.js');
    const suite = parsePerfGateConfig('version: 1\nsuites:\n  - name: c\n    run: cargo bench\n    format: criterion\n', 'perf-gate.yml', '/repo').suites[0]!;
    const runner = { CARGO_TARGET_DIR: '/cache/target', PATH: '/bin' };
    assert.equal(suiteEnv(runner, suite, { PERF_GATE_SIDE: 'base' })['CARGO_TARGET_DIR'], '/cache/target/perf-gate-base');
    assert.equal(suiteEnv(runner, suite, { PERF_GATE_SIDE: 'head' })['CARGO_TARGET_DIR'], '/cache/target');
    assert.equal(suiteEnv(runner, suite, {})['CARGO_TARGET_DIR'], '/cache/target');
    // Set by the suite's own env: the same.
    const own = { ...suite, env: { CARGO_TARGET_DIR: 'shared' } };
    assert.equal(suiteEnv({ PATH: '/bin' }, own, { PERF_GATE_SIDE: 'base' })['CARGO_TARGET_DIR'], join('shared', 'perf-gate-base'));
    assert.equal(suiteEnv({ PATH: '/bin' }, suite, { PERF_GATE_SIDE: 'base' })['CARGO_TARGET_DIR'], undefined, 'none set, none made up');
  });
});
