import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeSettings, readSettings, inputVariable } from '../../src/action/read-settings.js';
import { InputError } from '../../src/model/index.js';

const base = { GITHUB_WORKSPACE: '/ws', RUNNER_TEMP: '/tmp/rt', GITHUB_REPOSITORY: 'acme/x' };

function withInputs(inputs: Record<string, string>): Record<string, string> {
  return { ...base, ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [inputVariable(k), v])) };
}

test('defaults: mode pr, comment always, fail-on fail, check run on, forks refused, output in RUNNER_TEMP', () => {
  const s = readSettings(base, '/elsewhere');
  assert.equal(s.mode, 'pr');
  assert.equal(s.comment, 'always');
  assert.equal(s.failOn, 'fail');
  assert.equal(s.checkRun, true);
  assert.equal(s.allowForkPullRequests, false);
  assert.equal(s.gateName, 'perf-gate');
  assert.equal(s.config, '/ws/perf-gate.yml');
  assert.equal(s.outputDir, '/tmp/rt/perf-gate');
  assert.equal(s.github.apiUrl, 'https://api.github.com');
});

test('lists split on lines and commas; paths resolve against working-directory', () => {
  const s = readSettings(withInputs({ 'working-directory': 'sub', baseline: 'a.json\n b.json, c.json\n\n' }), '/');
  assert.deepEqual(s.baseline, ['/ws/sub/a.json', '/ws/sub/b.json', '/ws/sub/c.json']);
});

test('GITHUB_API_URL is honoured, trailing slash dropped', () => {
  assert.equal(readSettings({ ...base, GITHUB_API_URL: 'https://ghe.example.com/api/v3/' }, '/').github.apiUrl, 'https://ghe.example.com/api/v3');
});

for (const [input, value, accepted] of [
  ['mode', 'nightly', 'pr, main, release, report'],
  ['comment', 'sometimes', 'always, on-change, never'],
  ['fail-on', 'regression', 'fail, suspected, warn, never'],
  ['confirm', 'always', 'auto, interleaved, off'],
  ['testbed-mismatch', 'ignore', 'flag, compare, refuse'],
  ['preflight', 'loud', 'warn, strict, off'],
] as const) {
  test(`an unknown ${input} names the input and the accepted values`, () => {
    assert.throws(
      () => readSettings(withInputs({ [input]: value }), '/'),
      (e: unknown) => e instanceof InputError && e.file === `action input "${input}"` && e.message.includes(value) && e.message.includes(accepted),
    );
  });
}

test('ab takes "base" or a git ref, in the modes that gate a change', () => {
  assert.equal(readSettings(withInputs({ ab: 'base' }), '/').ab, 'base');
  assert.equal(readSettings(withInputs({ ab: 'origin/main' }), '/').ab, 'origin/main');
  assert.equal(readSettings(withInputs({}), '/').ab, '');
  assert.throws(() => readSettings(withInputs({ ab: 'main; rm -rf /' }), '/'), /action input "ab".*is not a git ref/);
  assert.throws(() => readSettings(withInputs({ ab: 'base', mode: 'main' }), '/'), /mode main takes no ab/);
  assert.equal(readSettings(withInputs({}), '/').preflight, 'warn');
});

test('booleans accept true/false only', () => {
  assert.equal(readSettings(withInputs({ 'check-run': 'False' }), '/').checkRun, false);
  assert.throws(() => readSettings(withInputs({ 'allow-fork-pull-requests': 'yes' }), '/'), /allow-fork-pull-requests.*expected true or false/);
});

test('a gate name that could break the marker is refused', () => {
  assert.throws(() => readSettings(withInputs({ 'gate-name': 'a--b' }), '/'), /gate-name/);
  assert.throws(() => readSettings(withInputs({ 'gate-name': 'x -->' }), '/'), /gate-name/);
  assert.equal(readSettings(withInputs({ 'gate-name': 'linux-x86_64.v2' }), '/').gateName, 'linux-x86_64.v2');
});

test('mode report refuses results given directly', () => {
  assert.throws(() => readSettings(withInputs({ mode: 'report', results: 'x.json' }), '/'), /results/);
});

test('the settings as logged never show the token', () => {
  const lines = describeSettings(readSettings(withInputs({ 'github-token': 'ghs-very-secret-123' }), '/'));
  assert.ok(lines.includes('token: ***'), lines.join('\n'));
  assert.ok(lines.every((l) => !l.includes('ghs-very-secret-123')));
});

test('alert-bisect needs mode main and alert: issue, and is off by default', () => {
  assert.equal(readSettings(base, '/').alertBisect, false);
  assert.equal(readSettings(withInputs({ mode: 'main', alert: 'issue', 'alert-bisect': 'true' }), '/').alertBisect, true);
  assert.throws(
    () => readSettings(withInputs({ mode: 'main', 'alert-bisect': 'true' }), '/'),
    (e: InputError) => /alert-bisect/.test(e.message) && /alert: issue/.test(e.message),
  );
  assert.throws(() => readSettings(withInputs({ mode: 'main', alert: 'issue', 'alert-bisect': 'yes' }), '/'), InputError);
});
