import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { fillUp, withTmpfs } from '../support/tmpfs.js';

/**
 * The file system failing under a write (docs/reliability.md): a disk that
 * fills up, a folder the user may not write, a read-only mount. Each is real:
 * a 64 KiB tmpfs filled to the last byte, a run as user nobody (root writes
 * anywhere), a tmpfs mounted read-only; the tests run as root, as CI does.
 * The command stops with exit 2 naming the flag, the path and the cause; the
 * previous file at that path is left whole (every write goes through a
 * temporary file and a rename); no temporary file is left behind.
 */
const HYPERFINE = new URL('../fixtures/hyperfine/two-commands.json', import.meta.url).pathname;
const PREVIOUS = '{"previous": "report, whole"}\n';
function leftovers(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => n.includes('.tmp-'));
}

test('a full disk: exit 2 naming --json and "no space left", the previous report whole, no temporary file', async () => {
  const work = tempDir();
  writeFileSync(join(work, 'current.json'), readFileSync(HYPERFINE));
  await withTmpfs(join(work, 'disk'), 'size=64k', async (disk) => {
    writeFileSync(join(disk, 'report.json'), PREVIOUS);
    fillUp(disk); // the report of two benchmarks needs a few KB
    const r = await runCli(['compare', '--current', 'current.json', '--json', join(disk, 'report.json')], work);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--json ".*report\.json": cannot write the file: no space left on the device/);
    assert.doesNotMatch(r.stderr, /internal error/);
    assert.equal(readFileSync(join(disk, 'report.json'), 'utf8'), PREVIOUS);
    assert.deepEqual(leftovers(disk), []);
  });
});

test('a full disk under a stored ResultSet (convert --out): exit 2, the previous file whole', async () => {
  const work = tempDir();
  writeFileSync(join(work, 'current.json'), readFileSync(HYPERFINE));
  await withTmpfs(join(work, 'disk'), 'size=64k', async (disk) => {
    writeFileSync(join(disk, 'results.json'), PREVIOUS);
    fillUp(disk);
    const r = await runCli(['convert', '--to', 'resultset', '--input', 'current.json', '--out', join(disk, 'results.json')], work);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--out ".*results\.json".*no space left on the device/);
    assert.equal(readFileSync(join(disk, 'results.json'), 'utf8'), PREVIOUS);
    assert.deepEqual(leftovers(disk), []);
  });
});

test('a folder the user may not write (EACCES, as user nobody): exit 2 naming the cause, the previous report whole', async () => {
  const work = tempDir();
  chmodSync(work, 0o755);
  writeFileSync(join(work, 'current.json'), readFileSync(HYPERFINE));
  chmodSync(join(work, 'current.json'), 0o644);
  const locked = join(work, 'locked');
  mkdirSync(locked, { mode: 0o755 });
  writeFileSync(join(locked, 'report.md'), PREVIOUS);
  const outside = join(work, 'home');
  mkdirSync(outside);
  chownSync(outside, 65534, 65534);
  const cli = new URL('../../dist/cli.js', import.meta.url).pathname;
  let status = 0;
  let stderr = '';
  try {
    execFileSync(
      'setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        cli,
        'compare',
        '--current',
        'current.json',
        '--markdown',
        join(locked, 'report.md'),
      ],
      { cwd: work, env: { PATH: process.env.PATH, HOME: outside }, stdio: 'pipe' },
    );
  } catch (error) {
    status = (error as { status: number }).status;
    stderr = String((error as { stderr: Buffer }).stderr);
  }
  assert.equal(status, 2, stderr);
  assert.match(stderr, /--markdown ".*report\.md".*permission denied/);
  assert.equal(readFileSync(join(locked, 'report.md'), 'utf8'), PREVIOUS);
});

test('a read-only results folder (EROFS): exit 2 naming the cause', async () => {
  const work = tempDir();
  writeFileSync(join(work, 'current.json'), readFileSync(HYPERFINE));
  await withTmpfs(join(work, 'ro'), 'size=64k,ro', async (ro) => {
    const r = await runCli(['compare', '--current', 'current.json', '--json', join(ro, 'report.json')], work);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--json ".*report\.json".*read-only/);
  });
});

test('a full disk under the history folder: exit 2 naming the file, the earlier runs kept, no temporary file', async () => {
  const work = tempDir();
  writeFileSync(join(work, 'current.json'), readFileSync(HYPERFINE));
  await withTmpfs(join(work, 'history'), 'size=64k', async (history) => {
    const first = await runCli(['history', 'add', '--history', history, '--commit', 'a'.repeat(40), '--testbed', 'bed', 'current.json'], work);
    assert.equal(first.status, 0, first.stderr);
    fillUp(history);
    const second = await runCli(['history', 'add', '--history', history, '--commit', 'b'.repeat(40), '--testbed', 'bed', 'current.json'], work);
    assert.equal(second.status, 2, second.stderr);
    assert.match(second.stderr, /bed\/.*: cannot write this history file: no space left on the device; the history is unchanged/);
    assert.doesNotMatch(second.stderr, /internal error/);
    const list = await runCli(['history', 'list', '--history', history], work);
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, /a{12}/);
    assert.doesNotMatch(list.stdout, /b{12}/);
    assert.deepEqual(leftovers(history), []);
  });
});
