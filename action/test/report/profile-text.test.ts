import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { ProfileSection, RegressionProfile } from '../../src/model/index.js';
import { markdownProfiles, terminalProfiles } from '../../src/report/profile-text.js';

const profile = (top: RegressionProfile['top'], profiler: 'perf' | 'callgrind' = 'callgrind'): RegressionProfile => ({
  benchmark: 'parse/<b>json</b>',
  profiler,
  countName: profiler === 'callgrind' ? 'instructions' : 'samples',
  seconds: 6.25,
  totals: { before: 64_100_000, after: 186_700_000 },
  files: {
    flameGraph: 'runs/profile/parse_b_json_b/diff.svg',
    base: 'runs/profile/parse_b_json_b/base.folded',
    head: 'runs/profile/parse_b_json_b/head.folded',
  },
  top,
});
const row = (fn: string, process = 'parse'): RegressionProfile['top'][number] => ({
  function: fn,
  process,
  before: 13_210_000,
  after: 135_800_000,
  shareBefore: 0.206,
  shareAfter: 0.749,
  growth: 0.543,
});
const section = (profiles: RegressionProfile[], extra: Partial<ProfileSection> = {}): ProfileSection => ({
  profiles,
  warnings: [],
  seconds: 6.25,
  cap: 300,
  ...extra,
});

describe('the profiles in the report', () => {
  test('Markdown: a table per benchmark, names escaped, the files and the artifacts link', () => {
    const text = markdownProfiles(
      section([profile([row('Vec<T>::push | *x* [y](http://evil)')])], { artifactUrl: 'https://github.com/o/r/actions/runs/1#artifacts' }),
    );
    assert.match(text, /^\*\*Why it got slower\*\*\n\n<sub>profiles of 1 confirmed regression\(s\) in 6\.3 s \(cap 300 s\); they never change the verdict\./);
    assert.match(text, /<summary><b>parse\/&lt;b&gt;json&lt;\/b&gt;<\/b> \(callgrind, 64\.10 M → 186\.7 M instructions \(\+191\.3 %\), 6\.3 s\)<\/summary>/);
    assert.match(text, /in \[the run's artifacts\]\(https:\/\/github\.com\/o\/r\/actions\/runs\/1#artifacts\)\./);
    const line = text.split('\n').find((l) => l.startsWith('| Vec'))!;
    assert.equal(line.split(' | ').length, 4, `the name's "|" is escaped: ${line}`);
    assert.doesNotMatch(line, /<T>|\]\(http/);
    assert.match(line, /\| 13\.21 M \(20\.6 %\) \| 135\.8 M \(74\.9 %\) \| \+54\.3 points \|$/);
  });

  test('perf shows shares alone; functions of two processes say which; an empty table says why; warnings keep their fix', () => {
    const text = markdownProfiles(
      section([profile([row('hash_word', 'words'), row('cargo::main', 'cargo')], 'perf'), profile([])], {
        warnings: ['perf is not installed; profiled with callgrind instead. Fix: …'],
      }),
    );
    assert.match(text, /\| hash&#95;word \(words\) \| 20\.6 % \| 74\.9 % \| \+54\.3 points \|/);
    assert.match(text, /No function’s share of the work grew beyond the noise/);
    assert.match(text, /- ⚠️ perf is not installed; profiled with callgrind instead\. Fix: …$/);
    assert.equal(markdownProfiles(undefined), '');
  });

  test('the terminal: the same, with the files named', () => {
    const lines = terminalProfiles(section([profile([row('hash_word')])]));
    assert.deepEqual(lines, [
      '  profiles of 1 confirmed regression(s) in 6.3 s (cap 300 s); they never change the verdict',
      '  parse/<b>json</b> (callgrind, 64.10 M → 186.7 M instructions (+191.3 %), 6.3 s)',
      '    flame graph: runs/profile/parse_b_json_b/diff.svg',
      '    folded stacks: runs/profile/parse_b_json_b/base.folded, runs/profile/parse_b_json_b/head.folded',
      '      +54.3 points  13.21 M (20.6 %) → 135.8 M (74.9 %)  hash_word',
    ]);
  });
});
