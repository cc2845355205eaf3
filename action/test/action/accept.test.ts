import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { pullRequestEvent, runAction, type Scenario } from '../support/action-runner/scenario.js';
import { decodeLedger, encodeLedger } from '../../src/pipeline/pr-ledger.js';
import { MAX_LEDGER_CHARS, readMarker, stickyMarker } from '../../src/github/sticky-comment.js';
import { mainRun, mainWithHistory, nextMainCommit } from '../support/main-history.js';
import { gitSync, openFolder } from '../support/history.js';
import { seriesWithSteps } from '../support/synthetic-series.js';
import { runCli } from '../support/cli.js';
import { resultSet } from './fixtures.js';
import { webhookPayload } from '../support/fake-github/webhooks.js';

/**
 * Accepting a regression on the record, end to end: the bundled action in
 * mode pr posts its comment (with the ledger in its marker), then in mode
 * command — the issue_comment / pull_request_target job that checks nothing
 * out — handles `/perf-gate accept` and the accept label against the
 * OpenAPI-checked fake GitHub, which answers each person's role. Later pushes
 * of the pull request are gated with the acceptances applied.
 */
let gh: FakeGitHub;
let actionPath: string;
let root: string;
const REPO = 'acme/x';
const BOT = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' as const };

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-accept-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('ghs', null);
  gh.roles.set(`${REPO}#ana`, 'maintain');
  gh.roles.set(`${REPO}#pat`, 'triage');
});
after(async () => {
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

const sha = (n: number): string => String(n).repeat(40).slice(0, 40);

/** A workspace for pull request `number`; `level(commit)` is scan/parse's time at a head (the baseline is 10 ms). */
function workspace(name: string): string {
  const ws = join(root, name);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'baseline.json'), JSON.stringify(resultSet(sha(1), { 'scan/parse': 0.01, 'scan/stable': 0.02 })));
  return ws;
}

function scenario(ws: string, eventName: string, event: Record<string, unknown>, headSha: string): Scenario {
  return { workspace: ws, runnerTemp: join(ws, '_temp'), apiUrl: gh.url, token: 'ghs', repository: REPO, eventName, event, sha: headSha };
}

/** The gate on a push of pull request `number` at `head`, scan/parse at `parse` seconds. */
function prRun(ws: string, number: number, head: string, parse: number) {
  writeFileSync(join(ws, 'current.json'), JSON.stringify(resultSet(head, { 'scan/parse': parse, 'scan/stable': 0.02 })));
  gh.addPull(REPO, { number, headSha: head, headRepo: REPO, baseRepo: REPO });
  return runAction(actionPath, scenario(ws, 'pull_request', pullRequestEvent(number, head, REPO, REPO), head), {
    results: 'current.json',
    baseline: 'baseline.json',
    confirm: 'off',
  });
}

/** The command job for a new comment by `login` on pull request `number`. */
function commentJob(ws: string, number: number, login: string, body: string) {
  const comment = gh.addComment(REPO, number, { login, id: 7000 + login.length, type: 'User' }, body);
  const event = webhookPayload('issue-comment-created', {
    action: 'created',
    issue: { number, pull_request: { url: `${gh.url}/repos/${REPO}/pulls/${number}` } },
    comment: { id: comment.id, body, html_url: `https://github.example.com/${REPO}/pull/${number}#issuecomment-${comment.id}`, user: { login } },
    repository: { full_name: REPO, default_branch: 'main' },
    sender: { login },
  });
  return runAction(actionPath, scenario(ws, 'issue_comment', event, sha(9)), { mode: 'command', 'run-workflow': 'perf-gate.yml' });
}

/** The command job for the accept label added or removed by `login` on pull request `number` at `head`. */
function labelJob(ws: string, number: number, head: string, action: 'labeled' | 'unlabeled', login: string) {
  const event = webhookPayload(action === 'labeled' ? 'pull-request-labeled' : 'pull-request-unlabeled', {
    action,
    number,
    label: { name: 'perf-gate-accept' },
    sender: { login },
    pull_request: { number, head: { sha: head, repo: { full_name: REPO } }, base: { sha: sha(1), repo: { full_name: REPO } } },
    repository: { full_name: REPO },
  });
  return runAction(actionPath, scenario(ws, 'pull_request_target', event, head), { mode: 'command' });
}

