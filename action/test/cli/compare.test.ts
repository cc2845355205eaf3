import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

describe('perf-gate compare on unusable input exits 2 naming the file', () => {
  const dir = tempDir();
  const good = readFileSync(new URL('../fixtures/hyperfine/two-commands.json', import.meta.url), 'utf8');
  before(() => {
    writeFileSync(join(dir, 'good.json'), good);
    writeFileSync(join(dir, 'empty.json'), '');
    writeFileSync(join(dir, 'truncated.json'), good.slice(0, 300));
    writeFileSync(join(dir, 'malformed.json'), good.replace('"mean":', '"mean" '));
    writeFileSync(join(dir, 'negative.json'), good.replace(/"times": \[\n(\s+)[0-9.]+/, '"times": [\n$1-0.01'));
    writeFileSync(join(dir, 'nan.json'), good.replace(/"times": \[\n(\s+)[0-9.]+/, '"times": [\n$1"NaN"'));
    mkdirSync(join(dir, 'budgets-bad'));
    writeFileSync(join(dir, 'budgets-bad', 'b.yml'), 'version: 1\nbenchmarks:\n  "*":\n    time: { max: 10parsecs }\n');
    mkdirSync(join(dir, 'budgets-syntax'));
    writeFileSync(join(dir, 'budgets-syntax', 'b.yml'), 'version: 1\nbenchmarks:\n  "*": [\n');
  });

  const cases: [string, string[], RegExp][] = [
    ['a 0-byte file', ['--current', 'empty.json'], /empty\.json: the file is empty/],
    ['a truncated file', ['--current', 'truncated.json', '--format', 'hyperfine'], /truncated\.json:\d+: the JSON ends early \(truncated\?\)/],
    ['malformed JSON', ['--current', 'malformed.json'], /malformed\.json:\d+: invalid JSON/],
    [
      'a negative time',
      ['--current', 'negative.json'],
      /negative\.json:\d+: results\[0\]\.times\[0\]: expected a non-negative number of seconds, found -0\.01/,
    ],
    ['a NaN time', ['--current', 'nan.json'], /nan\.json:\d+: results\[0\]\.times\[0\]: .*found "NaN"/],
    [
      'an unknown unit in a budget',
      ['--current', 'good.json', '--budgets', 'budgets-bad'],
      /budgets-bad\/b\.yml:4: benchmarks\.\*\.time\.max: expected a number with a unit.*found "10parsecs"/,
    ],
    ['a YAML syntax error in a budget', ['--current', 'good.json', '--budgets', 'budgets-syntax'], /budgets-syntax\/b\.yml:\d+: YAML syntax error/],
    ['a missing file', ['--current', 'nope.json'], /nope\.json: no such file or folder/],
  ];
  for (const [what, args, message] of cases) {
    test(what, async () => {
      const result = await runCli(['compare', ...args], dir);
      assert.equal(result.status, 2, `${what}: ${result.stdout}`);
      assert.match(result.stderr, message);
    });
  }

  test('a command-line mistake prints the usage and exits 2', async () => {
    const result = await runCli(['compare', '--baseline', 'good.json'], dir);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--current is required/);
    assert.match(result.stderr, /Usage: perf-gate compare/);
  });
});

test('a report path that cannot be written is unusable input naming the flag', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'good.json'), readFileSync(new URL('../fixtures/hyperfine/two-commands.json', import.meta.url), 'utf8'));
  mkdirSync(join(dir, 'taken'));
  const result = await runCli(['compare', '--current', 'good.json', '--json', 'taken'], dir);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /--json "taken": is a folder, expected a file/);
});

test('files in an input folder that are not results are listed in the report, and the verdict is unchanged', async () => {
  const dir = tempDir();
  const good = readFileSync(new URL('../fixtures/hyperfine/two-commands.json', import.meta.url), 'utf8');
  mkdirSync(join(dir, 'results'));
  writeFileSync(join(dir, 'results', 'hyperfine.json'), good);
  writeFileSync(join(dir, 'results', 'README.md'), '# How these results were made\n');
  writeFileSync(join(dir, 'results', 'package.json'), '{ "name": "not-results" }\n');
  const result = await runCli(['compare', '--current', 'results', '--json', 'report.json'], dir);
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(
    result.stdout,
    /2 file\(s\) in the input folders were not read as results: .*results\/package\.json \(.*\); .*results\/README\.md \(no format recognised it\)/,
  );
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { verdict: string; warnings: { code: string; message: string }[] };
  assert.equal(report.verdict, 'pass');
  const skipped = report.warnings.find((w) => w.code === 'skipped-files');
  assert.match(skipped?.message ?? '', /package\.json.*README\.md/);
  assert.doesNotMatch(skipped?.message ?? '', /hyperfine\.json/);
  // Without the folder's extra files there is no such warning.
  const plain = await runCli(['compare', '--current', 'results/hyperfine.json', '--json', 'plain.json'], dir);
  assert.equal(plain.status, 0);
  assert.doesNotMatch(plain.stdout, /not read as results/);
});
