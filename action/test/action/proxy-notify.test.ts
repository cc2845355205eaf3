import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { runAction, type Scenario } from '../support/action-runner/scenario.js';
import { mainWithHistory, nextMainCommit } from '../support/main-history.js';
import { seriesWithSteps } from '../support/synthetic-series.js';
import { startProxy, type TestProxy } from '../support/proxy.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { requireTool } from '../support/tools.js';
import { resultSet } from './fixtures.js';
import { webhookPayload } from '../support/fake-github/webhooks.js';

requireTool('git');

/**
 * A runner behind a company proxy, end to end: the bundled action reaches the
 * OpenAPI-checked fake GitHub and the notification webhook only through a real
 * forward proxy on 127.0.0.1. Both are addressed by names the runner cannot
 * resolve (api.github.test, hooks.test) and only the proxy maps to their
 * loopback ports, so a request that arrived went through the proxy; the proxy
 * also records each one. A NO_PROXY entry sends the webhook around it.
 */
const SECRET = 'a-shared-secret-of-32-characters';
let gh: FakeGitHub;
let proxy: TestProxy;
let hooks: WebhookReceiver;
let actionPath: string;
let root: string;
let ghPort: number;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-proxy-'));
  actionPath = await bundleAction(join(root, 'action'));
  gh = await startFakeGitHub();
  gh.tokens.set('ghs', null);
  hooks = await startWebhookReceiver(SECRET);
  ghPort = Number(new URL(gh.url).port);
  proxy = await startProxy({ 'api.github.test': ghPort, 'hooks.test': hooks.port });
});
after(async () => {
  await proxy.close();
  await hooks.close();
  await gh.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

const behindProxy = (extra: Record<string, string>): Record<string, string> => ({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, ...extra });

/** Lines of the step's output other than the mask commands that hide `secret`. */
const leaked = (stdout: string, secret: string): string[] => stdout.split('\n').filter((l) => l.includes(secret) && !l.startsWith('::add-mask::'));

test('behind a proxy: main opens its alert issue and tells the json webhook, every request through the proxy, the body signed', async () => {
  const parse = seriesWithSteps(31, 40, 0.02, [{ at: 25, size: 0.12 }]);
  const main = await mainWithHistory(root, 'ws-main', 30, parse, seriesWithSteps(32, 40, 0.02));
  const sha = nextMainCommit(main, 30);
  const hookUrl = `http://hooks.test:${hooks.port}/perf-gate?key=url-secret`;
  const scenario: Scenario = {
    workspace: main.ws,
    runnerTemp: join(root, 'temp-main'),
    apiUrl: `http://api.github.test:${ghPort}`,
    token: 'ghs',
    repository: 'acme/x',
    eventName: 'push',
    event: { ref: 'refs/heads/main' },
    sha,
    extraEnv: behindProxy({ PERF_GATE_WEBHOOK_URL: hookUrl, PERF_GATE_WEBHOOK_SECRET: SECRET }),
  };
  const seenBefore = proxy.seen.length;
  const requestsBefore = gh.requests.length;
  const r = await runAction(actionPath, scenario, {
    mode: 'main',
    results: 'measured.json',
    alert: 'issue',
    confirm: 'off',
    notify: 'json',
    'fail-on': 'never',
  });
  assert.equal(r.outcome, 'success', `${JSON.stringify(r.annotations)}\n${r.stdout}`);
  assert.equal(r.outputs['alerts'], '1', r.stdout);

  // GitHub: the issue and the check run were made, and the proxy carried each request (one tunnel per request).
  const made = gh.requests.slice(requestsBefore);
  assert.ok(made.some((q) => q.operationId === 'issues/create') && made.some((q) => q.operationId === 'checks/create'), JSON.stringify(made));
  const tunnels = proxy.seen.slice(seenBefore);
  assert.equal(tunnels.filter((s) => s === `CONNECT api.github.test:${ghPort}`).length, made.length, tunnels.join('\n'));

  // The webhook: through the proxy too, once, signed over the exact body, with the alert and its new issue.
  assert.equal(tunnels.filter((s) => s === `CONNECT hooks.test:${hooks.port}`).length, 1, tunnels.join('\n'));
  assert.equal(hooks.deliveries.length, 1);
  const d = hooks.deliveries[0]!;
  assert.equal(d.signatureValid, true, `signature ${String(d.headers['x-perf-gate-signature-256'])} over ${d.body}`);
  assert.equal(d.headers['content-type'], 'application/json');
  assert.equal(d.headers['x-perf-gate-event'], 'main-alert');
  assert.equal(d.path, '/perf-gate?key=url-secret');
  const body = d.json as {
    schema: string;
    event: string;
    sha: string;
    title: string;
    lines: string[];
    data: { alerts: { benchmark: string; issue: string | null; commit: string }[] };
  };
  assert.equal(body.schema, 'perf-gate/notification@1');
  assert.equal(body.event, 'main-alert');
  assert.equal(body.sha, sha);
  assert.equal(body.title, 'perf-gate: 1 new regression on main');
  const issue = gh.issues.at(-1)!;
  assert.deepEqual(
    body.data.alerts.map((a) => [a.benchmark, a.commit, a.issue]),
    [['scan/parse', main.commits[25], `https://github.example.com/acme/x/issues/${issue.number}`]],
  );
  assert.match(body.lines[0]!, /^scan\/parse time \+1\d\.\d % on bench-1 \(\w{7}\.\.\w{7}\) https:\/\/github\.example\.com\/acme\/x\/issues\/\d+$/);

  // The URL and the secret are masked and never printed.
  assert.ok(r.stdout.includes(`::add-mask::${SECRET}`) && r.stdout.includes(`::add-mask::${hookUrl}`), 'both are masked');
  assert.deepEqual(leaked(r.stdout, SECRET), []);
  assert.deepEqual(leaked(r.stdout, 'url-secret'), []);
});

function releaseScenario(name: string, extraEnv: Record<string, string>): Scenario {
  const ws = join(root, name);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'release.json'), JSON.stringify(resultSet('1'.repeat(40), { 'scan/a': 0.01, 'scan/<!channel>': 0.02 })));
  writeFileSync(join(ws, 'current.json'), JSON.stringify(resultSet('2'.repeat(40), { 'scan/a': 0.015, 'scan/<!channel>': 0.03 })));
  return {
    workspace: ws,
    runnerTemp: join(ws, '_temp'),
    apiUrl: `http://api.github.test:${ghPort}`,
    token: 'ghs',
    repository: 'acme/x',
    eventName: 'push',
    event: { ref: 'refs/tags/v2.0.0' },
    sha: '9'.repeat(40),
    ref: 'refs/tags/v2.0.0',
    extraEnv: behindProxy(extraEnv),
  };
}

