import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { pullRequestEvent, runAction, type Scenario } from '../support/action-runner/scenario.js';
import { resultSet } from './fixtures.js';

const EVIL = [
  'evil | extra | cells',
  'x <!-- perf-gate:sticky gate=perf-gate verdict=pass digest=00 -->',
  '@someone please look',
  'back`tick` ```fence',
  '$(touch pwned) `touch pwned`',
  '<img src=x onerror=alert(1)> <script>alert(1)</script>',
  'right\u202Eto-left and zero\u200Bwidth',
  `very-long-${'x'.repeat(3000)}`,
];

let gh: FakeGitHub;
let actionPath: string;
let root: string;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-safety-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('pat-bot', { login: 'perf-bot', id: 7, type: 'User' });
});
after(async () => {
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

function scenario(name: string, pr: number): Scenario {
  const ws = join(root, name);
  mkdirSync(ws, { recursive: true });
  return {
    workspace: ws,
    runnerTemp: join(ws, '_temp'),
    apiUrl: gh.url,
    token: 'pat-bot',
    repository: 'acme/scanner',
    eventName: 'pull_request',
    event: pullRequestEvent(pr, 'ab'.repeat(20), 'acme/scanner', 'acme/scanner'),
    sha: 'cd'.repeat(20),
  };
}

test('hostile benchmark names are escaped in the comment and never reach a shell', async () => {
  const s = scenario('evil', 31);
  writeFileSync(join(s.workspace, 'baseline.json'), JSON.stringify(resultSet('1'.repeat(40), Object.fromEntries(EVIL.map((n) => [n, 0.01])))));
  writeFileSync(join(s.workspace, 'current.json'), JSON.stringify(resultSet('2'.repeat(40), Object.fromEntries(EVIL.map((n) => [n, 0.02])))));
  const inputs = { results: 'current.json', baseline: 'baseline.json', budgets: '$(touch pwned)' };
  const first = await runAction(actionPath, s, inputs);
  // The budgets input is a path that does not exist: unusable input, and the text stayed a path.
  assert.equal(first.steps[0]?.exitCode, 2);
  assert.match(first.annotations.find((a) => a.command === 'error')?.message ?? '', /\$\(touch pwned\)/);

  const run = async () => runAction(actionPath, s, { results: 'current.json', baseline: 'baseline.json' });
  const second = await run();
  assert.equal(second.outputs['verdict'], 'fail', second.steps[0]?.stderr);
  const third = await run();
  assert.equal(third.outputs['verdict'], 'fail');

  const comments = gh.comments.filter((c) => c.issue === 31);
  assert.equal(comments.length, 1, 'a marker-like benchmark name does not create or hijack a second comment');
  const body = comments[0]!.body;
  assert.equal(body.split('<!--').length - 1, 1, 'exactly one real HTML comment: the marker');
  assert.match(body, /<!-- perf-gate:sticky gate=perf-gate verdict=fail digest=[0-9a-f]+(?: ledger=[A-Za-z0-9+/=]+)? -->\s*$/);
  assert.equal(body.includes('@someone'), false, 'no live mention');
  assert.equal(body.includes('`tick`'), false, 'no code span from a name');
  assert.equal(body.includes('$(touch pwned)'), false, 'the name is shown with entities, not as raw text');
  assert.equal(/<img|<script/i.test(body), false, 'no HTML element from a name');
  assert.equal(body.includes('\u202E'), false, 'no bidi override: the name reads as written');
  assert.ok(body.includes('very-long-'), 'a 3,000-character name is shown');
  // Every table row has as many cell separators as its header.
  const tableLines = body.split('\n').filter((l) => l.startsWith('| '));
  assert.ok(tableLines.length >= EVIL.length + 2);
  const header = tableLines[0]!.split('|').length;
  for (const line of tableLines) assert.equal(line.split('|').length, header, line);
  for (const dir of [s.workspace, actionPath, process.cwd(), join(s.runnerTemp, 'perf-gate')]) {
    assert.equal(existsSync(join(dir, 'pwned')), false, `no file "pwned" in ${dir}`);
  }
});

test('a report too long for one comment is cut below 65,536 characters, full in the job summary', async () => {
  const s = scenario('huge', 32);
  const names = Array.from({ length: 1500 }, (_, i) => `suite-with-a-long-name/benchmark-number-${String(i).padStart(5, '0')}-${'x'.repeat(30)}`);
  writeFileSync(join(s.workspace, 'baseline.json'), JSON.stringify(resultSet('1'.repeat(40), Object.fromEntries(names.map((n) => [n, 0.01])))));
  writeFileSync(join(s.workspace, 'current.json'), JSON.stringify(resultSet('2'.repeat(40), Object.fromEntries(names.map((n) => [n, 0.02])))));
  const result = await runAction(actionPath, s, { results: 'current.json', baseline: 'baseline.json' });
  assert.equal(result.outputs['verdict'], 'fail', result.steps[0]?.stderr);
  assert.equal(result.outputs['regressed'], '1500');
  const body = gh.comments.find((c) => c.issue === 32)!.body;
  assert.ok(body.length <= 65_536, `comment is ${body.length} characters`);
  assert.ok(body.length > 30_000, 'the comment is filled, not emptied');
  assert.match(body, /Truncated/);
  assert.match(body, /job summary/);
  assert.match(body, /<!-- perf-gate:sticky gate=perf-gate verdict=fail digest=[0-9a-f]+(?: ledger=[A-Za-z0-9+/=]+)? -->\s*$/);
  const shown = names.filter((n) => body.includes(n.replace(/-/g, '-'))).length;
  assert.ok(shown < names.length);
  for (const n of names) assert.ok(result.summary.includes(n), `job summary lists ${n}`);
  const run = gh.checkRuns.at(-1)!;
  assert.ok((run.output.summary ?? '').length <= 65_535);
  assert.ok(run.output.annotations.length >= 1500, 'every annotation is sent, 50 per request');
  assert.ok(run.requests.every((r) => ((r['output'] as { annotations?: unknown[] }).annotations ?? []).length <= 50));
  assert.ok(readFileSync(result.outputs['report-json']!, 'utf8').includes(names[1499]!));
});
