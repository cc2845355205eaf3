import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePrCommands } from '../../src/action/pr-command-text.js';

test('accept takes a glob (bare or in backticks) and a reason; run takes nothing', () => {
  assert.deepEqual(parsePrCommands('/perf-gate accept scan/* the exact parser is slower by design'), [
    { kind: 'accept', benchmarks: 'scan/*', reason: 'the exact parser is slower by design' },
  ]);
  assert.deepEqual(parsePrCommands('Thanks!\n\n/perf-gate accept `io/read *` buffered reads trade latency\n'), [
    { kind: 'accept', benchmarks: 'io/read *', reason: 'buffered reads trade latency' },
  ]);
  assert.deepEqual(parsePrCommands('/perf-gate run'), [{ kind: 'run' }]);
});

test('a command without its reason, an unknown verb and extra words are answered, not obeyed', () => {
  assert.deepEqual(
    parsePrCommands('/perf-gate accept scan/*\n/perf-gate merge\n/perf-gate run now').map((c) => c.kind === 'unknown' && c.problem),
    ['an acceptance needs a reason after the glob, for the record', '`merge` is not a command', '`run` takes nothing after it'],
  );
});

test('quoted and fenced commands are not commands: quoting someone must not repeat their acceptance', () => {
  assert.deepEqual(parsePrCommands('> /perf-gate accept * no\n```\n/perf-gate accept * no\n```\nplain /perf-gate run in a sentence'), []);
  assert.deepEqual(parsePrCommands('/perf-gatex run'), []);
});

test('hardening 3.10: what GitHub does not show as text gives no command (CommonMark fences, HTML comments, indented code)', () => {
  // A ~~~ fence holding a ``` pair stays open until its own ~~~.
  assert.deepEqual(parsePrCommands('~~~\n```\n```\n/perf-gate accept * hidden\n~~~'), []);
  // A longer fence is closed only by a fence at least as long.
  assert.deepEqual(parsePrCommands('````\n```\n/perf-gate run\n````\n/perf-gate run'), [{ kind: 'run' }]);
  assert.deepEqual(parsePrCommands('<!--\n/perf-gate accept * hidden\n-->\n<!-- /perf-gate run -->'), []);
  assert.deepEqual(parsePrCommands('text\n\n    /perf-gate accept * hidden\n\t/perf-gate run'), []);
  // Up to three spaces are still text.
  assert.deepEqual(parsePrCommands('   /perf-gate run'), [{ kind: 'run' }]);
});
