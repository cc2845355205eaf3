import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeSlack, webhookBody, webhookSignature, type Notification } from '../../src/github/webhook.js';

test("the json body's signature is GitHub's X-Hub-Signature-256 scheme: GitHub's documented example gives its documented value", () => {
  // From GitHub's "Validating webhook deliveries": this secret and payload sign to this digest.
  assert.equal(webhookSignature("It's a Secret to Everybody", 'Hello, World!'), 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
});

test("Slack's three control characters are escaped, so a name can neither link nor mention", () => {
  assert.equal(escapeSlack('a & <!channel> <http://x|y>'), 'a &amp; &lt;!channel&gt; &lt;http://x|y&gt;');
});

test('a long list is cut at 20 lines in Slack and kept whole in the json body', () => {
  const n: Notification = {
    event: 'main-alert',
    title: 't',
    lines: Array.from({ length: 23 }, (_, i) => `line ${i}`),
    runUrl: null,
    repository: 'acme/x',
    ref: 'refs/heads/main',
    sha: 'abc',
    gate: 'perf-gate',
    data: {},
  };
  const slack = (JSON.parse(webhookBody('slack', n, new Date(0))) as { text: string }).text.split('\n');
  assert.equal(slack.length, 1 + 20 + 1);
  assert.equal(slack.at(-1), '… and 3 more');
  const json = JSON.parse(webhookBody('json', n, new Date(0))) as { lines: string[]; sent: string };
  assert.equal(json.lines.length, 23);
  assert.equal(json.sent, '1970-01-01T00:00:00.000Z');
});
