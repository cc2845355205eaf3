import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

requireTool('git');
requireTool('cc');

const FIXTURE = JSON.parse(readFileSync(new URL('../fixtures/hyperfine/two-commands.json', import.meta.url), 'utf8')) as { results: Record<string, unknown>[] };
/** A real Cargo.lock (the criterion example's) and the project's own package-lock.json. */
const CARGO_LOCK = readFileSync(new URL('../../../examples/rust-criterion/Cargo.lock', import.meta.url), 'utf8');
const PACKAGE_LOCK = readFileSync(new URL('../../../package-lock.json', import.meta.url), 'utf8');

/** The fixture with every time multiplied by `factor`. */
function scaled(factor: number): string {
  const scale = (v: unknown): unknown => (typeof v === 'number' ? v * factor : Array.isArray(v) ? v.map(scale) : v);
  const results = FIXTURE.results.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'exit_codes' ? v : scale(v)])));
  return `${JSON.stringify({ results }, null, 2)}\n`;
}

function config(cflags: string): string {
  // The build calls cc, so the run records its version; the suite's CFLAGS is a build flag of the environment.
  return `version: 1\nconfirm: off\nhistory: history\nsuites:\n  - name: c\n    build: cc --version > /dev/null\n    run: cp "$PERF_GATE_RESULT" {output}\n    format: hyperfine\n    env:\n      CFLAGS: "${cflags}"\n`;
}

interface Report {
  environment?: {
    changes: {
      kind: string;
      path?: string;
      name?: string;
      before: string | null;
      after: string | null;
      packages?: { name: string; before: string; after: string }[];
    }[];
    text: string;
  };
  rows: { benchmark: string; status: string; flags: string[] }[];
}

/**
 * A real repository whose commit bumps serde in Cargo.lock, yaml in
 * package-lock.json and the suite's CFLAGS: main records runs before and
 * after it; the pull request's report names what changed, and
 * `history changes` marks the step.
 */
describe('the environment of a run: lockfiles, build flags and toolchains, beside the verdict', () => {
  const repo = tempDir('perf-gate-environment-');
  const git = (...args: string[]): string =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_DATE: '2026-11-20T12:00:00Z', GIT_COMMITTER_DATE: '2026-11-20T12:00:00Z' },
    }).trim();
  const env = (file: string) => ({ ...process.env, PERF_GATE_RESULT: join(repo, file) });
  let run = 0;
  const recordOnMain = async (file: string) => {
    const at = `2026-11-21T12:${String(run++).padStart(2, '0')}:00Z`;
    const main = await runCli(['run', '--mode', 'main', '--out', 'out/main'], repo, env(file), at);
    // Main gates against its previous run too: the slower runs after the change fail it (1), and are recorded all the same.
    assert.ok(main.status === 0 || main.status === 1, main.stdout + main.stderr);
    assert.match(main.stdout, /baseline written to /);
  };
  const commit = (message: string) => {
    git('add', '-A');
    git('commit', '-q', '--allow-empty', '-m', message);
    return git('rev-parse', 'HEAD');
  };
  let lastBefore = '';

  before(async () => {
    git('init', '-q', '--initial-branch=main');
    writeFileSync(join(repo, '.gitignore'), 'history/\nout/\nsame.json\nslower.json\n*.report.json\nchanges.json\n');
    writeFileSync(join(repo, 'same.json'), scaled(1));
    writeFileSync(join(repo, 'slower.json'), scaled(1.3));
    writeFileSync(join(repo, 'perf-gate.yml'), config('-O2'));
    writeFileSync(join(repo, 'Cargo.lock'), CARGO_LOCK);
    writeFileSync(join(repo, 'package-lock.json'), PACKAGE_LOCK);
    for (let i = 0; i < 6; i++) {
      lastBefore = commit(`before ${i}`);
      await recordOnMain('same.json');
    }
    // The change: serde and yaml bumped, the suite built with -O0.
    writeFileSync(join(repo, 'Cargo.lock'), CARGO_LOCK.replace('name = "serde"\nversion = "1.0.229"', 'name = "serde"\nversion = "1.0.230"'));
    writeFileSync(join(repo, 'package-lock.json'), PACKAGE_LOCK.replace(/("node_modules\/yaml": \{\n\s*"version": ")2\.9\.1"/, '$12.9.2"'));
    writeFileSync(join(repo, 'perf-gate.yml'), config('-O0'));
    commit('bump serde and yaml, build with -O0');
  });

  test('the pull request names the changed packages and flags above the table, and flags the regressed rows', async () => {
    const pr = await runCli(
      ['run', '--base', lastBefore, '--out', 'out/pr', '--json', 'pr.report.json', '--markdown', 'pr.report.md'],
      repo,
      env('slower.json'),
    );
    assert.equal(pr.status, 1, pr.stdout + pr.stderr);
    const report = JSON.parse(readFileSync(join(repo, 'pr.report.json'), 'utf8')) as Report;
    const changes = report.environment!.changes;
    assert.deepEqual(changes, [
      { kind: 'flag', name: 'c:CFLAGS', before: '-O2', after: '-O0' },
      {
        kind: 'lockfile',
        path: 'Cargo.lock',
        before: changes[1]!.before,
        after: changes[1]!.after,
        packages: [{ name: 'serde', before: '1.0.229', after: '1.0.230' }],
      },
      {
        kind: 'lockfile',
        path: 'package-lock.json',
        before: changes[2]!.before,
        after: changes[2]!.after,
        packages: [{ name: 'yaml', before: '2.9.1', after: '2.9.2' }],
      },
    ]);
    const sentence =
      'Environment changed since the baseline: c:CFLAGS "-O2" → "-O0"; Cargo.lock changed (1 package: serde 1.0.229 → 1.0.230); package-lock.json changed (1 package: yaml 2.9.1 → 2.9.2).';
    assert.equal(report.environment!.text, sentence);
    assert.ok(pr.stdout.includes(sentence), pr.stdout);
    // Above the table: before its header line.
    assert.ok(pr.stdout.indexOf(sentence) < pr.stdout.indexOf('Benchmark '), pr.stdout);
    const markdown = readFileSync(join(repo, 'pr.report.md'), 'utf8');
    assert.match(
      markdown,
      /🔧 \*\*Environment changed since the baseline: c:CFLAGS "-O2" → "-O0"; Cargo\.lock changed \(1 package: serde 1\.0\.229 → 1\.0\.230\)/,
    );
    assert.ok(markdown.indexOf('🔧') < markdown.indexOf('| Benchmark'), markdown);
    assert.ok(
      report.rows.length > 0 && report.rows.every((r) => r.status === 'regressed' && r.flags.includes('environment-changed')),
      JSON.stringify(report.rows),
    );
    assert.match(markdown, /environment-changed/);
  });

  test('every run records the toolchain its suites call, and history changes marks the step that came with the change', async () => {
    for (let i = 0; i < 6; i++) {
      if (i > 0) commit(`after ${i}`);
      await recordOnMain('slower.json');
    }
    // The last run as recorded: the compiler its build called, the flags, and a hash per lockfile.
    const recorded = JSON.parse(readFileSync(join(repo, 'out/main/results.json'), 'utf8')) as { environment: Record<string, Record<string, string>> };
    const cc = execFileSync('cc', ['--version'], { encoding: 'utf8' }).split('\n')[0];
    assert.deepEqual(recorded.environment.toolchains, { cc });
    assert.deepEqual(recorded.environment.flags, { 'c:CFLAGS': '-O0' });
    assert.deepEqual(Object.keys(recorded.environment.lockfiles!), ['Cargo.lock', 'package-lock.json']);
    const changes = await runCli(['history', 'changes', '--json', 'changes.json'], repo, process.env);
    assert.equal(changes.status, 0, changes.stdout + changes.stderr);
    const report = JSON.parse(readFileSync(join(repo, 'changes.json'), 'utf8')) as {
      changes: { benchmark: string; regression: boolean; environment?: NonNullable<Report['environment']>['changes'] }[];
    };
    assert.ok(report.changes.length > 0, changes.stdout);
    for (const change of report.changes) {
      assert.equal(change.regression, true);
      assert.deepEqual(
        change.environment?.map((c) => c.path ?? c.name),
        ['c:CFLAGS', 'Cargo.lock', 'package-lock.json'],
      );
    }
    assert.match(changes.stdout, /slower; environment changed: c:CFLAGS "-O2" → "-O0"; Cargo\.lock changed; package-lock\.json changed/);
  });
});

