import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { pullRequestEvent, runAction, type Scenario } from '../support/action-runner/scenario.js';
import { resultSet } from './fixtures.js';
import { fillUp, withTmpfs } from '../support/tmpfs.js';

/**
 * The action's output-dir on a full disk (a 64 KiB tmpfs filled to the last
 * byte; the test runs as root, as CI does): the run's files cannot be
 * written, and the step says so in an error annotation naming output-dir,
 * while the verdict, its exit status, the job summary and the pull request
 * comment are all there (docs/reliability.md).
 */
let gh: FakeGitHub;
let actionPath: string;
let root: string;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-output-faults-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('pat-bot', { login: 'perf-bot', id: 7, type: 'User' });
});
after(async () => {
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});

test('a full disk under output-dir: an error naming it, and the verdict, exit status, summary and comment all stand', async () => {
  const ws = join(root, 'ws');
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'baseline.json'), JSON.stringify(resultSet('1'.repeat(40), { parse: 0.01 })));
  writeFileSync(join(ws, 'current.json'), JSON.stringify(resultSet('2'.repeat(40), { parse: 0.02 })));
  await withTmpfs(join(root, 'full'), 'size=64k', async (out) => {
    fillUp(out);
    const s: Scenario = {
      workspace: ws,
      runnerTemp: join(ws, '_temp'),
      apiUrl: gh.url,
      token: 'pat-bot',
      repository: 'acme/scanner',
      eventName: 'pull_request',
      event: pullRequestEvent(61, 'ab'.repeat(20), 'acme/scanner', 'acme/scanner'),
      sha: 'cd'.repeat(20),
    };
    const result = await runAction(actionPath, s, { results: 'current.json', baseline: 'baseline.json', 'output-dir': out, 'check-run': 'false' });
    assert.equal(result.steps[0]?.exitCode, 1, `the regression's exit status: ${result.steps[0]?.stderr} ${JSON.stringify(result.annotations)}`);
    assert.equal(result.outputs['verdict'], 'fail');
    assert.match(result.summary, /\| parse \|/);
    assert.ok(
      result.annotations.some((a) => a.command === 'error' && /could not write the run's files to output-dir .*ENOSPC/.test(a.message)),
      JSON.stringify(result.annotations),
    );
    assert.equal(gh.comments.filter((c) => c.issue === 61).length, 1, 'the comment is posted');
    assert.deepEqual(
      readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((n) => n.includes('.tmp-')),
      [],
      'no temporary file left',
    );
  });
});