test('a release no-go tells Slack; a NO_PROXY host bypasses the proxy while GitHub still goes through it', async () => {
  // [::ffff:127.0.0.1] is 127.0.0.1 reached by a name the proxy rules do not treat as loopback, so only NO_PROXY can exempt it.
  const s = releaseScenario('release-slack', {
    PERF_GATE_WEBHOOK_URL: `http://[::ffff:127.0.0.1]:${hooks.port}/slack/T000/B000/xyz`,
    NO_PROXY: 'example.org,[::ffff:7f00:1]',
  });
  const seenBefore = proxy.seen.length;
  const deliveredBefore = hooks.deliveries.length;
  const r = await runAction(actionPath, s, { mode: 'release', baseline: 'release.json', results: 'current.json', notify: 'slack', confirm: 'off' });
  assert.equal(r.outcome, 'failure', r.stdout);
  assert.equal(gh.checkRuns.at(-1)!.conclusion, 'failure');
  const tunnels = proxy.seen.slice(seenBefore);
  assert.ok(tunnels.length > 0 && tunnels.every((t) => t === `CONNECT api.github.test:${ghPort}`), tunnels.join('\n'));
  const slack = hooks.deliveries.slice(deliveredBefore);
  assert.equal(slack.length, 1, 'delivered directly');
  assert.equal(slack[0]!.path, '/slack/T000/B000/xyz');
  assert.equal(slack[0]!.headers['x-perf-gate-signature-256'], undefined, 'Slack bodies are not signed: the URL is the secret');
  const text = (slack[0]!.json as { text: string }).text;
  assert.match(text, /^\*perf-gate: release v2\.0\.0 is a no-go — /);
  // The benchmark's name cannot mention @channel: Slack's control characters arrive escaped.
  assert.ok(text.includes('• scan/&lt;!channel&gt; time: regressed +50.0 %'), text);
  assert.ok(!text.includes('<!channel>'), text);
  assert.ok(text.includes('<https://github.example.com/acme/x/actions/runs/4242|Details>'), text);
});

