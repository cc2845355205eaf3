/**
 * The whole action on a real project: a temporary git repository with a small
 * program, timed by real hyperfine through perf-gate.yml. main records the
 * baseline; a pull request makes the program slower (one sticky comment shows
 * the regression, the check run fails, the step fails); a fix updates the same
 * comment to "resolved" and passes.
 */
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github/server.js';
import { bundleAction } from '../support/action-runner/bundle.js';
import { pullRequestEvent, runAction, type Scenario } from '../support/action-runner/scenario.js';
import { requireTool } from '../support/tools.js';
import { isUndecided, measureUntilDecided } from '../support/undecided.js';

let gh: FakeGitHub;
let actionPath: string;
let repo: string;
let root: string;

function git(...args: string[]): string {
  return execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' },
  }).trim();
}

function commitProgram(delay: string, message: string): string {
  writeFileSync(join(repo, 'prog.sh'), `#!/usr/bin/env bash\n# stands in for the project's program\nsleep ${delay}\n`);
  git('add', '-A');
  git('commit', '-q', '-m', message);
  return git('rev-parse', 'HEAD');
}

before(async () => {
  requireTool('hyperfine');
  root = mkdtempSync(join(tmpdir(), 'perf-gate-e2e-'));
  actionPath = await bundleAction(join(root, 'action'));
  repo = join(root, 'repo');
  mkdirSync(join(repo, 'budgets'), { recursive: true });
  git('init', '-q', '-b', 'main');
  writeFileSync(
    join(repo, 'perf-gate.yml'),
    [
      'version: 1',
      'budgets: budgets/',
      'baselines: baselines/',
      'suites:',
      '  - name: speed',
      '    build: env > suite-env.txt',
      "    run: hyperfine --warmup 1 --runs 5 --export-json {output} 'bash prog.sh'",
      '    format: hyperfine',
      '    timeout: 2m',
      // The pull request's suspects are measured again interleaved: few rounds, as the slow head is 10x slower.
      'ab: { rounds: 8, max-rounds: 8, confirm-rounds: 8 }',
      '',
    ].join('\n'),
  );
  // Generous tolerances: the slow head is 10x slower; the fix must pass despite a busy machine.
  // The absolute budget (the fast program takes about 25 ms) makes the slow head fail even if the load of the moment blurs the comparison.
  writeFileSync(
    join(repo, 'budgets', 'speed.yml'),
    ['version: 1', 'defaults:', '  regression: 30%', '  noise: 5%', 'benchmarks:', '  "speed/*":', '    time: { max: 150ms, stat: median }', ''].join('\n'),
  );
  gh = await startFakeGitHub();
  gh.tokens.set('ghs-token', null);
});
after(async () => {
  await gh?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});
afterEach(() => assert.deepEqual(gh.violations, []));

function scenario(eventName: string, event: Record<string, unknown>, sha: string): Scenario {
  return {
    workspace: repo,
    runnerTemp: join(repo, '..', `temp-${sha.slice(0, 8)}`),
    apiUrl: gh.url,
    token: 'ghs-token',
    repository: 'acme/prog',
    eventName,
    event,
    sha,
    ref: eventName === 'push' ? 'refs/heads/main' : 'refs/pull/41/merge',
  };
}

