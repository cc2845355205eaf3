import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAlertMarker } from '../../src/github/alert-issues.js';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { runAction, type Scenario } from '../support/action-runner/scenario.js';
import { openFolder } from '../support/history.js';
import { mainWithHistory, mainRun, nextMainCommit, type Main } from '../support/main-history.js';
import { seriesWithSteps } from '../support/synthetic-series.js';
import { requireTool } from '../support/tools.js';

requireTool('git');

/**
 * The main-branch alert end to end: the bundled action in mode main with a
 * history folder, `alert: issue`, against the OpenAPI-checked fake GitHub. A
 * history of 30 runs on main in which `scan/parse` gets 10 % slower at run 25
 * (2 % noise between runs, `scan/stable` never changes): the next main run
 * opens one issue naming the step's commit range; the run after updates the
 * same issue; runs that undo the step close it. A history without a step opens
 * none.
 */
let gh: FakeGitHub;
let actionPath: string;
let root: string;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-main-alerts-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('ghs', null);
});
after(async () => {
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

/** The action in mode main on the next commit of `main`, with run i's results. */
function nextMainRun(main: Main, i: number, inputs: Record<string, string> = {}) {
  const sha = nextMainCommit(main, i);
  const scenario: Scenario = {
    workspace: main.ws,
    runnerTemp: join(root, `temp-${i}`),
    apiUrl: gh.url,
    token: 'ghs',
    repository: 'acme/x',
    eventName: 'push',
    event: { ref: 'refs/heads/main' },
    sha,
    ref: 'refs/heads/main',
  };
  // The runs are synthetic (the suite measures nothing), so a step cannot be measured again: these tests of
  // the issues' life cycle alert in one stage; main-confirm.timing.test.ts measures steps again for real.
  return runAction(actionPath, scenario, {
    mode: 'main',
    results: 'measured.json',
    alert: 'issue',
    confirm: 'off',
    'check-run': 'false',
    'fail-on': 'never',
    ...inputs,
  });
}

test('a step on main opens one issue, later runs update it, and a reversal closes it', async () => {
  // 10 % slower from run 25 on, back to the old level from run 33 on.
  const parse = seriesWithSteps(7, 45, 0.02, [
    { at: 25, size: 0.1 },
    { at: 33, size: 1 / 1.1 - 1 },
  ]);
  const stable = seriesWithSteps(8, 45, 0.02);
  const main = await mainWithHistory(root, 'ws-step', 30, parse, stable);
  const issuesOf = () => gh.issues.filter((i) => i.repo === 'acme/x');

  const first = await nextMainRun(main, 30);
  assert.equal(first.outcome, 'success', JSON.stringify(first.annotations));
  assert.equal(first.outputs['alerts'], '1', first.stdout);
  assert.equal(
    issuesOf().length,
    1,
    `one issue for the one step: ${JSON.stringify(first.annotations)} ${first.stdout
      .split('\n')
      .filter((l) => /alert|issue/i.test(l))
      .join('\n')}`,
  );
  const issue = issuesOf()[0]!;
  assert.equal(issue.state, 'open');
  assert.deepEqual(issue.labels, ['perf-gate-regression']);
  assert.match(issue.title, /scan\/parse time \+\d+\.\d % on bench-1/);
  // The step is found at its place: after commit 24, up to and including commit 25.
  const range = `${main.commits[24]!.slice(0, 7)}..${main.commits[25]!.slice(0, 7)}`;
  assert.ok(issue.title.includes(range), issue.title);
  assert.ok(issue.body.includes(`https://github.example.com/acme/x/compare/${main.commits[24]}...${main.commits[25]}`), issue.body);
  assert.ok(issue.body.includes(`perf-gate bisect --good ${main.commits[24]} --bad ${main.commits[25]} --benchmark 'scan/parse'`), issue.body);
  assert.ok(issue.body.includes(`git bisect start ${main.commits[25]} ${main.commits[24]}`), issue.body);
  assert.equal(readAlertMarker(issue.body)?.commit, main.commits[25]);
  assert.ok(!issue.body.includes('scan/stable') && !issue.title.includes('scan/stable'), 'the stable benchmark raises nothing');
  assert.match(first.summary, /### Main got slower[\s\S]*scan\/parse/);

  const second = await nextMainRun(main, 31);
  assert.equal(second.outputs['alerts'], '1');
  assert.equal(issuesOf().length, 1, 'the same issue, not a second one');
  assert.equal(issue.requests.length, 2, 'created, then updated once');
  assert.equal(issue.state, 'open');
  assert.ok(issue.body.includes('(25 runs before, 7 after)'), issue.body);

  // Runs 32..43 on main: the level goes back at run 33.
  for (let i = 32; i < 44; i++)
    await openFolder(join(main.ws, 'history')).append(mainRun(`${i}`.padStart(40, 'a'), i, main.levels(i)), {
      commit: `${i}`.padStart(40, 'a'),
      testbed: 'bench-1',
    });
  const last = await nextMainRun(main, 44);
  assert.equal(last.outcome, 'success', JSON.stringify(last.annotations));
  assert.equal(last.outputs['alerts'], '0');
  assert.equal(issuesOf().length, 1, 'no new issue');
  assert.equal(issue.state, 'closed', 'the reversed step closes its issue');
  const closing = gh.comments.filter((c) => c.issue === issue.number);
  assert.equal(closing.length, 1);
  assert.match(closing[0]!.body, /^A later step reversed this one: scan\/parse \(time\) changed -\d/);
  assert.match(last.summary, /No new regression/);
});

test('a history without a step opens no issue', async () => {
  const main = await mainWithHistory(root, 'ws-flat', 30, seriesWithSteps(11, 40, 0.02), seriesWithSteps(12, 40, 0.02));
  const before = gh.requests.filter((r) => r.operationId === 'issues/create').length;
  const result = await nextMainRun(main, 30);
  assert.equal(result.outcome, 'success', JSON.stringify(result.annotations));
  assert.equal(result.outputs['alerts'], '0');
  assert.equal(gh.requests.filter((r) => r.operationId === 'issues/create').length, before);
  assert.ok(
    gh.requests.some((r) => r.operationId === 'issues/list-for-repo'),
    'it looked for open alert issues to check for reversals',
  );
  assert.match(result.summary, /No new regression beyond the budgets' tolerance among the change points of the last 10 runs/);
});

test('alert: summary lists the step in the job summary and files no issue', async () => {
  const parse = seriesWithSteps(21, 40, 0.02, [{ at: 26, size: 0.12 }]);
  const main = await mainWithHistory(root, 'ws-summary', 30, parse, seriesWithSteps(22, 40, 0.02));
  const creates = gh.requests.filter((r) => r.operationId?.startsWith('issues/')).length;
  const result = await nextMainRun(main, 30, { alert: 'summary' });
  assert.equal(result.outputs['alerts'], '1');
  assert.equal(gh.requests.filter((r) => r.operationId?.startsWith('issues/')).length, creates, 'no issue call');
  assert.ok(
    result.summary.includes(
      `[\`${main.commits[25]!.slice(0, 7)}..${main.commits[26]!.slice(0, 7)}\`](https://github.example.com/acme/x/compare/${main.commits[25]}...${main.commits[26]})`,
    ),
    result.summary,
  );
});
