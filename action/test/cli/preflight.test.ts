import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'perf-gate-preflight-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Report {
  fails: boolean;
  counts: Record<string, number>;
  findings: Array<{ check: string; status: string; unreadable?: string[] }>;
  probe: { n: number; cv: number } | null;
  testbed: { id: string } | null;
}

test('perf-gate preflight on this machine: the exit status follows the strict verdict, the JSON names what it could not read', () => {
  const json = join(dir, 'preflight.json');
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'preflight', '--level', 'strict', '--probe-seconds', '0.5', '--json', json], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, GITHUB_ACTIONS: '', RUNNER_NAME: 'test-runner' },
  });
  const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  assert.equal(result.status, report.fails ? 1 : 0, result.stdout + result.stderr);
  assert.equal(report.fails, report.counts.warn! > 0);
  assert.match(result.stdout, /^perf-gate preflight \(level strict\)/);
  for (const f of report.findings.filter((x) => x.status === 'unknown')) {
    assert.ok(f.unreadable && f.unreadable.length > 0, f.check);
    assert.match(result.stdout, new RegExp(`\\?\\? +${f.check} .*could not read`));
  }
  assert.ok(report.probe && report.probe.n >= 3);
  assert.match(report.testbed?.id ?? '', /^[0-9a-f]{16}$/);
});

test('perf-gate preflight --level off checks nothing and passes', () => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'preflight', '--level', 'off'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 0);
  assert.equal(result.stdout, 'perf-gate preflight: off (no checks run)\n');
});

test('a bad level exits 2 with the usage', () => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'preflight', '--level', 'loud'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 2);
  assert.match(result.stderr, /--level takes strict, warn, off/);
  assert.match(result.stderr, /Usage: perf-gate preflight/);
});