test('a webhook that refuses is a warning: the verdict and the exit status stand', async () => {
  hooks.answer = 500;
  try {
    const s = releaseScenario('release-refused', { PERF_GATE_WEBHOOK_URL: `http://hooks.test:${hooks.port}/x`, PERF_GATE_WEBHOOK_SECRET: SECRET });
    const r = await runAction(actionPath, s, { mode: 'release', baseline: 'release.json', results: 'current.json', notify: 'json', confirm: 'off' });
    assert.equal(r.steps[0]?.exitCode, 1, 'the release still fails on its regression');
    assert.ok(
      r.annotations.some((a) => a.command === 'warning' && a.message.includes('the json webhook did not take the release-no-go notification (HTTP 500)')),
      JSON.stringify(r.annotations),
    );
  } finally {
    hooks.answer = 204;
  }
});

test('notify: json without its secret is unusable input that names the variable', async () => {
  const s = releaseScenario('release-no-secret', { PERF_GATE_WEBHOOK_URL: `http://hooks.test:${hooks.port}/x` });
  const r = await runAction(actionPath, s, { mode: 'release', baseline: 'release.json', results: 'current.json', notify: 'json' });
  assert.equal(r.steps[0]?.exitCode, 2);
  assert.ok(
    r.annotations.some((a) => a.command === 'error' && a.message.startsWith('perf-gate: PERF_GATE_WEBHOOK_SECRET: is not set; notify: json signs every body')),
    JSON.stringify(r.annotations),
  );
});

test('behind a proxy: a pull request command, its permission check and its reply go through the proxy too', async () => {
  const ws = join(root, 'command');
  mkdirSync(ws, { recursive: true });
  const comment = gh.addComment('acme/x', 21, { login: 'mallory', id: 7100, type: 'User' }, '/perf-gate run');
  const event = webhookPayload('issue-comment-created', {
    action: 'created',
    issue: { number: 21, pull_request: { url: `${gh.url}/repos/acme/x/pulls/21` } },
    comment: { id: comment.id, body: comment.body, html_url: 'https://github.example.com/acme/x/pull/21#issuecomment-1', user: { login: 'mallory' } },
    repository: { full_name: 'acme/x', default_branch: 'main' },
    sender: { login: 'mallory' },
  });
  const seenBefore = proxy.seen.length;
  const requestsBefore = gh.requests.length;
  const r = await runAction(
    actionPath,
    {
      workspace: ws,
      runnerTemp: join(ws, '_temp'),
      apiUrl: `http://api.github.test:${ghPort}`,
      token: 'ghs',
      repository: 'acme/x',
      eventName: 'issue_comment',
      event,
      sha: '9'.repeat(40),
      extraEnv: behindProxy({}),
    },
    { mode: 'command', 'run-workflow': 'perf-gate-on-demand.yml' },
  );
  assert.equal(r.outcome, 'success', r.stdout);
  const made = gh.requests.slice(requestsBefore);
  assert.deepEqual(
    made.map((q) => q.operationId),
    ['repos/get-collaborator-permission-level', 'issues/create-comment'],
  );
  assert.equal(proxy.seen.slice(seenBefore).filter((s) => s === `CONNECT api.github.test:${ghPort}`).length, made.length);
  assert.match(gh.comments.at(-1)!.body, /^@mallory: `\/perf-gate run` was refused: it needs write permission/);
});
