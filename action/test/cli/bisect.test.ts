import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BISECT_SCHEMA, type BisectReport, type BisectStep } from '../../src/gate/bisect-steps.js';
import { bisectExit } from '../../src/cli/bisect.js';
import { bisectMarkdown, bisectText } from '../../src/report/bisect.js';
import { runCli } from '../support/cli.js';
import { gitSync } from '../support/history.js';
import { BISECT_CONFIG, NAP_BENCHMARK, plantedRepo } from '../support/bisect-repo.js';
import { requireTool } from '../support/tools.js';

/**
 * `perf-gate bisect` without measuring: unusable input is exit 2 naming the
 * flag and what was expected, before any worktree or round; and the report's
 * rendering (untrusted commit subjects escaped). The search on real commits
 * is bisect.timing.test.ts.
 */
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };

describe('perf-gate bisect: unusable input (exit 2, the flag named)', () => {
  requireTool('git');
  const repo = plantedRepo({ seed: 1, commits: 3 });
  const args = (...extra: string[]): string[] => ['bisect', '--good', 'good', '--bad', 'main', '--benchmark', NAP_BENCHMARK, ...extra];

  const cases: { what: string; argv: string[]; stderr: RegExp }[] = [
    { what: 'a missing --good', argv: ['bisect', '--bad', 'main', '--benchmark', NAP_BENCHMARK], stderr: /--good is required/ },
    {
      what: 'an unknown --good ref',
      argv: ['bisect', '--good', 'no-such-ref', '--bad', 'main', '--benchmark', NAP_BENCHMARK],
      stderr: /--good: "no-such-ref" is not a commit/,
    },
    {
      what: 'an unknown --bad ref',
      argv: ['bisect', '--good', 'good', '--bad', 'nope', '--benchmark', NAP_BENCHMARK],
      stderr: /--bad: "nope" is not a commit/,
    },
    {
      what: 'good not an ancestor of bad',
      argv: ['bisect', '--good', 'main', '--bad', 'good', '--benchmark', NAP_BENCHMARK],
      stderr: /--good: "main" \([0-9a-f]{12}\) is not an ancestor of --bad "good"/,
    },
    {
      what: 'good and bad the same commit',
      argv: ['bisect', '--good', 'main', '--bad', 'main', '--benchmark', NAP_BENCHMARK],
      stderr: /--bad: "main" is the same commit as --good/,
    },
    {
      what: 'a benchmark in no suite',
      argv: ['bisect', '--good', 'good', '--bad', 'main', '--benchmark', 'parse/big'],
      stderr: /--benchmark: "parse\/big" is not in any suite of perf-gate\.yml: ids are <suite>\/<name>, and the suites are nap/,
    },
    { what: 'an unknown --suite', argv: args('--suite', 'naps'), stderr: /--suite: no suite "naps" in perf-gate\.yml; did you mean "nap"\?/ },
    { what: 'an unknown option', argv: args('--rounds', '3'), stderr: /unknown option --rounds/ },
  ];
  for (const c of cases) {
    test(c.what, async () => {
      const r = await runCli(c.argv, repo.dir, ENV);
      assert.equal(r.status, 2, r.stdout + r.stderr);
      assert.match(r.stderr, c.stderr);
      assert.equal(gitSync(repo.dir, ['worktree', 'list']).split('\n').length, 1, 'no worktree was left');
    });
  }

  test('good reachable only through a merged branch is not on the first-parent path', async () => {
    const dir = plantedRepo({ seed: 2, commits: 2 }).dir;
    gitSync(dir, ['checkout', '--quiet', '-b', 'side', 'good']);
    writeFileSync(join(dir, 'side.txt'), 'side\n');
    gitSync(dir, ['add', 'side.txt']);
    gitSync(dir, ['commit', '--quiet', '-m', 'on a branch']);
    gitSync(dir, ['checkout', '--quiet', 'main']);
    gitSync(dir, ['merge', '--quiet', '--no-ff', '-m', 'merge side', 'side']);
    const r = await runCli(['bisect', '--good', 'side', '--bad', 'main', '--benchmark', NAP_BENCHMARK], dir, ENV);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /--good: "side" \([0-9a-f]{12}\) is not on the first-parent history of "main"/);
  });

  test('a benchmark its suite does not report is said after one round, not after the first batch', async () => {
    const dir = plantedRepo({ seed: 4, commits: 2 }).dir;
    const r = await runCli(['bisect', '--good', 'good', '--bad', 'main', '--benchmark', `${NAP_BENCHMARK}p`, '--out', 'out'], dir, ENV);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stderr, new RegExp(`--benchmark: suite "nap" reported no benchmark "${NAP_BENCHMARK}p"; did you mean "${NAP_BENCHMARK}"\\?`));
    const rounds = readdirSync(join(dir, 'out'), { recursive: true })
      .map(String)
      .filter((f) => /round-\d+/.test(f));
    assert.ok(rounds.length > 0 && rounds.every((f) => /round-0*1-/.test(f)), rounds.join(', '));
    assert.equal(gitSync(dir, ['worktree', 'list']).split('\n').length, 1, 'no worktree was left');
  });

  test('a commands: suite checks the command name before anything runs', async () => {
    const dir = plantedRepo({ seed: 3, commits: 1 }).dir;
    writeFileSync(join(dir, 'cmds.yml'), `${BISECT_CONFIG}  - name: cli\n    commands:\n      startup: ./nap\n`);
    const r = await runCli(['bisect', '--good', 'good', '--bad', 'main', '--benchmark', 'cli/startpu', '--config', 'cmds.yml'], dir, ENV);
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /--benchmark: suite "cli" has no command "startpu"; did you mean "cli\/startup"\?/);
  });
});

