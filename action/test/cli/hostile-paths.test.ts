import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../src/cli.js';
import { runCli, type CliRun } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

/**
 * Issue 11, item 8: every subcommand meets hostile output paths with a clear
 * exit 2 naming the flag and the path, never an "internal error" (a thrown
 * Error the CLI does not map, which the entry point prints with its stack).
 *
 * Tests run as root here, where a chmod 000 folder does not stop anyone, so
 * "no permission" uses places even root cannot write: a folder under /proc
 * (which takes no new files) and a path whose parent is a plain file.
 */
const LONG = `${'x'.repeat(300)}.json`; // one name of 305 bytes, over the 255-byte limit

interface Face {
  command: string;
  flag: string;
  kind: 'file' | 'folder';
  /** The argument list with the output path put in. */
  argv(path: string): string[];
  /** Whether a run with a good path is cheap and self-contained enough to check here. */
  succeeds: boolean;
}

const faces: Face[] = [
  { command: 'compare', flag: '--json', kind: 'file', argv: (p) => ['compare', '--current', 'good.json', '--json', p], succeeds: true },
  { command: 'compare', flag: '--markdown', kind: 'file', argv: (p) => ['compare', '--current', 'good.json', '--markdown', p], succeeds: true },
  { command: 'convert', flag: '--out', kind: 'file', argv: (p) => ['convert', '--to', 'bmf', '--input', 'good.json', '--out', p], succeeds: true },
  {
    command: 'time',
    flag: '--export-json',
    kind: 'file',
    argv: (p) => ['time', '--runs', '1', '--warmup', '0', '--export-json', p, '--command', 'true'],
    succeeds: true,
  },
  // A good path needs valgrind on PATH, which these runs do not pass; test/cli/count.test.ts writes files.
  { command: 'count', flag: '--export-json', kind: 'file', argv: (p) => ['count', '--repeat', '1', '--export-json', p, '--command', 'true'], succeeds: false },
  { command: 'preflight', flag: '--json', kind: 'file', argv: (p) => ['preflight', '--level', 'off', '--no-probe', '--json', p], succeeds: true },
  { command: 'merge', flag: '--out', kind: 'file', argv: (p) => ['merge', '--out', p, 'set.json'], succeeds: true },
  { command: 'run', flag: '--json', kind: 'file', argv: (p) => ['run', '--config', 'perf-gate.yml', '--json', p], succeeds: false },
  { command: 'run', flag: '--markdown', kind: 'file', argv: (p) => ['run', '--config', 'perf-gate.yml', '--markdown', p], succeeds: false },
  { command: 'run', flag: '--out', kind: 'folder', argv: (p) => ['run', '--config', 'perf-gate.yml', '--out', p], succeeds: false },
  {
    command: 'report',
    flag: '--json',
    kind: 'file',
    argv: (p) => ['report', 'release', '--from', 'a', '--to', 'b', '--history', 'no-history', '--json', p],
    succeeds: false,
  },
  {
    command: 'report',
    flag: '--markdown',
    kind: 'file',
    argv: (p) => ['report', 'release', '--from', 'a', '--to', 'b', '--history', 'no-history', '--markdown', p],
    succeeds: false,
  },
  {
    command: 'report',
    flag: '--out',
    kind: 'folder',
    argv: (p) => ['report', 'release', '--from', 'a', '--to', 'b', '--history', 'no-history', '--out', p],
    succeeds: false,
  },
  { command: 'dashboard', flag: '--out', kind: 'folder', argv: (p) => ['dashboard', '--out', p, '--history', 'no-history'], succeeds: false },
  { command: 'bisect', flag: '--json', kind: 'file', argv: (p) => ['bisect', '--good', 'a', '--bad', 'b', '--benchmark', 'x/y', '--json', p], succeeds: false },
  {
    command: 'bisect',
    flag: '--markdown',
    kind: 'file',
    argv: (p) => ['bisect', '--good', 'a', '--bad', 'b', '--benchmark', 'x/y', '--markdown', p],
    succeeds: false,
  },
  { command: 'bisect', flag: '--out', kind: 'folder', argv: (p) => ['bisect', '--good', 'a', '--bad', 'b', '--benchmark', 'x/y', '--out', p], succeeds: false },
  {
    command: 'history',
    flag: '--history',
    kind: 'folder',
    argv: (p) => ['history', 'add', '--history', p, '--commit', 'a'.repeat(40), '--testbed', 'test-bed', 'good.json'],
    succeeds: true,
  },
];

