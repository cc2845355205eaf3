import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonReport } from '../../src/report/json.js';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { runAction } from '../support/action-runner/scenario.js';
import { busyLoopSource } from '../support/programs.js';
import { gitSync } from '../support/history.js';
import { readMarker } from '../../src/github/sticky-comment.js';
import { requireTool } from '../support/tools.js';

requireTool('git', 'cc', 'hyperfine');

/**
 * A stacked pull request, end to end: #42's base is #41's branch, not main.
 * #41 makes `parse` twice as slow, #42 makes `scan` twice as slow. Compared
 * with main, #42 would show both as its own; measured interleaved against
 * #41's head (the bundled action, real git, real builds, the OpenAPI-checked
 * fake GitHub), it shows only `scan`, and its comment says what it compared
 * with.
 */
let gh: FakeGitHub;
let actionPath: string;
let root: string;
const REPO = 'acme/stack';
const LOOP = 6_000_000;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-stacked-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('ghs', null);
});
after(async () => {
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

test("a pull request stacked on another is measured against that one's head: only its own slowdown is shown, and the comment says against what", async () => {
  const ws = join(root, 'ws');
  gitSync(root, ['init', '--quiet', '-b', 'main', ws]);
  writeFileSync(
    join(ws, 'perf-gate.yml'),
    'version: 1\nsuites:\n  - name: work\n    build: cc -O2 -o parse parse.c && cc -O2 -o scan scan.c\n    commands:\n      parse: ./parse\n      scan: ./scan\n    runs: 10\n',
  );
  writeFileSync(join(ws, 'parse.c'), busyLoopSource(LOOP));
  writeFileSync(join(ws, 'scan.c'), busyLoopSource(LOOP));
  writeFileSync(join(ws, '.gitignore'), 'parse\nscan\nout/\n');
  const commit = (message: string) => {
    gitSync(ws, ['add', '.']);
    gitSync(ws, ['commit', '-q', '-m', message]);
    return gitSync(ws, ['rev-parse', 'HEAD']);
  };
  commit('main');
  gitSync(ws, ['checkout', '-q', '-b', 'feature-a']);
  writeFileSync(join(ws, 'parse.c'), busyLoopSource(LOOP * 2));
  const parentHead = commit('Parse twice');
  gitSync(ws, ['checkout', '-q', '-b', 'feature-b']);
  writeFileSync(join(ws, 'scan.c'), busyLoopSource(LOOP * 2));
  const head = commit('Scan twice');

  gh.addPull(REPO, { number: 41, headSha: parentHead, headRepo: REPO, baseRepo: REPO, headRef: 'feature-a', baseRef: 'main', open: true });
  gh.commitPulls.set(`${REPO}@${parentHead}`, [41]);
  gh.addPull(REPO, { number: 42, headSha: head, headRepo: REPO, baseRepo: REPO, headRef: 'feature-b', baseRef: 'feature-a', open: true });
  const event = {
    action: 'synchronize',
    number: 42,
    pull_request: {
      number: 42,
      head: { sha: head, ref: 'feature-b', repo: { full_name: REPO } },
      base: { sha: parentHead, ref: 'feature-a', repo: { full_name: REPO } },
    },
    repository: { full_name: REPO, default_branch: 'main' },
  };
  const run = await runAction(
    actionPath,
    {
      workspace: ws,
      runnerTemp: join(root, 'temp'),
      apiUrl: gh.url,
      token: 'ghs',
      repository: REPO,
      eventName: 'pull_request',
      event,
      sha: head,
      ref: 'refs/pull/42/merge',
    },
    { preflight: 'off' },
  );
  assert.equal(run.outcome, 'failure', run.stdout.slice(-4000));
  assert.match(run.stdout, /pull request #42 is stacked on feature-a \(#41\): measured interleaved against its head/);
  const report = JSON.parse(readFileSync(run.outputs['report-json']!, 'utf8')) as JsonReport;
  const status = (benchmark: string) => report.rows.find((r) => r.benchmark === benchmark && r.metric === 'time')?.status;
  assert.equal(status('work/scan'), 'regressed', "#42's own slowdown");
  assert.notEqual(status('work/parse'), 'regressed', "#41's slowdown is not #42's");
  const comment = gh.comments.find((c) => c.issue === 42 && readMarker(c.body, 'perf-gate'));
  assert.ok(comment, 'the sticky comment');
  assert.match(comment.body, new RegExp(`Baseline <code>${parentHead.slice(0, 7)}</code> \\(&#35;&#8203;41's head, feature-a\\)`), comment.body.slice(0, 3000));
  // docs/github-action.md shows the line as the comment renders it, for other commits.
  const rendered = /Baseline <code>.*?\)\./
    .exec(comment.body)![0]
    .replace(/<\/?code>/g, '')
    .replace(/&#35;/g, '#')
    .replace(/&#8203;/g, '');
  const shown = /```text\n(Baseline .*)\n```/.exec(readFileSync(new URL('../../../docs/github-action.md', import.meta.url), 'utf8'))![1]!;
  const general = (line: string) => line.replace(/\b[0-9a-f]{7}\b/g, 'SHA');
  assert.equal(general(rendered), general(shown));
});