test('main records the baseline, a slower pull request fails with one comment, the fix resolves it', async () => {
  const base = commitProgram('0.02', 'fast program');
  const main = await runAction(actionPath, scenario('push', { ref: 'refs/heads/main' }, base), { mode: 'main' });
  assert.equal(main.outcome, 'success', main.steps[0]?.stderr + main.stdout.slice(-3000));
  const baselineFile = main.outputs['baseline-file']!;
  assert.ok(existsSync(baselineFile), `baseline written: ${baselineFile}`);
  assert.ok(existsSync(join(repo, 'suite-env.txt')));
  const suiteEnv = readFileSync(join(repo, 'suite-env.txt'), 'utf8');
  assert.match(suiteEnv, /GITHUB_REPOSITORY=acme\/prog/, 'the suites see the runner environment');
  assert.equal(suiteEnv.includes('ghs-token'), false, 'but never the token');
  assert.equal(/^INPUT_/m.test(suiteEnv), false, 'nor the action inputs');
  git('add', 'baselines');
  git('commit', '-q', '-m', 'record the baseline');

  const slow = commitProgram('0.2', 'slower program');
  const pr = await runAction(actionPath, scenario('pull_request', pullRequestEvent(41, slow, 'acme/prog', 'acme/prog'), 'f0'.repeat(20)), {});
  const prReport = pr.outputs['report-markdown'] ? readFileSync(pr.outputs['report-markdown'], 'utf8') : pr.stdout.slice(-3000);
  assert.equal(pr.outcome, 'failure', `the step fails; the report said:\n${prReport}`);
  assert.equal(pr.steps[0]?.exitCode, 1);
  assert.equal(pr.outputs['verdict'], 'fail');
  assert.equal(pr.outputs['regressed'], '1', prReport);
  assert.equal(pr.outputs['budget-failed'], '1', prReport);
  let comments = gh.comments.filter((c) => c.issue === 41);
  assert.equal(comments.length, 1);
  assert.match(comments[0]!.body, /speed\/bash prog\.sh/);
  assert.match(comments[0]!.body, /❌/);
  assert.match(comments[0]!.body, /regress/i);
  // Both stages are in the comment: the screen against the stored baseline, and the interleaved rounds that decided.
  assert.match(comments[0]!.body, /Screen: 1 row against the stored baseline; 1 suspect/);
  assert.match(comments[0]!.body, new RegExp(`Confirmation: interleaved against ${base.slice(0, 7)}: speed \\(8 rounds`));
  assert.match(comments[0]!.body, /decided by 8 interleaved rounds \(screen: \+\d/);
  let run = gh.checkRuns.at(-1)!;
  assert.equal(run.head_sha, slow);
  assert.equal(run.conclusion, 'failure');
  assert.ok(run.output.annotations.some((a) => a['annotation_level'] === 'failure'));
  const commentId = comments[0]!.id;

  const fixed = commitProgram('0.02', 'fix the slowdown');
  const again = await runAction(actionPath, scenario('pull_request', pullRequestEvent(41, fixed, 'acme/prog', 'acme/prog'), 'f1'.repeat(20)), {});
  const fixReport = again.outputs['report-markdown'] ? readFileSync(again.outputs['report-markdown'], 'utf8') : again.stdout.slice(-3000);
  assert.equal(again.outputs['verdict'], 'pass', fixReport);
  assert.equal(again.outcome, 'success');
  comments = gh.comments.filter((c) => c.issue === 41);
  assert.equal(comments.length, 1, 'still exactly one comment');
  assert.equal(comments[0]!.id, commentId, 'the same comment, updated in place');
  assert.match(comments[0]!.body, /resolved/i);
  assert.match(comments[0]!.body, /verdict=pass/);
  run = gh.checkRuns.at(-1)!;
  assert.equal(run.head_sha, fixed);
  assert.equal(run.conclusion, 'success');
  assert.match(again.summary, /speed\/bash prog\.sh/);
});

test('with ab, a pull request is measured interleaved against a base commit: the regression is paired and confirmed', async () => {
  writeFileSync(
    join(repo, 'perf-gate-ab.yml'),
    [
      'version: 1',
      'budgets: budgets/',
      'ab: { rounds: 8, max-rounds: 10, step: 2, confirm: true, confirm-rounds: 8 }',
      'suites:',
      '  - name: speed',
      "    run: hyperfine --runs 1 --export-json {output} 'bash prog.sh'",
      '    format: hyperfine',
      '    timeout: 2m',
      '',
    ].join('\n'),
  );
  const base = commitProgram('0.02', 'fast program, the pull request base');
  const slow = commitProgram('0.2', 'slower program again');
  type Report = { rows: { benchmark: string; metric: string; status: string; flags: string[]; baseline: { n: number } | null }[] };
  // Measured again (at most three times in all) while the gate cannot decide; the comment is updated, never doubled.
  const { result, report } = await measureUntilDecided(
    async () => {
      const result = await runAction(actionPath, scenario('pull_request', pullRequestEvent(42, slow, 'acme/prog', 'acme/prog'), 'f2'.repeat(20)), {
        config: 'perf-gate-ab.yml',
        ab: base,
        preflight: 'off',
      });
      const report = result.outputs['report-json'] ? (JSON.parse(readFileSync(result.outputs['report-json'], 'utf8')) as Report) : null;
      return { result, report };
    },
    ({ report }) => isUndecided(report?.rows.find((r) => r.benchmark === 'speed/bash prog.sh' && r.metric === 'time')),
  );
  assert.ok(report, result.stdout.slice(-3000));
  assert.equal(result.outputs['verdict'], 'fail', JSON.stringify(report.rows));
  const row = report.rows.find((r) => r.benchmark === 'speed/bash prog.sh' && r.metric === 'time')!;
  assert.equal(row.status, 'regressed', JSON.stringify(row));
  assert.ok(row.flags.includes('paired'), `paired analysis: ${row.flags.join(',')}`);
  assert.ok(row.flags.includes('confirmed'), `confirmed by fresh rounds: ${row.flags.join(',')}`);
  assert.ok(row.baseline && row.baseline.n >= 8, 'the baseline was measured in this run, round by round');
  assert.equal(gh.comments.filter((c) => c.issue === 42).length, 1);
  assert.equal(git('worktree', 'list').split('\n').length, 1, 'the base worktree is removed');
});

/**
 * The same on a run history kept on a data branch of the remote (a real bare
 * repository): main's runs are pushed there; a pull request's screen reads
 * its merge base's run from it, and its suspect is built at that commit and
 * measured again interleaved before the gate fails.
 */
test('with a history on a data branch, a slower pull request is screened, confirmed interleaved, and the comment shows both stages', async () => {
  const remote = join(root, 'history-remote.git');
  const ws = join(root, 'history-ws');
  const run = (cwd: string, ...args: string[]): string =>
    execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' },
    }).trim();
  run(root, 'init', '-q', '--bare', '--initial-branch=main', remote);
  run(root, 'clone', '-q', remote, ws);
  writeFileSync(
    join(ws, 'perf-gate.yml'),
    [
      'version: 1',
      'history:',
      '  branch: perf-gate-data',
      'ab: { rounds: 8, max-rounds: 8, confirm-rounds: 8 }',
      'suites:',
      '  - name: speed',
      "    run: hyperfine --runs 5 --export-json {output} 'bash prog.sh'",
      '    format: hyperfine',
      '',
    ].join('\n'),
  );
  const program = (delay: string): void => writeFileSync(join(ws, 'prog.sh'), `#!/usr/bin/env bash\nsleep ${delay}\n`);
  program('0.005');
  run(ws, 'add', '-A');
  run(ws, 'commit', '-q', '-m', 'fast program');
  run(ws, 'push', '-q', 'origin', 'main');
  const base = run(ws, 'rev-parse', 'HEAD');
  const at = (eventName: string, event: Record<string, unknown>, sha: string): Scenario => ({
    ...scenario(eventName, event, sha),
    workspace: ws,
    runnerTemp: join(root, `history-temp-${eventName}-${sha.slice(0, 8)}`),
    ref: eventName === 'push' ? 'refs/heads/main' : 'refs/pull/43/merge',
  });
  const main = await runAction(actionPath, at('push', { ref: 'refs/heads/main' }, base), { mode: 'main', preflight: 'off' });
  assert.equal(main.outcome, 'success', main.stdout.slice(-3000));
  assert.match(main.outputs['baseline-file'] ?? '', /^branch perf-gate-data of origin/);

  run(ws, 'switch', '-q', '-c', 'slower');
  program('0.05');
  run(ws, 'commit', '-q', '-am', 'slower program');
  const slow = run(ws, 'rev-parse', 'HEAD');
  const event = { ...pullRequestEvent(43, slow, 'acme/prog', 'acme/prog') };
  (event['pull_request'] as { base: { sha: string } }).base.sha = base;
  const pr = await runAction(actionPath, at('pull_request', event, slow), { preflight: 'off' });
  const report = JSON.parse(readFileSync(pr.outputs['report-json']!, 'utf8')) as {
    stages: { confirm: { base: string; suites: { suite: string; rounds: number }[] } };
    rows: { status: string; stage?: { by: string } }[];
  };
  assert.equal(pr.outcome, 'failure', pr.stdout.slice(-3000));
  assert.equal(report.rows[0]!.status, 'regressed', JSON.stringify(report.rows[0]));
  assert.equal(report.rows[0]!.stage?.by, 'interleaved');
  assert.equal(report.stages.confirm.base, base);
  assert.deepEqual(
    report.stages.confirm.suites.map((s) => [s.suite, s.rounds]),
    [['speed', 8]],
  );
  const comment = gh.comments.filter((c) => c.issue === 43);
  assert.equal(comment.length, 1);
  assert.match(comment[0]!.body, /Screen: 1 row against the stored baseline; 1 suspect/);
  assert.match(comment[0]!.body, new RegExp(`Confirmation: interleaved against ${base.slice(0, 7)}: speed \\(8 rounds`));
  assert.equal(run(ws, 'worktree', 'list').split('\n').length, 1, 'the base worktree is removed');
});

