import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseClaim, readHandoffFolder, writeHandoff } from '../../src/action/handoff.js';
import { decideForkSafety, pullRequestFromEvent } from '../../src/github/fork.js';
import { InputError, newResultSet } from '../../src/model/index.js';
import { tempDir } from '../support/temp.js';

const sha = 'a'.repeat(40);

test('a handoff written by stage one reads back', () => {
  const dir = tempDir('handoff-');
  writeHandoff(dir, { pullRequest: 5, headSha: sha, gate: 'g' }, newResultSet('2026-11-21T12:00:00Z'));
  const read = readHandoffFolder(dir);
  assert.equal(read.claim.pullRequest, 5);
  assert.equal(read.results.schema, 'perf-gate/results@1');
});

test('the claim is validated strictly', () => {
  const ok = { schema: 'perf-gate/handoff@1', pullRequest: 5, headSha: sha, gate: 'g' };
  assert.equal(parseClaim(ok, 'f').pullRequest, 5);
  for (const bad of [
    { ...ok, pullRequest: '5' },
    { ...ok, pullRequest: -1 },
    { ...ok, pullRequest: 1.5 },
    { ...ok, headSha: 'HEAD' },
    { ...ok, headSha: `${sha}; rm -rf /` },
    { ...ok, gate: '--> <b>' },
    { ...ok, extra: 1 },
    [ok],
  ]) {
    assert.throws(() => parseClaim(bad, 'f'), InputError, JSON.stringify(bad));
  }
});

test('symbolic links in the artifact are refused', () => {
  const dir = tempDir('handoff-link-');
  mkdirSync(join(dir, 'x'));
  writeFileSync(join(dir, 'pull-request.json'), JSON.stringify({ schema: 'perf-gate/handoff@1', pullRequest: 5, headSha: sha, gate: 'g' }));
  symlinkSync('/etc/passwd', join(dir, 'results.json'));
  assert.throws(() => readHandoffFolder(dir), /regular file/);
});

test('fork detection compares head and base repositories', () => {
  const event = (head: string | null) => ({
    pull_request: { number: 3, head: { sha, repo: head ? { full_name: head } : null }, base: { sha, repo: { full_name: 'acme/x' } } },
  });
  assert.equal(pullRequestFromEvent(event('acme/x'))!.fromFork, false);
  assert.equal(pullRequestFromEvent(event('ACME/x'))!.fromFork, false);
  assert.equal(pullRequestFromEvent(event('eve/x'))!.fromFork, true);
  assert.equal(pullRequestFromEvent(event(null))!.fromFork, true, 'a deleted fork is still a fork');
  assert.equal(pullRequestFromEvent({ ref: 'refs/heads/main' }), null);
});

test('forks are refused on self-hosted (and unknown) runners unless allowed', () => {
  const pr = pullRequestFromEvent({ pull_request: { number: 3, head: { sha, repo: { full_name: 'eve/x' } }, base: { sha, repo: { full_name: 'acme/x' } } } });
  assert.equal(decideForkSafety(pr, 'self-hosted', false).allowed, false);
  assert.equal(decideForkSafety(pr, '', false).allowed, false);
  assert.equal(decideForkSafety(pr, 'self-hosted', true).allowed, true);
  assert.equal(decideForkSafety(pr, 'github-hosted', false).allowed, true);
});

test('a fork under pull_request_target (write token, secrets) is refused on every runner unless explicitly allowed', () => {
  const pr = { number: 7, headSha: 'a'.repeat(40), baseSha: null, headRepo: 'evil/fork', baseRepo: 'acme/prog', fromFork: true };
  const refused = decideForkSafety(pr, 'github-hosted', false, 'pull_request_target');
  assert.equal(refused.allowed, false);
  assert.ok(!refused.allowed && /write token/.test(refused.message));
  assert.equal(decideForkSafety(pr, 'github-hosted', true, 'pull_request_target').allowed, true);
  assert.equal(decideForkSafety(pr, 'github-hosted', false, 'pull_request').allowed, true);
});
