import { describe, test } from 'node:test';
import assert, { AssertionError } from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp.js';
import { findTool, INSTALL_COMMAND, requirePython, requireTool } from './tools.js';

const TOOLS = fileURLToPath(new URL('./tools.ts', import.meta.url));

describe('a test that needs a missing tool fails naming the tool and the install command', () => {
  const dir = tempDir('pg-tools-');
  // A PATH with a shell and nothing else: no hyperfine, no python3.
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  symlinkSync(findTool('sh')!, join(bin, 'sh'));
  const env = { PATH: bin, HOME: dir };

  test('requireTool: the message names the tool and the README install step', () => {
    assert.throws(
      () => requireTool('hyperfine', { env }),
      (e: unknown) => {
        assert.ok(e instanceof AssertionError, 'an assertion failure, not a skip or a TypeError');
        assert.match(e.message, new RegExp(`^hyperfine is not installed: run ${INSTALL_COMMAND} `));
        return true;
      },
    );
    assert.equal(requireTool('sh', { env }), join(bin, 'sh'), 'a tool that is there passes and gives its path');
    assert.throws(() => requireTool('sh', 'wrk', { env }), /^AssertionError.*wrk is not installed: run npm run setup/);
  });

  test('tools that go install and cargo install put off PATH are found there', () => {
    const gopath = join(dir, 'gopath');
    mkdirSync(join(gopath, 'bin'), { recursive: true });
    symlinkSync(findTool('sh')!, join(gopath, 'bin', 'benchstat'));
    assert.equal(requireTool('benchstat', { env: { ...env, GOPATH: gopath } }), join(gopath, 'bin', 'benchstat'));
    assert.throws(() => requireTool('benchstat', { env }), /benchstat is not installed/);
  });

  test('requirePython: no python3, or a module missing, each named (not EPIPE)', () => {
    assert.throws(() => requirePython('numpy', { env }), /^AssertionError.*python3 is not installed: run npm run setup/);
    requireTool('python3');
    assert.throws(
      () => requirePython('json', 'no_such_module_pg', 'no_such_other_pg'),
      /^AssertionError.*python3 modules no_such_module_pg, no_such_other_pg are not installed: run npm run setup/,
    );
    requirePython('json', 'sqlite3');
  });

  test('a test file whose tool is missing FAILS (not skipped) with that message', () => {
    const file = join(dir, 'needs-hyperfine.test.ts');
    writeFileSync(
      file,
      `import { test } from 'node:test';\nimport { requireTool } from ${JSON.stringify(TOOLS)};\nrequireTool('hyperfine');\ntest('uses hyperfine', () => {});\n`,
    );
    const childEnv: NodeJS.ProcessEnv = { ...process.env, PATH: bin, HOME: dir };
    delete childEnv['NODE_TEST_CONTEXT']; // else the child thinks it runs inside this test run and runs nothing
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', file], {
      encoding: 'utf8',
      env: childEnv,
      cwd: fileURLToPath(new URL('../../../', import.meta.url)),
    });
    const out = r.stdout + r.stderr;
    assert.equal(r.status, 1, out);
    assert.match(out, /hyperfine is not installed: run npm run setup/);
    assert.doesNotMatch(out, /# skipped [1-9]/);
  });
});