test('a confirmed regression in a suite with profile: the comment shows the functions that grew, escaped, and links the flame graph', async () => {
  requireTool('g++', 'valgrind', 'inferno-flamegraph');
  const ws = join(root, 'profile-ws');
  mkdirSync(ws, { recursive: true });
  const run = (...args: string[]): string =>
    execFileSync('git', args, {
      cwd: ws,
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' },
    }).trim();
  run('init', '-q', '-b', 'main');
  writeFileSync(
    join(ws, 'perf-gate.yml'),
    [
      'version: 1',
      'history: history',
      'ab: { rounds: 8, max-rounds: 8, confirm-rounds: 8 }',
      'suites:',
      '  - name: speed',
      '    build: g++ -O2 -g -o prog prog.cc',
      '    commands:',
      '      churn: ./prog 20000000',
      '    runs: 5',
      '    profile: callgrind',
      '',
    ].join('\n'),
  );
  writeFileSync(join(ws, '.gitignore'), 'prog\nhistory/\n');
  // A template: its name under callgrind, "long churn<long>(long, long)", is the kind of text a comment must escape.
  const program = (factor: number): void =>
    writeFileSync(
      join(ws, 'prog.cc'),
      `#include <cstdio>\n#include <cstdlib>\ntemplate <typename T> __attribute__((noinline)) T churn(T x, long n) {\n  for (long i = 0; i < n; i++) x = x * 31 + 7;\n  return x;\n}\n__attribute__((noinline)) long steady(long x, long n) {\n  for (long i = 0; i < n; i++) x = x * 17 + 3;\n  return x;\n}\nint main(int argc, char **argv) {\n  long n = argc > 1 ? atol(argv[1]) : 1000000;\n  std::printf("%ld\\n", churn<long>(1, n * ${factor}) + steady(1, n));\n}\n`,
    );
  program(1);
  run('add', '-A');
  run('commit', '-q', '-m', 'fast program');
  const base = run('rev-parse', 'HEAD');
  const at = (eventName: string, event: Record<string, unknown>, sha: string): Scenario => ({
    ...scenario(eventName, event, sha),
    workspace: ws,
    runnerTemp: join(root, `profile-temp-${eventName}-${sha.slice(0, 8)}`),
    ref: eventName === 'push' ? 'refs/heads/main' : 'refs/pull/44/merge',
  });
  const main = await runAction(actionPath, at('push', { ref: 'refs/heads/main' }, base), { mode: 'main', preflight: 'off' });
  assert.equal(main.outcome, 'success', main.stdout.slice(-3000));

  run('switch', '-q', '-c', 'slower');
  program(3);
  run('commit', '-q', '-am', 'three times the work');
  const slow = run('rev-parse', 'HEAD');
  const event = { ...pullRequestEvent(44, slow, 'acme/prog', 'acme/prog') };
  (event['pull_request'] as { base: { sha: string } }).base.sha = base;
  const pr = await runAction(actionPath, at('pull_request', event, slow), { preflight: 'off' });
  assert.equal(pr.outcome, 'failure', pr.stdout.slice(-3000));
  const report = JSON.parse(readFileSync(pr.outputs['report-json']!, 'utf8')) as {
    rows: { status: string; stage?: { by: string } }[];
    profiles: { profiles: { top: { function: string }[]; files: { flameGraph: string } }[]; artifactUrl: string };
  };
  assert.equal(report.rows[0]!.stage?.by, 'interleaved', JSON.stringify(report.rows[0]));
  const profile = report.profiles.profiles[0]!;
  assert.equal(profile.top[0]!.function, 'long churn<long>(long, long)');
  assert.equal(report.profiles.artifactUrl, 'https://github.example.com/acme/prog/actions/runs/4242#artifacts');
  const outDir = join(root, `profile-temp-pull_request-${slow.slice(0, 8)}`, 'perf-gate');
  assert.ok(existsSync(join(outDir, profile.files.flameGraph)), `${profile.files.flameGraph} in ${outDir}`);
  const comment = gh.comments.filter((c) => c.issue === 44);
  assert.equal(comment.length, 1);
  const body = comment[0]!.body;
  assert.match(body, /\*\*Why it got slower\*\*/);
  assert.match(
    body,
    /flame graph `runs\/profile\/speed_churn\/diff\.svg`; folded stacks .* in \[the run's artifacts\]\(https:\/\/github\.example\.com\/acme\/prog\/actions\/runs\/4242#artifacts\)\./,
  );
  // churn does half of the work before, three quarters after: its share gains about 25 points.
  assert.match(body, /\n\| long churn&lt;long&gt;\(long, long\) \| [\d.]+ M \([\d.]+ %\) \| [\d.]+ M \([\d.]+ %\) \| \+\d+\.\d points \|\n/);
  assert.ok(!body.includes('churn<long>'), 'the template brackets never reach the comment raw');
  // The job summary carries the same section.
  assert.match(pr.summary, /\*\*Why it got slower\*\*/);
});
