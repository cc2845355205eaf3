import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { release } from 'node:os';
import { join } from 'node:path';
import { parsePerfGateConfig } from '../../src/config/perf-gate-config.js';
import { buildFlags, readEnvironment, readMicrocode } from '../../src/runner/environment.js';
import { isLockfile, lockfileHashes } from '../../src/runner/lockfiles.js';
import { systemFiles } from '../../src/runner/preflight/system-files.js';
import { configuredProbe, probeVersion, toolsOfCommand } from '../../src/runner/toolchains.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';
import { writeTree } from './preflight/fake-root.js';

requireTool('git');
requireTool('cargo');
requireTool('go');

describe('the toolchains a suite calls', () => {
  test('are read off the words of its commands', () => {
    assert.deepEqual(toolsOfCommand('cargo bench --bench parse -- --output-format bencher'), ['rustc', 'cargo']);
    assert.deepEqual(toolsOfCommand('cd bench && ./mvnw -q package && java -jar target/benchmarks.jar'), ['java', 'mvn']);
    assert.deepEqual(toolsOfCommand('make -C c bench && /usr/bin/g++ -O2 x.cc'), ['cc', 'c++']);
    assert.deepEqual(toolsOfCommand('go test -bench=. -count=10 ./... > {output}'), ['go']);
    assert.deepEqual(toolsOfCommand('h2load --h1 -n 400 -c 4 http://127.0.0.1:8080/ > {output}'), ['h2load']);
    assert.deepEqual(toolsOfCommand('echo nothing to build'), []);
  });

  test("perf-gate.yml's toolchain: names a tool or gives the whole command", () => {
    assert.deepEqual(configuredProbe('protoc', '/r', {}), { name: 'protoc', command: 'protoc --version', cwd: '/r', env: {} });
    assert.deepEqual(configuredProbe('rustc', '/r', {}).command, 'rustc --version');
    assert.deepEqual(configuredProbe(' zig version ', '/r', {}), { name: 'zig', command: 'zig version', cwd: '/r', env: {} });
  });

  test('a version is the first line the tool prints, stdout or stderr; a missing tool is null', () => {
    const rustc = probeVersion({ name: 'rustc', command: 'rustc --version', cwd: '/', env: process.env });
    assert.equal(rustc, execFileSync('rustc', ['--version'], { encoding: 'utf8' }).trim());
    // java -version prints to stderr.
    assert.match(probeVersion({ name: 'java', command: 'java -version', cwd: '/', env: process.env }) ?? '', /^(openjdk|java) version "\d+/);
    assert.equal(probeVersion({ name: 'nope', command: 'perf-gate-no-such-tool --version', cwd: '/', env: process.env }), null);
    assert.equal(probeVersion({ name: 'fails', command: 'echo 1.0; exit 3', cwd: '/', env: process.env }), null);
  });
});

describe('the environment of a checkout', () => {
  test('microcode comes from /proc/cpuinfo, and a VM that hides it has none', () => {
    const { root, cleanup } = writeTree({
      '/proc/cpuinfo': 'processor\t: 0\nmodel name\t: X\nmicrocode\t: 0xa201016\n\nprocessor\t: 1\nmicrocode\t: 0xa201016\n',
    });
    try {
      assert.equal(readMicrocode(systemFiles(root)), '0xa201016');
    } finally {
      cleanup();
    }
    const hidden = writeTree({ '/proc/cpuinfo': 'processor\t: 0\nmodel name\t: X\n' });
    try {
      assert.equal(readMicrocode(systemFiles(hidden.root)), null);
    } finally {
      hidden.cleanup();
    }
  });

  test('records the kernel, the toolchains its suites call, their flags and its tracked lockfiles', () => {
    const repo = tempDir('perf-gate-env-');
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
    git('init', '-q');
    mkdirSync(join(repo, 'rust'), { recursive: true });
    writeFileSync(join(repo, 'rust', 'Cargo.lock'), '# real enough to hash\nversion = 3\n');
    writeFileSync(join(repo, 'go.sum'), 'golang.org/x/text v0.14.0 h1:abc=\n');
    writeFileSync(join(repo, 'requirements-bench.txt'), 'pyperf==2.8.1\n');
    writeFileSync(join(repo, 'package-lock.json'), '{}\n');
    git('add', 'rust/Cargo.lock', 'go.sum', 'requirements-bench.txt');
    // package-lock.json stays untracked: not the project's.
    writeFileSync(
      join(repo, 'perf-gate.yml'),
      'version: 1\ntoolchain: [git]\nsuites:\n  - name: rust\n    workdir: rust\n    run: cargo bench > {output}\n    env:\n      RUSTFLAGS: "-C target-cpu=native"\n  - name: go\n    run: go test -bench=. > {output}\n',
    );
    const config = parsePerfGateConfig(readFileSync(join(repo, 'perf-gate.yml'), 'utf8'), join(repo, 'perf-gate.yml'), repo);
    const environment = readEnvironment({
      files: systemFiles('/'),
      dir: repo,
      suites: config.suites,
      toolchain: config.toolchain,
      env: { ...process.env, CFLAGS: '-O2' },
    });
    const version = (cmd: string, ...args: string[]) => execFileSync(cmd, args, { encoding: 'utf8' }).split('\n')[0];
    assert.equal(environment.kernel, release());
    assert.deepEqual(environment.toolchains, {
      cargo: version('cargo', '--version'),
      git: version('git', '--version'),
      go: version('go', 'version'),
      rustc: version('rustc', '--version'),
    });
    assert.deepEqual(environment.flags, { CFLAGS: '-O2', 'rust:RUSTFLAGS': '-C target-cpu=native' });
    assert.deepEqual(Object.keys(environment.lockfiles!), ['go.sum', 'requirements-bench.txt', 'rust/Cargo.lock']);
    assert.deepEqual(lockfileHashes(repo), environment.lockfiles);
    for (const hash of Object.values(environment.lockfiles!)) assert.match(hash, /^[0-9a-f]{16}$/);
  });

  test('flags come from the runner and from each suite, and lockfile names are matched by ecosystem', () => {
    assert.deepEqual(buildFlags([], { RUSTFLAGS: '', GOFLAGS: '-tags=bench', PATH: '/bin' }), { GOFLAGS: '-tags=bench' });
    for (const path of [
      'Cargo.lock',
      'a/b/package-lock.json',
      'go.sum',
      'requirements.txt',
      'requirements-dev.txt',
      'gradle/dependency-locks/x.lockfile',
      'Package.resolved',
    ])
      assert.equal(isLockfile(path), true, path);
    for (const path of ['requirements/dev.txt', 'src/lock.rs', 'Cargo.toml', 'package.json']) assert.equal(isLockfile(path), false, path);
  });
});
