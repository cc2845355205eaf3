import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeGroupFromEvent, pullRequestFromEvent, pullRequestOfSubject } from '../../src/github/index.js';
import { webhookPayload } from '../support/fake-github/webhooks.js';
import { batchBlameMarkdown } from '../../src/report/batch-blame.js';

const HEAD = 'a'.repeat(40);
const BASE = 'b'.repeat(40);

test("a merge_group payload as GitHub's schema describes it gives the group's head, base and last pull request", () => {
  const payload = webhookPayload('merge-group-checks-requested', {
    action: 'checks_requested',
    merge_group: {
      head_sha: HEAD,
      head_ref: `refs/heads/gh-readonly-queue/main/pr-1234-${'f'.repeat(40)}`,
      base_sha: BASE,
      base_ref: 'refs/heads/main',
    },
  });
  assert.deepEqual(mergeGroupFromEvent(payload), {
    headSha: HEAD,
    headRef: `refs/heads/gh-readonly-queue/main/pr-1234-${'f'.repeat(40)}`,
    baseSha: BASE,
    baseRef: 'refs/heads/main',
    lastPullRequest: 1234,
  });
  assert.equal(pullRequestFromEvent(payload), null, 'a group is no pull request');
});

test('a payload that is not a merge group, or a head ref that names no pull request', () => {
  assert.equal(mergeGroupFromEvent({ pull_request: { number: 1 } }), null);
  assert.equal(mergeGroupFromEvent({ merge_group: { head_sha: HEAD, base_sha: BASE, head_ref: 'x' } }), null, 'no base_ref');
  assert.equal(mergeGroupFromEvent({ merge_group: { head_sha: HEAD, base_sha: BASE, head_ref: 'refs/heads/queue', base_ref: 'main' } })?.lastPullRequest, null);
});

test('the pull request a queue commit brought, from the subject each merge method writes', () => {
  assert.equal(pullRequestOfSubject('Merge pull request #12 from acme/parse-twice'), 12);
  assert.equal(pullRequestOfSubject('Parse twice (#12)'), 12);
  assert.equal(pullRequestOfSubject('Fix (#3) in the parser, see (#12)'), 12, 'squash: the number GitHub appends, at the end');
  assert.equal(pullRequestOfSubject('Rebased commit of the pull request'), null);
  assert.equal(pullRequestOfSubject('Mention #12 in passing'), null);
});

test("the blame's words escape names and subjects, and say what was not placed or not searched", () => {
  const commit = (sha: string, subject: string) => ({ sha: sha.repeat(40), subject, author: 'a' });
  const members = [
    { commit: commit('1', 'Docs'), pullRequest: 11 },
    { commit: commit('2', 'a <b>*bold*</b> subject'), pullRequest: null },
  ];
  const text = batchBlameMarkdown(
    {
      members,
      rows: [
        { benchmark: 'x/<script>', metric: 'time', change: 0.5, culprit: members[1]!, why: null },
        { benchmark: 'x/y', metric: 'time', change: 0.2, culprit: null, why: 'the search ended inconclusive' },
      ],
    },
    2,
  );
  assert.match(text, /This group holds 2 pull requests: #11, `2222222` \(a &lt;b&gt;&#42;bold&#42;&lt;\/b&gt; subject\)\./);
  assert.match(text, /- \*\*x\/&lt;script&gt;\*\* \(time, \+50\.0 %\): `2222222` .* \(commit `2222222`, bisected over the group's commits\)/);
  assert.match(text, /- \*\*x\/y\*\* \(time, \+20\.0 %\): not placed \(the search ended inconclusive\)/);
  assert.match(text, /- 2 more regressed rows not searched/);
  const alone = batchBlameMarkdown({ members: [members[0]!], rows: [{ benchmark: 'x/y', metric: 'time', change: 1, culprit: members[0]!, why: null }] }, 0);
  assert.match(alone, /This group holds 1 pull request: #11\.\n\n- \*\*x\/y\*\* \(time, \+100\.0 %\): #11, the group's only pull request\n$/);
});
