import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lockfilePackages, packageChanges } from '../../src/runner/lockfile-packages.js';

const read = (path: string): string => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe('the packages a lockfile pins', () => {
  test("real lockfiles: the criterion example's Cargo.lock and the project's package-lock.json (v3)", () => {
    const cargo = lockfilePackages('Cargo.lock', read('examples/rust-criterion/Cargo.lock'))!;
    assert.match(cargo.get('serde') ?? '', /^1\.0\.\d+$/);
    assert.equal(cargo.get('criterion'), /name = "criterion"\nversion = "([^"]+)"/.exec(read('examples/rust-criterion/Cargo.lock'))![1]);
    const npm = lockfilePackages('package-lock.json', read('package-lock.json'))!;
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { version?: string }> };
    assert.equal(npm.get('yaml'), lock.packages['node_modules/yaml']!.version);
    assert.equal(npm.get('@actions/core'), lock.packages['node_modules/@actions/core']!.version);
    assert.equal(npm.has(''), false, 'the root package is not a dependency');
  });

  test('the other formats with names and versions', () => {
    const goSum = 'golang.org/x/text v0.14.0 h1:abc=\ngolang.org/x/text v0.14.0/go.mod h1:def=\ngithub.com/google/uuid v1.6.0 h1:x=\n';
    assert.deepEqual(
      [...lockfilePackages('go.sum', goSum)!],
      [
        ['golang.org/x/text', 'v0.14.0'],
        ['github.com/google/uuid', 'v1.6.0'],
      ],
    );
    const requirements = '# pinned\npyperf==2.8.1\nNumPy[extra] == 2.1.3 ; python_version >= "3.10"\n--index-url x\nrich>=13\n';
    assert.deepEqual(
      [...lockfilePackages('requirements-bench.txt', requirements)!],
      [
        ['pyperf', '2.8.1'],
        ['numpy', '2.1.3'],
      ],
    );
    const uv = '[[package]]\nname = "pyperf"\nversion = "2.8.1"\n\n[[package]]\nname = "psutil"\nversion = "6.1.0"\n';
    assert.equal(lockfilePackages('uv.lock', uv)!.get('psutil'), '6.1.0');
    const pnpm =
      "lockfileVersion: '9.0'\npackages:\n  yaml@2.9.1:\n    resolution: {integrity: x}\n  '@scope/a@1.0.0(peer@2.0.0)':\n    resolution: {integrity: y}\n";
    assert.deepEqual(
      [...lockfilePackages('pnpm-lock.yaml', pnpm)!],
      [
        ['yaml', '2.9.1'],
        ['@scope/a', '1.0.0'],
      ],
    );
    const swift = JSON.stringify({ pins: [{ identity: 'swift-collections', state: { version: '1.1.4' } }], version: 2 });
    assert.deepEqual([...lockfilePackages('Package.resolved', swift)!], [['swift-collections', '1.1.4']]);
    const gradle = '# comment\ncom.google.guava:guava:33.3.1-jre=runtimeClasspath\nempty=\n';
    assert.deepEqual([...lockfilePackages('gradle.lockfile', gradle)!], [['com.google.guava:guava', '33.3.1-jre']]);
    // Two majors of one crate: both versions, sorted.
    const twice = '[[package]]\nname = "syn"\nversion = "2.0.90"\n\n[[package]]\nname = "syn"\nversion = "1.0.109"\n';
    assert.equal(lockfilePackages('Cargo.lock', twice)!.get('syn'), '1.0.109, 2.0.90');
  });

  test('a format without names, or a file that does not parse, gives null: the report then says only "changed"', () => {
    assert.equal(lockfilePackages('yarn.lock', 'whatever'), null);
    assert.equal(lockfilePackages('pom.xml', '<project/>'), null);
    assert.equal(lockfilePackages('Cargo.lock', '<<<<<<< HEAD\n[[package]]\n'), null);
    assert.equal(lockfilePackages('package-lock.json', '{"packages": '), null);
  });

  test('the changes name added, removed and moved packages, by name', () => {
    const before = new Map([
      ['serde', '1.0.210'],
      ['itoa', '1.0.11'],
      ['ryu', '1.0.18'],
    ]);
    const after = new Map([
      ['serde', '1.0.214'],
      ['ryu', '1.0.18'],
      ['zerocopy', '0.8.10'],
    ]);
    assert.deepEqual(packageChanges(before, after), [
      { name: 'itoa', before: '1.0.11', after: null },
      { name: 'serde', before: '1.0.210', after: '1.0.214' },
      { name: 'zerocopy', before: null, after: '0.8.10' },
    ]);
  });
});