const sticky = (number: number) => gh.comments.find((c) => c.issue === number && c.user.login === BOT.login && readMarker(c.body, 'perf-gate'))!;
const repliesTo = (number: number, since: number) =>
  gh.comments.filter((c) => c.issue === number && c.user.login === BOT.login && c.id > since && c !== sticky(number));

test('a maintainer accepts a regression: the row passes as accepted; a non-member and a triager are refused; a push that makes it worse fails again', async () => {
  const ws = workspace('accept');
  const first = await prRun(ws, 7, sha(2), 0.015);
  assert.equal(first.outcome, 'failure', first.stdout);
  const ledger = decodeLedger(readMarker(sticky(7).body, 'perf-gate')!.ledger);
  assert.deepEqual(
    ledger?.rows.map((r) => [r.benchmark, r.status, Math.round(r.change * 100)]),
    [['scan/parse', 'regressed', 50]],
  );

  // Someone without write permission, and the pull request's author with only triage: refused, with a reply saying why.
  const checkRuns = gh.checkRuns.length;
  const lastId = Math.max(...gh.comments.map((c) => c.id));
  for (const login of ['mallory', 'pat']) {
    const r = await commentJob(ws, 7, login, '/perf-gate accept scan/* it is fine');
    assert.equal(r.outcome, 'success', r.stdout);
  }
  const refusals = repliesTo(7, lastId);
  assert.equal(refusals.length, 2);
  assert.match(
    refusals[0]!.body,
    /^@mallory: accepting a regression was refused: it needs write permission on acme\/x \(the right to merge\), and your role is read\./,
  );
  assert.match(refusals[1]!.body, /your role is triage/);
  assert.equal(gh.checkRuns.length, checkRuns, 'no check run from a refused acceptance');
  assert.equal(readMarker(sticky(7).body, 'perf-gate')!.verdict, 'fail');

  // A maintainer: the ledger records it, the comment shows it, and a new check run on the measured commit passes.
  const accepted = await commentJob(ws, 7, 'ana', 'LGTM\n/perf-gate accept `scan/*` the exact parser is slower by design');
  assert.equal(accepted.outcome, 'success', accepted.stdout);
  const marker = readMarker(sticky(7).body, 'perf-gate')!;
  assert.equal(marker.verdict, 'pass');
  const record = decodeLedger(marker.ledger)!.acceptances;
  assert.deepEqual(
    record.map((a) => [a.by, a.benchmarks, a.reason, a.commit, a.rows.map((r) => r.benchmark)]),
    [['ana', 'scan/*', 'the exact parser is slower by design', sha(2), ['scan/parse']]],
  );
  assert.match(sticky(7).body, /^<!-- perf-gate:accepted -->\n### ☑️ Regressions accepted on the record/);
  assert.match(sticky(7).body, /\*\*✅ The gate passes on `2222222` with these acceptances\.\*\*/);
  const passed = gh.checkRuns.at(-1)!;
  assert.deepEqual([passed.head_sha, passed.conclusion, passed.output.title], [sha(2), 'success', 'Pass: 1 regression accepted on the record by @ana']);

  // A push within the accepted change plus the tolerance: the run itself passes, the row shown as accepted.
  const next = await prRun(ws, 7, sha(3), 0.0152);
  assert.equal(next.outcome, 'success', next.stdout);
  assert.equal(next.outputs['verdict'], 'pass');
  assert.match(sticky(7).body, /☑️ accepted<br><sub>accepted at \+50\.0 % by @&#8203;ana on 2222222: the exact parser is slower by design/);
  assert.equal(gh.checkRuns.at(-1)!.conclusion, 'success');

  // A push that makes it much worse: fails again, and says at what it was accepted.
  const worse = await prRun(ws, 7, sha(4), 0.02);
  assert.equal(worse.outcome, 'failure', worse.stdout);
  assert.match(
    sticky(7).body,
    /accepted at \+50\.0 % by @&#8203;ana on 2222222: the exact parser is slower by design; it got worse since, beyond its tolerance, so it fails again/,
  );
  assert.equal(gh.checkRuns.at(-1)!.conclusion, 'failure');
});

test('a glob that names no regressed row, and a command without a reason, are answered, not recorded', async () => {
  const ws = workspace('no-match');
  await prRun(ws, 8, sha(5), 0.015);
  const lastId = Math.max(...gh.comments.map((c) => c.id));
  await commentJob(ws, 8, 'ana', '/perf-gate accept io/* faster disks');
  await commentJob(ws, 8, 'ana', '/perf-gate accept scan/*');
  const replies = repliesTo(8, lastId);
  assert.equal(replies.length, 2);
  assert.match(replies[0]!.body, /io\/&#42; names no regressed row of the last run on 5555555; rows that can be accepted: scan\/parse time\./);
  assert.match(replies[1]!.body, /an acceptance needs a reason after the glob, for the record/);
  assert.deepEqual(decodeLedger(readMarker(sticky(8).body, 'perf-gate')!.ledger)!.acceptances, []);
});

test('the accept label: added by a maintainer it accepts every regressed row; removed, it withdraws them', async () => {
  const ws = workspace('label');
  await prRun(ws, 9, sha(6), 0.015);
  const added = await labelJob(ws, 9, sha(6), 'labeled', 'ana');
  assert.equal(added.outcome, 'success', added.stdout);
  assert.equal(readMarker(sticky(9).body, 'perf-gate')!.verdict, 'pass');
  assert.deepEqual(
    decodeLedger(readMarker(sticky(9).body, 'perf-gate')!.ledger)!.acceptances.map((a) => [a.source, a.reason]),
    [[{ kind: 'label', label: 'perf-gate-accept' }, 'label perf-gate-accept added by @ana']],
  );
  assert.equal(gh.checkRuns.at(-1)!.conclusion, 'success');
  const removed = await labelJob(ws, 9, sha(6), 'unlabeled', 'ana');
  assert.equal(removed.outcome, 'success', removed.stdout);
  assert.equal(readMarker(sticky(9).body, 'perf-gate')!.verdict, 'fail');
  assert.equal(gh.checkRuns.at(-1)!.conclusion, 'failure');
});

test('/perf-gate run: one workflow_dispatch, the comment says queued, then the dispatched run reports started and finished on the same comment', async () => {
  const ws = workspace('run');
  gh.addPull(REPO, { number: 10, headSha: sha(7), headRepo: REPO, baseRepo: REPO });
  const before = gh.dispatches.length;
  const asked = await commentJob(ws, 10, 'ana', '/perf-gate run');
  assert.equal(asked.outcome, 'success', asked.stdout);
  assert.deepEqual(gh.dispatches.slice(before), [
    {
      repo: REPO,
      workflow: 'perf-gate.yml',
      ref: 'main',
      inputs: { 'pull-request': '10', 'requested-by': 'ana', 'requested-at': gh.dispatches.at(-1)!.inputs['requested-at'] },
    },
  ]);
  assert.match(
    sticky(10).body,
    /^<!-- perf-gate:run -->\n⏳ \*\*Run requested by @&#8203;ana at \d{4}-\d\d-\d\d \d\d:\d\d UTC\*\*: queued for the benchmark runner/,
  );
  const stickyId = sticky(10).id;

  // The dispatched run: workflow_dispatch with the inputs; it finds the pull request through the API.
  writeFileSync(join(ws, 'current.json'), JSON.stringify(resultSet(sha(7), { 'scan/parse': 0.01, 'scan/stable': 0.02 })));
  const run = await runAction(
    actionPath,
    scenario(ws, 'workflow_dispatch', webhookPayload('workflow-dispatch', { inputs: gh.dispatches.at(-1)!.inputs, ref: 'refs/heads/main' }), sha(1)),
    {
      results: 'current.json',
      baseline: 'baseline.json',
      confirm: 'off',
    },
  );
  assert.equal(run.outcome, 'success', run.stdout);
  assert.equal(sticky(10).id, stickyId, 'the same comment, updated');
  assert.equal(gh.comments.filter((c) => c.issue === 10 && c.user.login === BOT.login).length, 1, 'one comment, never a pile');
  assert.match(sticky(10).body, /^<!-- perf-gate:run -->\n🏁 Run requested by @&#8203;ana at [^·]+ · started [^·]+ · finished \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
  assert.match(sticky(10).body, /no regressions/);
  assert.equal(gh.checkRuns.at(-1)!.head_sha, sha(7), 'the check run is on the pull request head, not on the dispatching branch');
  // Who may not merge may not spend the runner's time either, by comment or by the run label.
  const dispatched = gh.dispatches.length;
  await commentJob(ws, 10, 'mallory', '/perf-gate run');
  const runLabel = (login: string) =>
    runAction(
      actionPath,
      scenario(
        ws,
        'pull_request_target',
        webhookPayload('pull-request-labeled', {
          action: 'labeled',
          number: 10,
          label: { name: 'perf' },
          sender: { login },
          pull_request: { number: 10, head: { sha: sha(7), repo: { full_name: REPO } }, base: { sha: sha(1), repo: { full_name: REPO } } },
          repository: { full_name: REPO, default_branch: 'main' },
        }),
        sha(7),
      ),
      { mode: 'command', 'run-workflow': 'perf-gate.yml' },
    );
  await runLabel('pat');
  assert.equal(gh.dispatches.length, dispatched, 'a triager adding the run label is refused');
  assert.match(gh.comments.at(-1)!.body, /^@pat: the label perf was refused: it needs write permission/);
  const labelled = await runLabel('ana');
  assert.equal(labelled.outcome, 'success', labelled.stdout);
  assert.deepEqual(
    gh.dispatches.slice(dispatched).map((d) => [d.workflow, d.inputs['pull-request'], d.inputs['requested-by']]),
    [['perf-gate.yml', '10', 'ana']],
  );
});

test('the merge records the acceptance on main: the change point reads "accepted in #12", and the alert opens no issue for it', async () => {
  // 25 runs on main at one level, then the pull request's merge commit 12 % slower, accepted in #12 at +12 %.
  const parse = seriesWithSteps(41, 31, 0.02, [{ at: 25, size: 0.12 }]);
  const main = await mainWithHistory(root, 'main-accepted', 25, parse, seriesWithSteps(42, 31, 0.02));
  const mergeSha = nextMainCommit(main, 25);
  gh.addPull(REPO, { number: 12, headSha: sha(8), headRepo: REPO, baseRepo: REPO });
  gh.commitPulls.set(`${REPO}@${mergeSha}`, [12]);
  const ledger = encodeLedger(
    {
      version: 2,
      head: sha(8),
      leftOut: 0,
      inconclusive: 0,
      policy: { failOn: 'fail', inconclusive: 'pass', selfReported: false },
      rows: [
        {
          benchmark: 'scan/parse',
          metric: 'time',
          change: 0.12,
          direction: 'lower',
          status: 'regressed',
          tolerance: 0.05,
          failsGate: true,
          budgetFails: false,
        },
      ],
      otherFailures: [],
      acceptances: [
        {
          benchmarks: 'scan/*',
          reason: 'the exact parser is slower by design',
          by: 'ana',
          commit: sha(8),
          at: '2026-11-20T10:00:00Z',
          source: { kind: 'comment', url: 'https://github.example.com/acme/x/pull/12#issuecomment-1' },
          rows: [{ benchmark: 'scan/parse', metric: 'time', change: 0.12, direction: 'lower' }],
        },
      ],
    },
    MAX_LEDGER_CHARS,
  );
  gh.addComment(REPO, 12, BOT, `report\n\n${stickyMarker('perf-gate', { verdict: 'pass', digest: 'ab', ledger })}`);
  const mainScenario = (commit: string, name: string): Scenario => ({
    ...scenario(main.ws, 'push', { ref: 'refs/heads/main' }, commit),
    runnerTemp: join(root, `temp-${name}`),
  });
  const merged = await runAction(actionPath, mainScenario(mergeSha, 'merge'), { mode: 'main', results: 'measured.json', alert: 'off', 'fail-on': 'never' });
  assert.equal(merged.outcome, 'success', merged.stdout);
  assert.match(merged.stdout, /recording 1 acceptance\(s\) of #12 with this run/);
  for (let i = 26; i < 30; i++) {
    const commit = nextMainCommit(main, i);
    await openFolder(join(main.ws, 'history')).append(mainRun(commit, i, main.levels(i)), { commit, testbed: 'bench-1' });
  }
  const issuesBefore = gh.issues.length;
  const last = await runAction(actionPath, mainScenario(nextMainCommit(main, 30), 'after'), {
    mode: 'main',
    results: 'measured.json',
    alert: 'issue',
    confirm: 'off',
    'fail-on': 'never',
  });
  assert.equal(last.outcome, 'success', last.stdout);
  assert.equal(last.outputs['alerts'], '0', last.stdout);
  assert.equal(gh.issues.length, issuesBefore, 'no issue for an accepted step');

  // perf-gate history changes shows the step as accepted.
  const changes = await runCli(['history', 'changes', '--history', 'history'], main.ws, process.env);
  assert.equal(changes.status, 0, changes.stderr);
  assert.match(changes.stdout, /scan\/parse .*slower, accepted in #12 by @ana: the exact parser is slower by design/);
});

/** A pull request run whose results have `n` regressed benchmarks named by `name(i)`, plus scan/stable. */
function manyRegressed(ws: string, number: number, head: string, n: number, name: (i: number) => string, inputs: Record<string, string> = {}) {
  const names = Array.from({ length: n }, (_, i) => name(i));
  writeFileSync(join(ws, 'baseline.json'), JSON.stringify(resultSet(sha(1), Object.fromEntries(names.map((b) => [b, 0.01])))));
  writeFileSync(join(ws, 'current.json'), JSON.stringify(resultSet(head, Object.fromEntries(names.map((b) => [b, 0.02])))));
  gh.addPull(REPO, { number, headSha: head, headRepo: REPO, baseRepo: REPO });
  return runAction(actionPath, scenario(ws, 'pull_request', pullRequestEvent(number, head, REPO, REPO), head), {
    results: 'current.json',
    baseline: 'baseline.json',
    confirm: 'off',
    ...inputs,
  });
}

test('hardening 3.1: 120 regressions and /perf-gate accept *: the ledger held 100, so the check stays failing as measured', async () => {
  const ws = workspace('accept-many');
  const first = await manyRegressed(ws, 20, sha(2), 120, (i) => `suite/b${String(i).padStart(3, '0')}`);
  assert.equal(first.outcome, 'failure', first.stdout);
  const checkRuns = gh.checkRuns.length;
  const accepted = await commentJob(ws, 20, 'ana', '/perf-gate accept * intended');
  assert.equal(accepted.outcome, 'success', accepted.stdout);
  assert.equal(gh.checkRuns.length, checkRuns, 'no check run re-decided from an incomplete ledger');
  assert.equal(gh.checkRuns.at(-1)!.conclusion, 'failure');
  const marker = readMarker(sticky(20).body, 'perf-gate')!;
  assert.equal(marker.verdict, 'fail');
  assert.equal(decodeLedger(marker.ledger)!.acceptances[0]!.rows.length, 100);
  assert.match(
    sticky(20).body,
    /⏸️ The check stays as measured on `2222222`:\*\* the comment's ledger does not hold every failing row of that run \(20 more failing rows/,
  );
});

test('hardening 3.6: accepting on a report of 300 rows with 200-character names keeps the comment within 65,536 characters', async () => {
  const ws = workspace('accept-long');
  const first = await manyRegressed(ws, 21, sha(3), 300, (i) => `suite/${'p'.repeat(200)}${i}`);
  assert.equal(first.outcome, 'failure', first.stdout);
  const accepted = await commentJob(ws, 21, 'ana', '/perf-gate accept `suite/p*` intended');
  assert.equal(accepted.outcome, 'success', accepted.stdout);
  assert.doesNotMatch(accepted.stdout, /422|could not/);
  const body = sticky(21).body;
  assert.ok(body.length <= 65_536, `${body.length} characters`);
  assert.equal(decodeLedger(readMarker(body, 'perf-gate')!.ledger)!.acceptances.length, 1, 'the acceptance is recorded');
  assert.match(body, /The report was cut here to fit GitHub's comment limit/);
});

test('hardening 3.5: after an accept, inconclusive: fail still fails the check; the command job posts what the policy says', async () => {
  const ws = workspace('accept-policy');
  // scan/parse regressed; scan/stable inconclusive (two samples each side).
  writeFileSync(
    join(ws, 'baseline.json'),
    JSON.stringify({
      ...resultSet(sha(1), { 'scan/parse': 0.01 }),
      benchmarks: [
        ...resultSet(sha(1), { 'scan/parse': 0.01 }).benchmarks,
        { id: 'scan/stable', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [0.02, 0.021] } } },
      ],
    }),
  );
  writeFileSync(
    join(ws, 'current.json'),
    JSON.stringify({
      ...resultSet(sha(4), { 'scan/parse': 0.015 }),
      benchmarks: [
        ...resultSet(sha(4), { 'scan/parse': 0.015 }).benchmarks,
        { id: 'scan/stable', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: [0.0205, 0.0215] } } },
      ],
    }),
  );
  gh.addPull(REPO, { number: 22, headSha: sha(4), headRepo: REPO, baseRepo: REPO });
  const first = await runAction(actionPath, scenario(ws, 'pull_request', pullRequestEvent(22, sha(4), REPO, REPO), sha(4)), {
    results: 'current.json',
    baseline: 'baseline.json',
    confirm: 'off',
    inconclusive: 'fail',
  });
  assert.equal(first.outcome, 'failure', first.stdout);
  assert.match(first.stdout, /inconclusive row\(s\); inconclusive: fail/);
  const accepted = await commentJob(ws, 22, 'ana', '/perf-gate accept scan/parse intended');
  assert.equal(accepted.outcome, 'success', accepted.stdout);
  const check = gh.checkRuns.at(-1)!;
  assert.deepEqual([check.head_sha, check.conclusion], [sha(4), 'failure']);
  assert.match(check.output.title ?? '', /^Fail: 1 inconclusive row \(inconclusive: fail\) after 1 accepted$/);
});

test("hardening 3.2: a triager removing the accept label changes nothing; removing a maintainer's label acceptance is refused", async () => {
  const ws = workspace('unlabel');
  await prRun(ws, 23, sha(5), 0.02);
  const label = (action: 'labeled' | 'unlabeled', login: string) => labelJob(ws, 23, sha(5), action, login);
  const checkRuns = gh.checkRuns.length;
  // The triager adds the label (refused, the label stays on the pull request), then removes it.
  await label('labeled', 'pat');
  const removed = await label('unlabeled', 'pat');
  assert.equal(removed.outcome, 'success', removed.stdout);
  assert.match(removed.stdout, /had accepted nothing on record: nothing changes/);
  assert.equal(gh.checkRuns.length, checkRuns, 'no check run');
  assert.equal(readMarker(sticky(23).body, 'perf-gate')!.verdict, 'fail');
  // A maintainer's label acceptance cannot be withdrawn by a triager either.
  await label('labeled', 'ana');
  assert.equal(gh.checkRuns.at(-1)!.conclusion, 'success');
  const count = gh.checkRuns.length;
  await label('unlabeled', 'pat');
  assert.equal(gh.checkRuns.length, count);
  assert.match(gh.comments.at(-1)!.body, /^@pat: removing the label perf-gate-accept was refused/);
  assert.equal(decodeLedger(readMarker(sticky(23).body, 'perf-gate')!.ledger)!.acceptances.length, 1);
});

test('hardening 3.9: an unknown command is answered only to people who may act, and nothing of it is left unescaped', async () => {
  const ws = workspace('unknown');
  await prRun(ws, 24, sha(6), 0.01);
  const lastId = Math.max(...gh.comments.map((c) => c.id));
  const body = '/perf-gate `[x](https://evil.example)`![i](https://evil.example/i.png)@acme/team';
  await commentJob(ws, 24, 'mallory', body);
  assert.deepEqual(repliesTo(24, lastId), [], 'no reply to someone without write permission');
  await commentJob(ws, 24, 'ana', body);
  const replies = repliesTo(24, lastId);
  assert.equal(replies.length, 1);
  assert.match(replies[0]!.body, /^@ana: perf-gate did not understand this: /);
  assert.doesNotMatch(replies[0]!.body, /\]\(|https:\/\/evil|@acme\/team/);
});

test("hardening 3.8: a run started by /perf-gate run reports on, and stamps, the commit it checked out, not the API's newer head", async () => {
  const ws = workspace('run-commit');
  const git = (...args: string[]) => gitSync(ws, args);
  git('init', '-q', '-b', 'main');
  writeFileSync(join(ws, 'perf-gate.yml'), 'version: 1\nconfirm: off\nsuites:\n  - name: scan\n    run: cp hyperfine.json {output}\n    format: hyperfine\n');
  writeFileSync(join(ws, 'hyperfine.json'), readFileSync(new URL('../fixtures/hyperfine/two-commands.json', import.meta.url), 'utf8'));
  git('add', '-A');
  git('commit', '-q', '-m', 'the head that was checked out');
  const checkedOut = git('rev-parse', 'HEAD');
  // The pull request moved on after the run was asked for: the API reports a newer head.
  gh.addPull(REPO, { number: 25, headSha: sha(8), headRepo: REPO, baseRepo: REPO });
  const inputs = { 'pull-request': '25', 'requested-by': 'ana', 'requested-at': '2026-11-28T10:00:00Z' };
  const run = await runAction(
    actionPath,
    { ...scenario(ws, 'workflow_dispatch', webhookPayload('workflow-dispatch', { inputs, ref: 'refs/heads/main' }), sha(1)), runnerTemp: join(ws, '_temp') },
    { confirm: 'off', 'output-dir': 'out' },
  );
  assert.equal(run.outcome, 'success', run.stdout);
  assert.match(run.stdout, new RegExp(`the checkout is at ${checkedOut.slice(0, 12)}, but pull request #25's head is now ${sha(8).slice(0, 12)}`));
  assert.equal(gh.checkRuns.at(-1)!.head_sha, checkedOut, 'the verdict goes to the commit measured');
  const results = JSON.parse(readFileSync(run.outputs['results']!, 'utf8')) as { commit: string };
  assert.equal(results.commit, checkedOut, 'the results are stamped with the commit measured, not GITHUB_SHA');
});

test('an acceptance given while the suites run: the run decides with it, and its comment keeps it', async () => {
  const ws = workspace('accept-during-run');
  // The suite waits (at most 30 s) for the test to say go, so the acceptance lands while it runs.
  const wait = 'touch started; i=0; while [ ! -e go ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; cp current.json {output}';
  writeFileSync(join(ws, 'perf-gate.yml'), `version: 1\nconfirm: off\nsuites:\n  - name: scan\n    run: ${wait}\n    format: resultset\n`);
  const push = (head: string, parse: number) => {
    writeFileSync(join(ws, 'current.json'), JSON.stringify(resultSet(head, { parse, stable: 0.02 })));
    gh.addPull(REPO, { number: 31, headSha: head, headRepo: REPO, baseRepo: REPO });
    return runAction(actionPath, scenario(ws, 'pull_request', pullRequestEvent(31, head, REPO, REPO), head), {
      baseline: 'baseline.json',
      confirm: 'off',
      preflight: 'off',
    });
  };
  writeFileSync(join(ws, 'go'), '');
  const first = await push(sha(2), 0.015);
  assert.equal(first.outcome, 'failure', first.stdout);
  assert.equal(first.outputs['verdict'], 'fail', first.stdout);

  // The next push starts measuring; a maintainer accepts the first push's regression before it is decided.
  rmSync(join(ws, 'go'));
  rmSync(join(ws, 'started'));
  const second = push(sha(3), 0.0151);
  for (let i = 0; i < 300 && !existsSync(join(ws, 'started')); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(existsSync(join(ws, 'started')), 'the second push began measuring');
  const accepted = await commentJob(ws, 31, 'ana', '/perf-gate accept scan/parse slower by design');
  assert.equal(accepted.outcome, 'success', accepted.stdout);
  writeFileSync(join(ws, 'go'), '');
  const run = await second;

  assert.equal(run.outcome, 'success', run.stdout);
  assert.equal(run.outputs['verdict'], 'pass');
  const marker = readMarker(sticky(31).body, 'perf-gate')!;
  assert.deepEqual(
    decodeLedger(marker.ledger)!.acceptances.map((a) => [a.by, a.benchmarks, a.commit]),
    [['ana', 'scan/parse', sha(2)]],
    'the comment the run wrote after the acceptance still records it',
  );
  assert.match(sticky(31).body, /☑️ accepted<br><sub>accepted at \+50\.0 % by @&#8203;ana on 2222222: slower by design/);
  assert.equal(gh.checkRuns.at(-1)!.head_sha, sha(3));
  assert.equal(gh.checkRuns.at(-1)!.conclusion, 'success');
});
