import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newResultSet } from '../../src/model/index.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

/**
 * An output path that is a symbolic link is refused (exit 2, naming it),
 * never replaced by a regular file; `-` is standard output (docs/security.md).
 */
function results(dir: string, name: string, level: number): string {
  const set = newResultSet('2026-11-20T00:00:00Z', [
    { id: 'parse', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [0.99, 1, 1.01, 0.995, 1.005].map((f) => f * level) } } },
  ]);
  writeFileSync(join(dir, name), JSON.stringify(set));
  return name;
}

describe('output paths that are symbolic links', () => {
  test('--markdown link.md: exit 2 naming the path and its target; the link and its target are untouched', async () => {
    const dir = tempDir('perf-gate-links-');
    writeFileSync(join(dir, 'target.md'), 'keep me\n');
    symlinkSync('target.md', join(dir, 'link.md'));
    const r = await runCli(['compare', '--baseline', results(dir, 'a.json', 1e-3), '--current', results(dir, 'b.json', 1e-3), '--markdown', 'link.md'], dir);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /--markdown "link\.md": is a symbolic link \(to target\.md\); perf-gate replaces the files it writes and never replaces a link/);
    assert.ok(lstatSync(join(dir, 'link.md')).isSymbolicLink());
    assert.equal(readFileSync(join(dir, 'target.md'), 'utf8'), 'keep me\n');
  });

  test('--json /dev/stdout is refused before anything runs, pointing at -; /dev/stdout stays a link', async () => {
    const dir = tempDir('perf-gate-links-');
    const r = await runCli(['compare', '--baseline', results(dir, 'a.json', 1e-3), '--current', results(dir, 'b.json', 1e-3), '--json', '/dev/stdout'], dir);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /--json "\/dev\/stdout": is a symbolic link .*, or - for standard output/);
    assert.ok(lstatSync('/dev/stdout').isSymbolicLink(), readlinkSync('/dev/stdout'));
  });

  test('--json - prints the JSON report alone on standard output; two flags cannot both take it', async () => {
    const dir = tempDir('perf-gate-links-');
    const r = await runCli(['compare', '--baseline', results(dir, 'a.json', 1e-3), '--current', results(dir, 'b.json', 1.2e-3), '--json', '-'], dir);
    assert.equal(r.status, 1, r.stderr);
    const report = JSON.parse(r.stdout) as { rows: { benchmark: string; status: string }[] };
    assert.deepEqual(
      report.rows.map((row) => [row.benchmark, row.status]),
      [['parse', 'regressed']],
    );
    const both = await runCli(['compare', '--baseline', 'a.json', '--current', 'b.json', '--json', '-', '--markdown', '-'], dir);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /--markdown "-": standard output is already taken by --json/);
  });
});

describe('input paths with symbolic links', () => {
  test('a loop of links given as --current says so, not "no such file"', async () => {
    const dir = tempDir('perf-gate-links-');
    symlinkSync('b', join(dir, 'a'));
    symlinkSync('a', join(dir, 'b'));
    const r = await runCli(['compare', '--baseline', results(dir, 'base.json', 1e-3), '--current', 'a'], dir);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /a: a loop of symbolic links/);
  });

  test('a symbolic link inside a results folder is not followed, and is listed as skipped', async () => {
    const dir = tempDir('perf-gate-links-');
    mkdirSync(join(dir, 'results'));
    results(join(dir, 'results'), 'real.json', 1e-3);
    symlinkSync('/etc/hostname', join(dir, 'results', 'elsewhere.json'));
    const r = await runCli(['compare', '--baseline', results(dir, 'base.json', 1e-3), '--current', 'results', '--json', 'report.json'], dir);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { warnings: { code: string; message: string }[] };
    const skipped = report.warnings.find((w) => w.code === 'skipped-files');
    assert.equal(
      skipped?.message.replace(dir, ''),
      '1 file(s) in the input folders were not read as results: /results/elsewhere.json (a symbolic link: links inside a results folder are not followed (give the file itself)). If one should have been, name it directly to see why it is not recognised.',
    );
  });
});
