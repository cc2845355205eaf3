import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('git');

interface HyperfineFile {
  results: Record<string, unknown>[];
}

const FIXTURE = JSON.parse(readFileSync(new URL('../fixtures/hyperfine/two-commands.json', import.meta.url), 'utf8')) as HyperfineFile;

/** The fixture with every time multiplied by `factor` (a slower or faster program). */
function scaled(factor: number): string {
  const scale = (v: unknown): unknown => (typeof v === 'number' ? v * factor : Array.isArray(v) ? v.map(scale) : v);
  const results = FIXTURE.results.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'exit_codes' ? v : scale(v)])));
  return `${JSON.stringify({ results }, null, 2)}\n`;
}

/** git in `repo`, committing the day before runCli's fixed clock (2026-11-21T12:00Z), as real commits precede their runs. */
function gitIn(repo: string): (...args: string[]) => string {
  return (...args) =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_DATE: '2026-11-20T12:00:00Z', GIT_COMMITTER_DATE: '2026-11-20T12:00:00Z' },
    }).trim();
}

interface JsonReport {
  verdict: string;
  rows: { benchmark: string; status: string; baseline: { n: number } | null }[];
}

/**
 * The run history on a real git repository: main has commits A and B, each
 * with a run recorded by `history add`; the branch `feature` forks from B and
 * adds C. compare and run choose their baseline from the history: the runs
 * of the merge base (B), or of --base, and say which; another testbed's runs
 * are never used.
 */