const commit = (n: number, subject: string): BisectReport['good'] => ({
  sha: String(n).repeat(40).slice(0, 40),
  subject,
  author: 'A. Author <a@example.invalid>',
});

function stepRow(
  n: number,
  c: BisectReport['good'],
  index: number,
  side: BisectStep['side'],
  reason: BisectStep['reason'],
  change: number,
  ci: [number, number],
  status: BisectStep['status'],
): BisectStep {
  return { step: n, commit: c, index, attempt: 1, status, change, ci, ciLevel: 0.95, p: 0.001, side, reason, rounds: 10 };
}

describe('the bisect report', () => {
  const hostile = commit(3, 'Speed up `parse` | see @octocat #12 <b>\x1b[31mred\u202e</b>');
  const report: BisectReport = {
    schema: BISECT_SCHEMA,
    benchmark: 'nap/nap',
    metric: 'time',
    unit: 's',
    direction: 'lower',
    good: commit(1, 'start'),
    bad: commit(4, 'last'),
    commits: 4,
    steps: [
      stepRow(1, commit(4, 'last'), 4, 'bad', 'is-the-change', 1.5, [1.2, 1.9], 'regressed'),
      stepRow(2, commit(2, 'notes'), 2, 'good', 'rules-out-change', 0.01, [-0.05, 0.2], 'inconclusive'),
      stepRow(3, hostile, 3, 'bad', 'same-verdict-overlapping', 1.4, [1.1, 1.8], 'regressed'),
    ],
    outcome: { kind: 'culprit', commit: hostile },
  };

  test('the terminal text shows every step and the culprit, with control characters made visible', () => {
    const text = bisectText(report);
    assert.match(text, /^step\s+commit\s+subject\s+change \(95% CI\)\s+rounds\s+verdict\s+side$/m);
    assert.match(text, /^2\s+2222222\s+notes\s+\+1\.0 % \[-5\.0, \+20\.0\]\s+10\s+inconclusive\s+good \(interval rules the change out\)$/m);
    assert.match(text, /culprit: 3{40} "Speed up `parse` \| see @octocat #12 <b>\\x1b\[31mred\\u202e<\/b>" by A\. Author/);
    assert.doesNotMatch(text, /\x1b|\u202e/);
  });

  test('the Markdown escapes the subject: no code span, table break, mention, reference or HTML', () => {
    const md = bisectMarkdown(report);
    const row = md.split('\n').find((l) => l.startsWith('| 3 |'))!;
    assert.equal(row.split(/(?<!&#124);? ?\|/).length, 9, `seven cells: ${row}`);
    assert.doesNotMatch(md, /`parse`|@octocat|(?<!&)#12|<b>|\x1b|\u202e/);
    assert.match(md, /\*\*culprit: 3{40} "Speed up &#96;parse&#96;/);
  });

  test('exit status: a culprit or no step is 0; a search stopped at a commit is 1', () => {
    assert.equal(bisectExit(report), 0);
    assert.equal(bisectExit({ ...report, outcome: { kind: 'no-step', status: 'unchanged' } }), 0);
    for (const kind of ['inconclusive', 'differs', 'failed'] as const) assert.equal(bisectExit({ ...report, outcome: { kind, commit: hostile } }), 1);
    assert.match(bisectText({ ...report, outcome: { kind: 'inconclusive', commit: hostile } }), /^inconclusive at 3{40} /m);
    assert.match(
      bisectText({ ...report, outcome: { kind: 'no-step', status: 'unchanged' } }),
      /^no step found between 1111111 and 4444444: bad against good is unchanged$/m,
    );
  });
});