describe('hardening 3.11: a baseline whose commit is an option never reaches git as one', () => {
  test('commit "--output=pwned" with a changed lockfile: no file is written, and the lockfile is still named', async () => {
    const repo = tempDir('perf-gate-env-inject-');
    execFileSync('git', ['-C', repo, 'init', '-q', '--initial-branch=main']);
    writeFileSync(join(repo, 'ok.json'), scaled(1));
    writeFileSync(join(repo, 'Cargo.lock'), CARGO_LOCK);
    writeFileSync(join(repo, 'perf-gate.yml'), 'version: 1\nconfirm: off\nsuites:\n  - name: c\n    run: cp ok.json {output}\n    format: hyperfine\n');
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'add', '-A']);
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'x']);
    const first = await runCli(['run', '--out', 'out/1'], repo, process.env);
    assert.equal(first.status, 0, first.stdout + first.stderr);
    const base = JSON.parse(readFileSync(join(repo, 'out/1/results.json'), 'utf8')) as { commit?: string; environment: { lockfiles: Record<string, string> } };
    base.commit = '--output=pwned';
    base.environment.lockfiles['Cargo.lock'] = '0000000000000000';
    writeFileSync(join(repo, 'base.json'), JSON.stringify(base));
    // git would write "--output=pwned:./Cargo.lock" into the folder "pwned:." when it exists.
    mkdirSync(join(repo, 'pwned:.'));
    const second = await runCli(['run', '--baseline', 'base.json', '--out', 'out/2', '--json', 'report.json'], repo, process.env);
    assert.ok(second.status === 0 || second.status === 1, second.stdout + second.stderr);
    assert.equal(existsSync(join(repo, 'pwned:.', 'Cargo.lock')), false, 'git show wrote no file');
    const report = JSON.parse(readFileSync(join(repo, 'report.json'), 'utf8')) as Report;
    assert.ok(report.environment?.changes.some((c) => c.kind === 'lockfile' && c.path === 'Cargo.lock'));
  });
});