const hostile: { what: string; path: string; file: RegExp; folder: RegExp }[] = [
  { what: 'a parent that is a file', path: 'afile/x.json', file: /afile is a file, expected a folder/, folder: /afile is a file, expected a folder/ },
  {
    what: 'a place even root cannot write (/proc)',
    path: '/proc/perf-gate-nope/x.json',
    file: /cannot create the folder|cannot write into the folder|permission denied|read-only/,
    folder: /cannot create the folder|cannot write into the folder|permission denied|read-only/,
  },
  { what: 'a folder where a file is expected (or a file where a folder is)', path: 'adir', file: /is a folder, expected a file/, folder: /x^/ },
  { what: 'a file where a folder is expected', path: 'afile', file: /x^/, folder: /is a file, expected a folder/ },
  { what: 'a name over 255 bytes', path: LONG, file: /name too long/, folder: /name too long/ },
  { what: 'an empty string', path: '', file: /is empty/, folder: /is empty/ },
];

function assertNoInternalError(r: CliRun): void {
  assert.doesNotMatch(r.stdout + r.stderr, /internal error/i);
  assert.doesNotMatch(r.stdout + r.stderr, /\n\s+at .+:\d+:\d+\)?\n/, 'no stack trace');
}

describe('hostile output paths: exit 2 naming the flag and the path, never an internal error', () => {
  const dir = tempDir();
  before(async () => {
    writeFileSync(join(dir, 'good.json'), readFileSync(new URL('../fixtures/hyperfine/two-commands.json', import.meta.url), 'utf8'));
    writeFileSync(join(dir, 'afile'), 'a plain file\n');
    mkdirSync(join(dir, 'adir'));
    const made = await runCli(['convert', '--to', 'resultset', '--input', 'good.json', '--out', 'set.json'], dir);
    assert.equal(made.status, 0, made.stderr);
  });

  test('the table covers every subcommand that writes a file (the action is checked in its own test)', () => {
    const covered = new Set(faces.map((f) => f.command));
    for (const name of Object.keys(COMMANDS)) if (name !== 'action') assert.ok(covered.has(name), `${name} is not in the table`);
  });

  for (const face of faces) {
    for (const h of hostile) {
      const expected = face.kind === 'file' ? h.file : h.folder;
      if (expected.source === 'x^') continue;
      test(`${face.command} ${face.flag} with ${h.what}`, async () => {
        let r: CliRun;
        try {
          r = await runCli(face.argv(h.path), dir);
        } catch (error) {
          assert.fail(`internal error (the CLI threw): ${String(error)}`);
        }
        assertNoInternalError(r);
        assert.equal(r.status, 2, `${r.stdout}${r.stderr}`);
        assert.ok(r.stderr.includes(face.flag), `names the flag ${face.flag}: ${r.stderr}`);
        if (h.path !== '') assert.ok(r.stderr.includes(h.path.slice(0, 40)), `names the path: ${r.stderr}`);
        assert.match(r.stderr, expected);
      });
    }
    if (face.succeeds) {
      test(`${face.command} ${face.flag} creates a missing parent folder`, async () => {
        const path = `new-${face.command}-${face.flag.slice(2)}/deeper/out.file`;
        const r = await runCli(face.argv(path), dir);
        assertNoInternalError(r);
        assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
        assert.ok(existsSync(join(dir, path)), `${path} written`);
      });
    }
  }
});
