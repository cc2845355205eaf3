import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { runAction } from '../support/action-runner/scenario.js';
import { webhookPayload } from '../support/fake-github/webhooks.js';
import { runCli } from '../support/cli.js';
import { busyLoopSource } from '../support/programs.js';
import { gitSync } from '../support/history.js';
import { requireTool } from '../support/tools.js';

requireTool('git', 'cc', 'hyperfine');

/**
 * A merge queue's group, end to end: the bundled action on a `merge_group`
 * event (its payload built from GitHub's webhook schema) against the
 * OpenAPI-checked fake GitHub, with real git, real builds and real
 * measurements. The group's head is gated against the base commit it is
 * built on (the history's run of main, then side by side); the check run
 * goes to the group's head, where the queue waits; a failing group names the
 * pull request that made it slower, found by bisecting the group's commits.
 */
let gh: FakeGitHub;
let actionPath: string;
let root: string;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-merge-group-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('ghs', null);
});
after(async () => {
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

/** Commits dated a day back: the history looks for a commit's runs from its date on. */
const DATED = { GIT_AUTHOR_DATE: '2026-11-20T12:00:00Z', GIT_COMMITTER_DATE: '2026-11-20T12:00:00Z' };
const LOOP = 6_000_000;

/** main with two programs, measured for real three times into the history; then the queue's branch, one commit per pull request. */
async function queue(name: string, pulls: { number: number; subject: string; slower?: boolean }[]): Promise<{ ws: string; base: string; head: string }> {
  const ws = join(root, name);
  gitSync(root, ['init', '--quiet', '-b', 'main', ws]);
  writeFileSync(
    join(ws, 'perf-gate.yml'),
    'version: 1\nhistory:\n  folder: history\nsuites:\n  - name: work\n    build: cc -O2 -o parse parse.c && cc -O2 -o scan scan.c\n    commands:\n      parse: ./parse\n      scan: ./scan\n    runs: 10\n',
  );
  writeFileSync(join(ws, 'parse.c'), busyLoopSource(LOOP));
  writeFileSync(join(ws, 'scan.c'), busyLoopSource(LOOP));
  writeFileSync(join(ws, '.gitignore'), 'parse\nscan\nhistory/\nout/\n');
  gitSync(ws, ['add', '.'], DATED);
  gitSync(ws, ['commit', '-q', '-m', 'main'], DATED);
  for (let i = 0; i < 3; i++) {
    const r = await runCli(['run', '--mode', 'main', '--out', 'out'], ws, { PATH: process.env.PATH, HOME: process.env.HOME });
    assert.match(r.stdout, /baseline written to/, r.stdout + r.stderr);
  }
  const base = gitSync(ws, ['rev-parse', 'HEAD']);
  gitSync(ws, ['checkout', '-q', '-b', `gh-readonly-queue/main/pr-${pulls.at(-1)!.number}-${'c'.repeat(40)}`]);
  for (const pull of pulls) {
    if (pull.slower) writeFileSync(join(ws, 'parse.c'), busyLoopSource(LOOP * 2));
    else writeFileSync(join(ws, `notes-${pull.number}.md`), `pull request ${pull.number}\n`);
    gitSync(ws, ['add', '.'], DATED);
    gitSync(ws, ['commit', '-q', '-m', `${pull.subject} (#${pull.number})`], DATED);
  }
  return { ws, base, head: gitSync(ws, ['rev-parse', 'HEAD']) };
}

function mergeGroupRun(ws: string, name: string, base: string, head: string, last: number) {
  const headRef = `refs/heads/gh-readonly-queue/main/pr-${last}-${'c'.repeat(40)}`;
  const event = webhookPayload('merge-group-checks-requested', {
    action: 'checks_requested',
    merge_group: { head_sha: head, head_ref: headRef, base_sha: base, base_ref: 'refs/heads/main', head_commit: { id: head, message: 'the group' } },
    repository: { full_name: `acme/${name}` },
  });
  return runAction(
    actionPath,
    {
      workspace: ws,
      runnerTemp: join(root, `temp-${name}`),
      apiUrl: gh.url,
      token: 'ghs',
      repository: `acme/${name}`,
      eventName: 'merge_group',
      event,
      sha: head,
      ref: headRef,
    },
    { preflight: 'off' },
  );
}

test('a group of three pull requests, one of which makes a benchmark twice as slow: the check on the group fails and names that pull request', async () => {
  const { ws, base, head } = await queue('slow', [
    { number: 11, subject: 'Add notes' },
    { number: 12, subject: 'Parse twice', slower: true },
    { number: 13, subject: 'More notes' },
  ]);
  const comments = gh.comments.length;
  const run = await mergeGroupRun(ws, 'slow', base, head, 13);
  assert.equal(run.outcome, 'failure', run.stdout.slice(-4000));
  assert.equal(run.outputs['verdict'], 'fail');
  const check = gh.checkRuns.filter((c) => c.head_sha === head).at(-1)!;
  assert.deepEqual([check.head_sha, check.conclusion], [head, 'failure'], 'the check run is on the group head, where the queue waits');
  assert.match(check.output.summary!, /This group holds 3 pull requests: #11, #12, #13\./);
  assert.match(
    check.output.summary!,
    /- \*\*work\/parse\*\* \(time, \+\d+(\.\d+)? %\): #12 \(commit `[0-9a-f]{7}`, bisected over the group's commits\)/,
    check.output.summary!,
  );
  const summary = check.output.summary!;
  const section = summary.slice(0, summary.indexOf('\n\n', summary.indexOf('\n- **')));
  assert.doesNotMatch(section, /work\/scan/, 'only the slowed benchmark is blamed');
  assert.match(run.summary, /### Merge group: which pull request made it slower/);
  // docs/github-action.md shows this group's section: the same words, but for the measured change and the commit.
  const shown = /```text\n(### Merge group:[\s\S]*?)```/.exec(readFileSync(new URL('../../../docs/github-action.md', import.meta.url), 'utf8'))![1]!;
  const printed =
    check.output.summary!.slice(0, check.output.summary!.indexOf('\n- **work/parse**') + 1) + /- \*\*work\/parse\*\*.*\n/.exec(check.output.summary!)![0];
  const general = (text: string) => text.replace(/\+\d+(\.\d+)? %/g, '+N %').replace(/`[0-9a-f]{7}`/g, '`SHA`');
  assert.equal(general(printed), general(shown), 'the page shows what the check run says');
  assert.equal(gh.comments.length, comments, 'a group has no pull request of its own to comment on');
});

test('a group that changes nothing measured: the check on the group head succeeds, and nothing is bisected', async () => {
  const { ws, base, head } = await queue('same', [
    { number: 21, subject: 'Add notes' },
    { number: 22, subject: 'More notes' },
  ]);
  const run = await mergeGroupRun(ws, 'same', base, head, 22);
  assert.equal(run.outcome, 'success', run.stdout.slice(-4000));
  const check = gh.checkRuns.filter((c) => c.head_sha === head).at(-1)!;
  assert.deepEqual([check.head_sha, check.conclusion], [head, 'success']);
  assert.doesNotMatch(run.summary + check.output.summary!, /Merge group: which pull request/);
});
