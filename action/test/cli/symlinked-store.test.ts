import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

/**
 * A store folder that is a symbolic link out of the repository
 * (docs/security.md): a link committed to the repository would make the
 * main-branch job write wherever it points. perf-gate refuses to write
 * through it (exit 2, naming the key and where it leads) and writes nothing
 * there; an ordinary folder, and a folder configured outside the repository
 * by its real path, are written as before.
 */
const HYPERFINE = new URL('../fixtures/hyperfine/two-commands.json', import.meta.url).pathname;

function project(): { repo: string; outside: string } {
  const dir = tempDir('pg-symlinked-store-');
  const repo = join(dir, 'repo');
  const outside = join(dir, 'outside');
  mkdirSync(repo);
  mkdirSync(outside);
  writeFileSync(join(repo, 'current.json'), readFileSync(HYPERFINE));
  return { repo, outside };
}

test('history add into a history folder that links out of the repository is refused, and nothing is written there', async () => {
  const { repo, outside } = project();
  symlinkSync(outside, join(repo, 'history'));
  const r = await runCli(['history', 'add', '--history', 'history', '--commit', 'a'.repeat(40), '--testbed', 'bed', 'current.json'], repo);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /history\.folder: .*history leads outside the repository \(to .*outside\) through a symbolic link/);
  assert.deepEqual(readdirSync(outside), []);
});

test('mode main writing its baseline into a baselines folder that links out of the repository is refused before any suite runs', async () => {
  const { repo, outside } = project();
  symlinkSync(outside, join(repo, 'baselines'));
  writeFileSync(
    join(repo, 'perf-gate.yml'),
    'version: 1\nbaselines: baselines/\nsuites:\n  - name: s\n    run: "echo never > ran.txt; true"\n    format: hyperfine\n',
  );
  const r = await runCli(['run', '--config', 'perf-gate.yml', '--mode', 'main'], repo);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /baselines: .*leads outside the repository/);
  assert.deepEqual(readdirSync(outside), []);
  assert.deepEqual(
    readdirSync(repo).filter((n) => n === 'ran.txt'),
    [],
    'refused before the suite ran',
  );
});

test('an ordinary history folder, and one configured outside the repository by its real path, are written', async () => {
  const { repo, outside } = project();
  const inside = await runCli(['history', 'add', '--history', 'history', '--commit', 'a'.repeat(40), '--testbed', 'bed', 'current.json'], repo);
  assert.equal(inside.status, 0, inside.stderr);
  const elsewhere = await runCli(['history', 'add', '--history', outside, '--commit', 'b'.repeat(40), '--testbed', 'bed', 'current.json'], repo);
  assert.equal(elsewhere.status, 0, elsewhere.stderr);
  assert.deepEqual(readdirSync(outside), ['bed']);
});
