import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonReport } from '../../src/report/json.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/compiled-harnesses.js';
import { configBody, readmePerfGateCommands } from '../support/example-readme.js';
import { runTool } from '../support/system-tools.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('hyperfine', 'valgrind', 'perf', 'cc', 'git', 'patch', 'inferno-flamegraph');

const readme = readFileSync(join(ROOT, 'examples/c-profile/README.md'), 'utf8');

describe('examples/c-profile runs as its README says', () => {
  // A repository of its own holding the example, so `--ab HEAD` has a commit to check out. Not /tmp/perf-…: perf reads files there as JIT maps.
  const root = tempDir('pg-example-c-profile-');
  const [args] = readmePerfGateCommands(readme);

  before(() => {
    cpSync(join(ROOT, 'examples', 'c-profile'), join(root, 'examples', 'c-profile'), { recursive: true });
    runTool('git', ['init', '-q', '-b', 'main'], { cwd: root });
    runTool('git', ['add', '-A'], { cwd: root });
    runTool('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'example'], { cwd: root });
  });

  test('the README shows perf-gate.yml as it is', () => {
    assert.equal(/```yaml\n([\s\S]*?)```/.exec(readme)![1], configBody(join(ROOT, 'examples/c-profile/perf-gate.yml')));
  });

  test('the planted slowdown is confirmed and profiled on both sides: hash_word on the top row, the flame graph written', async () => {
    runTool('sh', ['-c', 'patch -p1 -d examples/c-profile < examples/c-profile/slower-head.patch'], { cwd: root });
    assert.deepEqual(args, ['run', '--config', 'examples/c-profile/perf-gate.yml', '--ab', 'HEAD', '--out', 'profile-run']);
    const run = await runCli([...args!, '--json', 'report.json'], root, { ...process.env });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const report = JSON.parse(readFileSync(join(root, 'report.json'), 'utf8')) as JsonReport;
    const row = report.rows.find((r) => r.benchmark === 'words/count' && r.metric === 'time')!;
    assert.equal(row.status, 'regressed');
    assert.ok(row.flags.includes('confirmed'), row.flags.join(', '));
    const section = report.profiles!;
    assert.deepEqual(section.warnings, []);
    const profile = section.profiles[0]!;
    // auto: perf where it samples (it does on this kind of machine, on the cpu-clock event), else callgrind.
    assert.ok(['perf', 'callgrind'].includes(profile.profiler));
    assert.equal(profile.top[0]?.function, 'hash_word', JSON.stringify(profile.top));
    assert.ok(profile.top[0]!.growth > 0.1, `${profile.top[0]!.growth}`);
    for (const file of ['diff.svg', 'base.folded', 'head.folded']) assert.ok(existsSync(join(root, 'profile-run', 'profile', 'words_count', file)), file);
    assert.match(run.stdout, /Why it got slower\n/);
    // The base worktree is gone once the profile is taken.
    assert.equal(runTool('git', ['worktree', 'list'], { cwd: root }).stdout.trim().split('\n').length, 1);
  });
});