describe('perf-gate history, and compare/run choosing their baseline from it', () => {
  const repo = tempDir('perf-gate-history-cli-');
  const git = gitIn(repo);
  let a: string;
  let b: string;
  const cli = (...argv: string[]) => runCli(argv, repo, process.env);

  before(async () => {
    git('init', '-q', '--initial-branch=main');
    writeFileSync(join(repo, '.gitignore'), 'history/\n*.json\nout/\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'A');
    a = git('rev-parse', 'HEAD');
    writeFileSync(join(repo, 'same.json'), scaled(1));
    writeFileSync(join(repo, 'slower.json'), scaled(2));
    writeFileSync(join(repo, 'faster.json'), scaled(0.5));
    // A's run was slow, B's is the fixture: which one a comparison used shows in its verdict.
    const recordedA = await cli('history', 'add', '--history', 'history', '--commit', a, 'slower.json');
    assert.equal(recordedA.status, 0, recordedA.stderr);
    writeFileSync(join(repo, 'README'), 'B\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'B');
    b = git('rev-parse', 'HEAD');
    const recordedB = await cli('history', 'add', '--history', 'history', 'same.json');
    assert.equal(recordedB.status, 0, recordedB.stderr);
    assert.match(recordedB.stdout, new RegExp(`recorded ${b.slice(0, 12)} on testbed \\S+ as run \\S+ in .*history`));
    // Another testbed's run of B, faster: it must never be mixed in.
    const other = await cli('history', 'add', '--history', 'history', '--testbed', 'another-machine', 'faster.json');
    assert.equal(other.status, 0, other.stderr);
    git('checkout', '-q', '-b', 'feature');
    writeFileSync(join(repo, 'README'), 'C\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'C');
  });

  test('list shows every run with its commit and testbed; show prints one run by commit', async () => {
    const list = await cli('history', 'list', '--history', 'history');
    assert.equal(list.status, 0, list.stderr);
    const lines = list.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^created\s+testbed\s+commit\s+run$/);
    assert.equal(lines.length, 4, list.stdout);
    assert.equal(lines.filter((l) => l.includes(b.slice(0, 12))).length, 2);
    assert.equal(lines.filter((l) => l.includes('another-machine')).length, 1);
    const mine = await cli('history', 'list', '--history', 'history', '--testbed', 'another-machine');
    assert.equal(mine.stdout.trimEnd().split('\n').length, 2);

    const shown = await cli('history', 'show', '--history', 'history', a.slice(0, 8));
    assert.equal(shown.status, 0, shown.stderr);
    const set = JSON.parse(shown.stdout) as { commit: string; benchmarks: { id: string }[] };
    assert.equal(set.commit, a);
    assert.deepEqual(
      set.benchmarks.map((x) => x.id),
      ['sleep 0.01', 'sleep 0.02'],
    );
    const ambiguous = await cli('history', 'show', '--history', 'history', b.slice(0, 8));
    assert.equal(ambiguous.status, 2);
    assert.match(ambiguous.stderr, /2 runs match/);
    const unknown = await cli('history', 'show', '--history', 'history', 'ffff0000');
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /no run has the id or commit "ffff0000"/);
  });

  test("compare --history gates against the merge base's run on this testbed and names it", async () => {
    const slower = await cli('compare', '--current', 'slower.json', '--history', 'history', '--json', 'slower-report.json');
    assert.equal(slower.status, 1, slower.stdout + slower.stderr);
    assert.match(slower.stdout, new RegExp(`baseline: the run of ${b.slice(0, 12)} \\(\\d{4}-\\d\\d-\\d\\d, the merge base with main\\) in .*history`));
    const report = JSON.parse(readFileSync(join(repo, 'slower-report.json'), 'utf8')) as JsonReport;
    assert.deepEqual(
      report.rows.map((r) => r.status),
      ['regressed', 'regressed'],
    );
    // The same results as B's run: unchanged, so the faster run of the other testbed was not used.
    const same = await cli('compare', '--current', 'same.json', '--history', 'history', '--json', 'same-report.json');
    assert.equal(same.status, 0, same.stdout);
    const sameReport = JSON.parse(readFileSync(join(repo, 'same-report.json'), 'utf8')) as JsonReport;
    // Not regressed, as it would be against the other testbed's faster run. (Five samples against the
    // 2 % drift allowance read as inconclusive rather than unchanged: docs/history.md, learned drift.)
    assert.ok(
      sameReport.rows.every((r) => r.status === 'unchanged' || r.status === 'inconclusive'),
      same.stdout,
    );
  });

  test("--base picks another commit's run: against A (slow) the same results are improved", async () => {
    const result = await cli('compare', '--current', 'same.json', '--history', 'history', '--base', a, '--json', 'base-report.json');
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, new RegExp(`baseline: the run of ${a.slice(0, 12)} \\(.*--base ${a.slice(0, 12)}\\)`));
    const report = JSON.parse(readFileSync(join(repo, 'base-report.json'), 'utf8')) as JsonReport;
    assert.deepEqual(
      report.rows.map((r) => r.status),
      ['improved', 'improved'],
    );
  });

  test('an empty history says why there is no baseline, and only the budgets decide', async () => {
    const result = await cli('compare', '--current', 'slower.json', '--history', 'empty-history', '--json', 'none.json');
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /no baseline in .*empty-history: no run of testbed \S+ within 50 commits \(\d+ looked at\); budgets only/);
    assert.ok((JSON.parse(readFileSync(join(repo, 'none.json'), 'utf8')) as JsonReport).rows.every((r) => r.status === 'new'));
  });

  test('run with history: in perf-gate.yml appends in mode main, and the next run compares with it', async () => {
    // The suite copies a prepared file, so measuring the base again would copy the same one: one stage (confirm: off).
    writeFileSync(
      join(repo, 'perf-gate.yml'),
      'version: 1\nconfirm: off\nhistory: run-history\nsuites:\n  - name: copy\n    run: cp "$PERF_GATE_RESULT" {output}\n    format: hyperfine\n',
    );
    const env = { ...process.env, PERF_GATE_RESULT: join(repo, 'same.json') };
    const main = await runCli(['run', '--mode', 'main', '--out', 'out/main'], repo, env);
    assert.equal(main.status, 0, main.stdout + main.stderr);
    assert.match(main.stdout, /baseline written to .*history \(\S+\.json\.gz\)|baseline written to .*history \(\S+\)/);
    const feature = git('rev-parse', 'HEAD');
    // Without --history, history list reads perf-gate.yml's history:.
    const listed = await cli('history', 'list');
    assert.equal(listed.stdout.split('\n').filter((l) => l.includes(feature.slice(0, 12))).length, 1, listed.stdout);
    // HEAD is on feature; --base HEAD takes the run just recorded.
    const pr = await runCli(['run', '--base', 'HEAD', '--out', 'out/pr', '--json', 'run.json'], repo, { ...env, PERF_GATE_RESULT: join(repo, 'slower.json') });
    assert.equal(pr.status, 1, pr.stdout + pr.stderr);
    assert.match(pr.stdout, new RegExp(`baseline: the run of ${feature.slice(0, 12)}`));
    assert.deepEqual(
      (JSON.parse(readFileSync(join(repo, 'run.json'), 'utf8')) as JsonReport).rows.map((r) => r.status),
      ['regressed', 'regressed'],
    );
  });

  test('prune removes the runs created before a date', async () => {
    const before = readdirSync(join(repo, 'history')).length;
    assert.ok(before > 0);
    const pruned = await cli('history', 'prune', '--history', 'history', '--before', '2999-01-01');
    assert.equal(pruned.status, 0, pruned.stderr);
    assert.match(pruned.stdout, /removed [1-9]\d* run\(s\) created before 2999-01-01T00:00:00\.000Z/);
    const list = await cli('history', 'list', '--history', 'history');
    assert.match(list.stdout, /^no runs in /);
  });

  test('mistakes are usage errors (exit 2)', async () => {
    for (const argv of [
      ['history'],
      ['history', 'frob'],
      ['history', 'add'],
      ['history', 'prune'],
      ['history', 'list', '--before', 'x'],
      ['compare', '--current', 'same.json', '--base', 'HEAD'],
    ]) {
      const result = await cli(...argv);
      assert.equal(result.status, 2, `${argv.join(' ')}: ${result.stdout}`);
      assert.doesNotMatch(result.stderr, /internal error/);
    }
  });
});

