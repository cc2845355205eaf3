import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeCommand } from '../../src/cli/merge.js';
import { main } from '../../src/cli.js';
import { validateResultSet } from '../../src/adapters/result-set.js';
import { RESULT_SET_SCHEMA, type ResultSet } from '../../src/model/index.js';

const dir = mkdtempSync(join(tmpdir(), 'perf-gate-merge-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const status = await mergeCommand.run(argv, { cwd: dir, env: {}, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), now: () => new Date(0) });
  return { status, stdout, stderr };
}

function writeShard(path: string, ids: string[], samples = [0.01, 0.011]): void {
  const set: ResultSet = {
    schema: RESULT_SET_SCHEMA,
    commit: 'abc',
    created: '2026-11-21T12:00:00Z',
    testbed: { id: 'aaaa000011112222', cores: 2 },
    benchmarks: ids.map((id) => ({ id, suite: id.split('/')[0], status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples } } })),
  };
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), JSON.stringify(set));
}

describe('perf-gate merge', () => {
  test('merges the folders download-artifact creates into one valid ResultSet', async () => {
    writeShard('artifacts/results-1/results.json', ['scan/a', 'scan/b']);
    writeShard('artifacts/results-2/results.json', ['parse/c']);
    writeFileSync(join(dir, 'artifacts/results-2/notes.json'), '{"not": "a result set"}');
    const { status, stdout } = await run(['--out', 'merged.json', 'artifacts']);
    assert.equal(status, 0);
    assert.match(stdout, /3 benchmark\(s\) from 2 file\(s\)/);
    const text = readFileSync(join(dir, 'merged.json'), 'utf8');
    const merged = validateResultSet(JSON.parse(text), 'merged.json', text);
    assert.deepEqual(
      merged.benchmarks.map((b) => b.id),
      ['scan/a', 'scan/b', 'parse/c'],
    );
    // Merging again into a file inside the scanned folder does not read the old output as a shard.
    const again = await run(['--out', 'artifacts/merged.json', 'artifacts']);
    assert.equal(again.status, 0);
    const second = await run(['--out', 'artifacts/merged.json', 'artifacts']);
    assert.equal(second.stderr, '');
    assert.match(second.stdout, /3 benchmark\(s\) from 2 file\(s\)/);
  });

  test('a conflicting duplicate id names both files', async () => {
    writeShard('dup/one.json', ['scan/a']);
    writeShard('dup/two.json', ['scan/a'], [0.5]);
    await assert.rejects(
      run(['dup/one.json', 'dup/two.json', '--out', 'x.json']),
      /dup\/two.json: .*"scan\/a" is also in dup\/one.json with different results/,
    );
  });

  test('usage errors: no --out, no inputs, unknown options', async () => {
    await assert.rejects(run(['a.json']), /--out FILE is required/);
    await assert.rejects(run(['--out', 'x.json']), /at least one ResultSet/);
    await assert.rejects(run(['--out', 'x.json', '--fast', 'a.json']), /unknown option --fast/);
  });

  test('a file that is not a ResultSet is an InputError naming it', async () => {
    writeFileSync(join(dir, 'bad.json'), '{"schema": "perf-gate/results@1"}');
    await assert.rejects(run(['--out', 'x.json', 'bad.json']), /bad.json:1: .*not a valid perf-gate\/results@1 file/);
  });

  test('through the CLI, a conflict exits 2 with one "file: message" line', async () => {
    writeShard('cli/one.json', ['scan/a']);
    writeShard('cli/two.json', ['scan/a'], [0.7]);
    let stderr = '';
    const status = await main(['merge', '--out', 'y.json', 'cli/one.json', 'cli/two.json'], {
      cwd: dir,
      env: {},
      stdout: () => {},
      stderr: (t) => (stderr += t),
      now: () => new Date(0),
    });
    assert.equal(status, 2);
    assert.match(stderr, /^perf-gate: error: cli\/two.json: .*"scan\/a" is also in cli\/one.json/);
  });
});
