import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newResultSet, type BenchmarkResult } from '../../src/model/index.js';
import { runCli } from '../support/cli.js';
import { commitChain } from '../support/commit-chain.js';
import { gitSync, openFolder, workRepo } from '../support/history.js';
import { tempDir } from '../support/temp.js';

/**
 * The Actions runner reads a line as a workflow command when, after its
 * leading white space, it starts with `::` (`::error::…`, `::add-mask::…`,
 * `::stop-commands::…`). Benchmark names come from harness output, which a
 * pull request controls, and a table line starts with one: no line perf-gate
 * prints may start a command.
 */
const HOSTILE = ['::error::forged', '  ::add-mask::secret', '::stop-commands::x'];

/** The lines the runner would take as commands, by its own rule. */
function commandLines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line.trimStart().startsWith('::'));
}

function benchmarks(level: number): BenchmarkResult[] {
  const samples = [0.99, 1, 1.01, 0.995, 1.005].map((f) => f * level);
  return [
    ...HOSTILE.map((id): BenchmarkResult => ({ id, status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples } } })),
    {
      id: '::warning::crashed',
      status: 'failed',
      error: { message: '::error::in the message', exitCode: 1, logTail: 'ok\n::error file=x::in the log\n   ::notice::indented' },
      metrics: {},
    },
  ];
}

describe('no output line can start a workflow command', () => {
  test('compare: the table, the failed rows and their log tails', async () => {
    const dir = tempDir('perf-gate-commands-');
    writeFileSync(join(dir, 'base.json'), JSON.stringify(newResultSet('2026-11-20T00:00:00Z', benchmarks(1e-3))));
    writeFileSync(join(dir, 'cur.json'), JSON.stringify(newResultSet('2026-11-20T00:00:00Z', benchmarks(1.3e-3))));
    const r = await runCli(['compare', '--baseline', 'base.json', '--current', 'cur.json'], dir);
    assert.equal(r.status, 1, r.stderr);
    assert.deepEqual(commandLines(r.stdout + r.stderr), []);
    assert.match(r.stdout, /^\\::error::forged\s+time\s/m, 'the name is shown, escaped');
    assert.match(r.stdout, /\\::error file=x::in the log/);
  });

  test('history changes and noise: their tables', async () => {
    const repo = workRepo(tempDir('perf-gate-commands-history-'));
    const commits = commitChain(repo, 24);
    gitSync(repo, ['reset', '--quiet', '--hard', 'main']);
    const store = openFolder(join(repo, 'history'));
    for (const [i, commit] of commits.entries()) {
      const set = newResultSet(new Date(Date.UTC(2026, 9, 1) + i * 3600_000).toISOString(), benchmarks(i >= 12 ? 1.3e-3 : 1e-3).slice(0, 3));
      await store.append({ ...set, commit, testbed: { id: 'vm' } }, { commit, testbed: 'vm' });
    }
    const r = await runCli(['history', 'changes', '--history', 'history'], repo, process.env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^\\::error::forged\s+time\s+vm/m);
    assert.deepEqual(commandLines(r.stdout + r.stderr), []);
    const noise = await runCli(['history', 'noise', '--history', 'history', '--testbed', 'vm'], repo, process.env);
    assert.equal(noise.status, 0, noise.stderr);
    assert.match(noise.stdout, /^\\::error::forged\s+time\s/m);
    assert.deepEqual(commandLines(noise.stdout + noise.stderr), []);
  });
});