/**
 * The drift learned from the history: six runs on main of two testbeds, one
 * whose levels stay within ±0.5 %, one whose levels swing by ±25 %.
 */
describe('perf-gate history noise, and the drift compare learns from the history', () => {
  const repo = tempDir('perf-gate-history-noise-');
  const git = gitIn(repo);
  const cli = (...argv: string[]) => runCli(argv, repo, process.env);
  const quiet = [1, 1.005, 0.995, 1.003, 0.997, 1];
  const noisy = [1, 1.3, 0.8, 1.25, 0.85, 1.2];

  before(async () => {
    git('init', '-q', '--initial-branch=main');
    writeFileSync(join(repo, '.gitignore'), 'history/\n*.json\n');
    for (let i = 0; i < quiet.length; i++) {
      writeFileSync(join(repo, 'README'), `${i}\n`);
      git('add', '-A');
      git('commit', '-q', '-m', `c${i}`);
      for (const [testbed, factors] of [
        ['quiet-bed', quiet],
        ['noisy-bed', noisy],
      ] as const) {
        writeFileSync(join(repo, 'run.json'), scaled(factors[i]!));
        // A minute apart, as real runs are: runs recorded at one instant have no order but their random ids, and the drift is learned in run order.
        const added = await runCli(['history', 'add', '--history', 'history', '--testbed', testbed, 'run.json'], repo, process.env, `2026-11-21T12:0${i}:00Z`);
        assert.equal(added.status, 0, added.stderr);
      }
    }
  });

  test("noise prints each benchmark's drift and whether the tolerance can be gated", async () => {
    const calm = await cli('history', 'noise', '--history', 'history', '--testbed', 'quiet-bed');
    assert.equal(calm.status, 0, calm.stderr);
    assert.match(calm.stdout, /^between-run drift on testbed quiet-bed, from its newest 6 run\(s\); tolerance 5\.0 %\n/);
    const lines = calm.stdout.split('\n').slice(2).filter(Boolean);
    const rows = lines.slice(0, -2);
    assert.equal(rows.length, 2, `one row per benchmark × metric:\n${calm.stdout}`);
    // ±0.5 % drift: the two-stage screen never sends an unchanged run of these to the interleaved stage.
    for (const row of rows) assert.match(row, /\s6\s+±[01]\.\d %\s+> [0-4]\.\d %\s+0\.0 % of runs\s+yes$/, row);
    assert.match(lines.at(-2)!, /^no benchmark would often need confirmation/);
    assert.equal(lines.at(-1), 'no benchmark flips between two levels');
    const swinging = await cli('history', 'noise', '--history', 'history', '--testbed', 'noisy-bed', '--tolerance', '10%');
    assert.equal(swinging.status, 0, swinging.stderr);
    assert.match(swinging.stdout, /tolerance 10\.0 %/);
    const noisyLines = swinging.stdout.split('\n').slice(2).filter(Boolean);
    for (const row of noisyLines.slice(0, -2))
      assert.match(row, /±\d+\.\d %\s+> (?:[1-9]\d|\d{3,})\.\d %\s+(?:1\d|[2-9]\d|100)\.\d % of runs\s+no: the interleaved second stage decides/, row);
    assert.match(noisyLines.at(-2)!, /^often need confirmation \(.*\): sleep 0\.0\d time, sleep 0\.0\d time$/);
    // Runs that swing ±25 % from one to the next are drift, not two levels: six run medians spread over 0.8–1.3×.
    assert.equal(noisyLines.at(-1), 'no benchmark flips between two levels');
  });

  test('compare --history widens each row by the drift it learned, and says from how many runs', async () => {
    writeFileSync(join(repo, 'same.json'), scaled(1));
    for (const [testbed, status] of [
      ['quiet-bed', 'unchanged'],
      ['noisy-bed', 'inconclusive'],
    ] as const) {
      const result = await cli('compare', '--current', 'same.json', '--history', 'history', '--testbed', testbed, '--json', `${testbed}.json`);
      assert.equal(result.status, 0, result.stdout + result.stderr);
      const report = JSON.parse(readFileSync(join(repo, `${testbed}.json`), 'utf8')) as { rows: { metric: string; status: string; reason: string }[] };
      const time = report.rows.filter((r) => r.metric === 'time');
      assert.equal(time.length, 2);
      for (const row of time) {
        assert.equal(row.status, status, row.reason);
        assert.match(row.reason, /between-run drift learned from 6 runs/);
      }
    }
  });

  test('noise lists a benchmark whose processes flip between two levels, and how often', async () => {
    // Six runs of 20 processes each: 12 ms, or 15 ms for 30 % of the processes (two in the first run: no level), 1 % scatter.
    for (let i = 0; i < 6; i++) {
      const times = Array.from({ length: 20 }, (_, k) => (k % 10 < (i === 0 ? 0.5 : 3) ? 0.015 : 0.012) * (1 + 0.01 * Math.sin(7 * k + i)));
      const set = {
        schema: 'perf-gate/results@1',
        created: '2026-11-21T11:00:00Z',
        benchmarks: [{ id: 'hash/lookup', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: times } } }],
      };
      writeFileSync(join(repo, 'flip.json'), JSON.stringify(set));
      const added = await runCli(
        ['history', 'add', '--history', 'flip-history', '--testbed', 'flip-bed', 'flip.json'],
        repo,
        process.env,
        `2026-11-21T12:1${i}:00Z`,
      );
      assert.equal(added.status, 0, added.stderr);
    }
    const result = await cli('history', 'noise', '--history', 'flip-history', '--testbed', 'flip-bed');
    assert.equal(result.status, 0, result.stderr);
    assert.match(
      result.stdout,
      /\nflip between two levels \(compared level by level: a different mix of the levels is no change, a level that moves is\):\n  hash\/lookup time: flips between 12\.0\d ms and 1[45]\.\d+ ms; 30 % of processes in the slow level, in 5 of 6 runs\n$/,
      result.stdout,
    );
  });

  test('noise of a testbed the history does not hold names the ones it does (exit 2)', async () => {
    const result = await cli('history', 'noise', '--history', 'history', '--testbed', 'elsewhere');
    assert.equal(result.status, 2);
    assert.match(result.stderr, /no runs of testbed elsewhere; it holds runs of (quiet-bed, noisy-bed|noisy-bed, quiet-bed) \(give --testbed\)/);
  });
});

