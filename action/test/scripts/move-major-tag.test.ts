import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp.js';

const script = new URL('../../../scripts/move-major-tag.sh', import.meta.url).pathname;
const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env }).trim();
}

function setup(): { work: string; remote: string } {
  const root = tempDir('move-tag-');
  const remote = join(root, 'remote.git');
  const work = join(root, 'work');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  execFileSync('git', ['init', '-q', '-b', 'main', work]);
  git(work, 'remote', 'add', 'origin', remote);
  return { work, remote };
}

function commit(work: string, text: string): string {
  writeFileSync(join(work, 'f.txt'), text);
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', text);
  return git(work, 'rev-parse', 'HEAD');
}

test('moves v1 to the new release and pushes it', () => {
  const { work, remote } = setup();
  const first = commit(work, 'one');
  git(work, 'tag', 'v1.0.0');
  let r = spawnSync('bash', [script, 'v1.0.0'], { cwd: work, encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(git(remote, 'rev-parse', 'v1^{commit}'), first);
  const second = commit(work, 'two');
  git(work, 'tag', '-a', 'v1.1.0', '-m', 'annotated release');
  r = spawnSync('bash', [script, 'v1.1.0'], { cwd: work, encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(git(remote, 'rev-parse', 'v1^{commit}'), second);
});

test('refuses a tag that is not vX.Y.Z or does not exist', () => {
  const { work } = setup();
  commit(work, 'one');
  for (const [tag, message] of [
    ['main', /expected a release tag/],
    ['v1.2', /expected a release tag/],
    ['v9.9.9', /no tag v9\.9\.9/],
  ] as const) {
    const r = spawnSync('bash', [script, tag], { cwd: work, encoding: 'utf8', env });
    assert.equal(r.status, 2);
    assert.match(r.stderr, message);
  }
});
