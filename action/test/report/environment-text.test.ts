import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { environmentChangeText, environmentChangesText, environmentSentence, versionOf } from '../../src/report/environment-text.js';
import { markdownEnvironment } from '../../src/report/markdown.js';
import type { GateReport } from '../../src/gate/index.js';
import type { EnvironmentChange } from '../../src/model/index.js';

describe('the environment change in words', () => {
  test('a toolchain shows its versions, else its whole lines', () => {
    assert.equal(versionOf('rustc 1.83.0 (90b35a623 2024-11-26)'), '1.83.0');
    assert.equal(versionOf('gcc (Debian 12.2.0-14+deb12u1) 12.2.0'), '12.2.0-14+deb12u1');
    assert.equal(versionOf('go version go1.26.8 linux/amd64'), '1.26.8');
    assert.equal(versionOf('v20.20.2'), '20.20.2');
    assert.equal(
      environmentChangeText({ kind: 'toolchain', name: 'rustc', before: 'rustc 1.82.0 (f6e511eec 2024-10-15)', after: 'rustc 1.83.0 (90b35a623 2024-11-26)' }),
      'rustc 1.82.0 → 1.83.0',
    );
    assert.equal(
      environmentChangeText({ kind: 'toolchain', name: 'rustc', before: 'rustc 1.83.0-nightly (a)', after: 'rustc 1.83.0-nightly (b)' }),
      'rustc "rustc 1.83.0-nightly (a)" → "rustc 1.83.0-nightly (b)"',
    );
  });

  test('lockfiles name at most five packages, and a long list of changes is cut', () => {
    const packages = Array.from({ length: 7 }, (_, i) => ({ name: `crate${i}`, before: '1.0.0', after: '1.0.1' }));
    assert.equal(
      environmentChangeText({ kind: 'lockfile', path: 'Cargo.lock', before: 'a', after: 'b', packages }),
      'Cargo.lock changed (7 packages: crate0 1.0.0 → 1.0.1, crate1 1.0.0 → 1.0.1, crate2 1.0.0 → 1.0.1, crate3 1.0.0 → 1.0.1, crate4 1.0.0 → 1.0.1, and 2 more)',
    );
    assert.equal(environmentChangeText({ kind: 'lockfile', path: 'go.sum', before: null, after: 'b' }), 'go.sum added');
    assert.equal(environmentChangeText({ kind: 'flag', name: 'CFLAGS', before: null, after: '-O3' }), 'CFLAGS (unset) → "-O3"');
    const many: EnvironmentChange[] = Array.from({ length: 10 }, (_, i) => ({ kind: 'flag', name: `F${i}`, before: 'a', after: 'b' }));
    assert.match(environmentChangesText(many), /; F7 "a" → "b"; and 2 more$/);
    assert.ok(environmentChangeText({ kind: 'flag', name: 'X', before: 'a', after: 'b'.repeat(1000) }).length <= 240);
    assert.equal(environmentSentence([]), '');
  });

  test('in Markdown, a hostile flag value is escaped', () => {
    const report = {
      environment: [{ kind: 'flag', name: 'CFLAGS', before: null, after: '<img src=x onerror=alert(1)> [x](http://evil) | *' }],
    } as unknown as GateReport;
    const line = markdownEnvironment(report);
    assert.ok(!line.includes('<img'), line);
    assert.ok(!line.includes('](http'), line);
    assert.match(line, /^🔧 \*\*Environment changed since the baseline: CFLAGS \(unset\) → /);
  });
});