/**
 * history: { branch: perf-gate-data } in perf-gate.yml: the history is a
 * data branch of the remote (here a real bare repository standing in for
 * GitHub). `run --mode main` pushes each run to it; a pull request's run
 * fetches it, compares with its merge base's run and writes nothing.
 */
describe('a history on a data branch of the remote', () => {
  const root = tempDir('perf-gate-history-branch-');
  const remote = join(root, 'remote.git');
  const repo = join(root, 'work');
  const run = (cwd: string, cmd: string, ...args: string[]): string =>
    execFileSync(cmd, args, {
      cwd,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.invalid',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.invalid',
        GIT_AUTHOR_DATE: '2026-11-20T12:00:00Z',
        GIT_COMMITTER_DATE: '2026-11-20T12:00:00Z',
      },
    }).trim();
  const git = (...args: string[]): string => run(repo, 'git', '-c', 'commit.gpgsign=false', ...args);
  const branches = (): string => run(root, 'git', '--git-dir', remote, 'branch', '--list');

  before(() => {
    run(root, 'git', 'init', '-q', '--bare', '--initial-branch=main', remote);
    run(root, 'git', 'clone', '-q', remote, repo);
    writeFileSync(join(repo, '.gitignore'), '*.json\nout/\n');
    // The suite copies a prepared file, so measuring the base again would copy the same one: one stage (confirm: off).
    writeFileSync(
      join(repo, 'perf-gate.yml'),
      'version: 1\nconfirm: off\nhistory:\n  branch: perf-gate-data\nsuites:\n  - name: copy\n    run: cp "$PERF_GATE_RESULT" {output}\n    format: hyperfine\n',
    );
    writeFileSync(join(repo, 'same.json'), scaled(1));
    writeFileSync(join(repo, 'slower.json'), scaled(2));
    git('add', '-A');
    git('commit', '-q', '-m', 'main');
    git('push', '-q', 'origin', 'main');
  });

  test('mode main pushes the run to the branch; a pull request reads it and writes nothing', async () => {
    const main = await runCli(['run', '--mode', 'main', '--out', 'out/main'], repo, { ...process.env, PERF_GATE_RESULT: join(repo, 'same.json') });
    assert.equal(main.status, 0, main.stdout + main.stderr);
    assert.match(main.stdout, /baseline written to branch perf-gate-data of origin \(\S+\/\d{4}\/\d\d\/[0-9a-f]{40}-\S+\.json\.gz\)/);
    assert.match(branches(), /perf-gate-data/);
    const tip = run(root, 'git', '--git-dir', remote, 'rev-parse', 'perf-gate-data');
    // The project's own branch and working tree are untouched.
    assert.equal(git('status', '--porcelain'), '');
    assert.equal(git('branch', '--list').trim(), '* main');

    const listed = await runCli(['history', 'list'], repo, process.env);
    assert.equal(listed.status, 0, listed.stderr);
    assert.equal(listed.stdout.trim().split('\n').length, 2, listed.stdout);

    git('switch', '-q', '-c', 'feature');
    git('commit', '-q', '--allow-empty', '-m', 'feature');
    const pr = await runCli(['run', '--out', 'out/pr', '--json', 'pr.json'], repo, { ...process.env, PERF_GATE_RESULT: join(repo, 'slower.json') });
    assert.equal(pr.status, 1, pr.stdout + pr.stderr);
    assert.match(pr.stdout, /baseline: the run of [0-9a-f]{12} \(\d{4}-\d\d-\d\d, the merge base with origin\/main\) in branch perf-gate-data of origin/);
    assert.deepEqual(
      (JSON.parse(readFileSync(join(repo, 'pr.json'), 'utf8')) as JsonReport).rows.map((r) => r.status),
      ['regressed', 'regressed'],
    );
    assert.equal(run(root, 'git', '--git-dir', remote, 'rev-parse', 'perf-gate-data'), tip, 'a pull request run never writes the branch');
  });

  test('a reader the remote refuses uses the copy an earlier step fetched (refs/remotes/origin/perf-gate-data)', async () => {
    git('fetch', '-q', '--depth=1', 'origin', 'perf-gate-data:refs/remotes/origin/perf-gate-data');
    // The remote now refuses this checkout, as a private repository refuses a job whose checkout kept no token.
    git('remote', 'set-url', 'origin', join(root, 'refused.git'));
    try {
      const pr = await runCli(['run', '--out', 'out/pr2', '--json', 'pr2.json'], repo, { ...process.env, PERF_GATE_RESULT: join(repo, 'slower.json') });
      assert.equal(pr.status, 1, pr.stdout + pr.stderr);
      assert.match(pr.stdout, /baseline: the run of [0-9a-f]{12} .* in branch perf-gate-data of origin/);
      git('update-ref', '-d', 'refs/remotes/origin/perf-gate-data');
      const none = await runCli(['run', '--out', 'out/pr3'], repo, { ...process.env, PERF_GATE_RESULT: join(repo, 'slower.json') });
      assert.equal(none.status, 2, 'without the copy the refusal is an error, not a silent "no baseline"');
    } finally {
      git('remote', 'set-url', 'origin', remote);
    }
  });

  test('mode main with a remote that does not answer fails before measuring (exit 2)', async () => {
    writeFileSync(
      join(repo, 'perf-gate.yml'),
      'version: 1\nhistory:\n  branch: perf-gate-data\n  remote: nowhere\nsuites:\n  - name: copy\n    run: cp "$PERF_GATE_RESULT" {output}\n    format: hyperfine\n',
    );
    const result = await runCli(['run', '--mode', 'main', '--out', 'out/bad'], repo, { ...process.env, PERF_GATE_RESULT: join(repo, 'same.json') });
    assert.equal(result.status, 2, result.stdout + result.stderr);
    assert.match(result.stderr, /the data branch perf-gate-data cannot be written: the remote "nowhere" of .* does not answer/);
    assert.doesNotMatch(result.stdout, /copy/, 'nothing was measured');
  });

  test('a history: naming both a folder and a branch is unusable input naming the line', async () => {
    writeFileSync(
      join(repo, 'perf-gate.yml'),
      'version: 1\nhistory:\n  branch: perf-gate-data\n  folder: h\nsuites:\n  - name: copy\n    run: "true"\n    format: hyperfine\n',
    );
    const result = await runCli(['run', '--out', 'out/bad'], repo, process.env);
    assert.equal(result.status, 2, result.stdout + result.stderr);
    assert.match(result.stderr, /perf-gate\.yml:\d+.*history/);
  });
});

describe('perf-gate history import (github-action-benchmark data.js)', () => {
  const dir = tempDir('perf-gate-history-import-');
  const fixture = new URL('../fixtures/github-action-benchmark/data.js', import.meta.url).pathname;
  const cli = (...argv: string[]) => runCli(argv, dir, process.env);

  test('imports every run under its commit, once however often it is run', async () => {
    const first = await cli('history', 'import', '--history', 'h', '--testbed', 'gab-runner', '--suite', 'rust', fixture);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /imported 3 run\(s\) of 4 benchmark\(s\) from github-action-benchmark's history on testbed gab-runner into /);
    const again = await cli('history', 'import', '--history', 'h', '--testbed', 'gab-runner', '--suite', 'rust', fixture);
    assert.equal(again.status, 0, again.stderr);
    const list = await cli('history', 'list', '--history', 'h');
    const lines = list.stdout.trim().split('\n').slice(1);
    assert.equal(lines.length, 3, list.stdout);
    assert.deepEqual(
      lines.map((l) => l.split(/\s+/)[2]),
      ['111111111111', '222222222222', '222222222222'],
    );
    const shown = await cli('history', 'show', '--history', 'h', lines[0]!.split(/\s+/)[3]!);
    const set = JSON.parse(shown.stdout) as { benchmarks: { id: string; metrics: Record<string, { value: number }> }[] };
    assert.deepEqual(
      set.benchmarks.map((b) => b.id),
      ['rust/bench_parse', 'rust/bench_render'],
    );
    assert.equal(set.benchmarks[0]!.metrics['time']!.value, 254e-9);
  });

  test('no testbed, or a file that is not its history, is exit 2 naming what is wrong', async () => {
    const noTestbed = await cli('history', 'import', '--history', 'h', fixture);
    assert.equal(noTestbed.status, 2);
    assert.match(noTestbed.stderr, /needs --testbed ID/);
    writeFileSync(join(dir, 'other.json'), '{"lastUpdate": 1}\n');
    const other = await cli('history', 'import', '--history', 'h', '--testbed', 'x', 'other.json');
    assert.equal(other.status, 2);
    assert.match(other.stderr, /other\.json.*"entries"/);
    writeFileSync(join(dir, 'empty-export.json'), '{"project": {"slug": "p"}, "results": []}\n');
    const empty = await cli('history', 'import', '--history', 'h', '--testbed', 'x', 'empty-export.json');
    assert.equal(empty.status, 2);
    assert.match(empty.stderr, /empty-export\.json.*holds no run to import; expected Bencher's perf export/);
  });
});

describe("perf-gate history import (Bencher's perf export)", () => {
  const dir = tempDir('perf-gate-history-bencher-');
  const fixture = new URL('../fixtures/bencher-perf/perf-export.json', import.meta.url).pathname;
  const cli = (...argv: string[]) => runCli(argv, dir, process.env);

  test("imports the chosen testbed's reports, says what it left out, and adds nothing the second time", async () => {
    const mixed = await cli('history', 'import', '--history', 'h', '--testbed', 'ci', fixture);
    assert.equal(mixed.status, 2, mixed.stdout);
    assert.match(mixed.stderr, /perf-export\.json:\d+.*2 testbeds \(ci-runner, laptop\)/);
    const first = await cli('history', 'import', '--history', 'h', '--testbed', 'ci', '--bencher-testbed', 'ci-runner', fixture);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /imported 2 run\(s\) of 2 benchmark\(s\) from Bencher's perf export on testbed ci into /);
    assert.match(first.stdout, /not imported: measure cpu-temp: its direction is not in the export/);
    assert.match(first.stdout, /not imported: 1 point\(s\) without a git hash/);
    const again = await cli('history', 'import', '--history', 'h', '--testbed', 'ci', '--bencher-testbed', 'ci-runner', fixture);
    assert.equal(again.status, 0, again.stderr);
    const list = await cli('history', 'list', '--history', 'h');
    const lines = list.stdout.trim().split('\n').slice(1);
    assert.deepEqual(
      lines.map((l) => l.split(/\s+/)[2]),
      ['111111111111', '222222222222'],
    );
    const shown = await cli('history', 'show', '--history', 'h', '2222');
    const set = JSON.parse(shown.stdout) as { benchmarks: { id: string; metrics: Record<string, { samples?: number[] }> }[] };
    assert.deepEqual(
      set.benchmarks[0]!.metrics['time']!.samples!.map((v) => Math.round(v * 1e9)),
      [262, 258],
    );
  });
});
