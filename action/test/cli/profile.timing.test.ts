import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonReport } from '../../src/report/json.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';

/**
 * The differential profile end to end, on real git, cc, hyperfine, valgrind
 * and inferno: main records a history of the profiling example; a pull
 * request plants a slowdown in one function; the second stage confirms the
 * regression, and the profile of both sides names the function.
 */
requireTool('hyperfine', 'git', 'cc', 'valgrind', 'inferno-flamegraph', 'patch');

const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };
const DATED = { ...process.env, GIT_AUTHOR_DATE: '2026-11-20T12:00:00Z', GIT_COMMITTER_DATE: '2026-11-20T12:00:00Z' };
const EXAMPLE = new URL('../../../examples/c-profile/', import.meta.url).pathname;
const SOURCE = readFileSync(join(EXAMPLE, 'words.c'), 'utf8');
/** slower-head.patch applied: hash_word's loop ten times, the same hash. */
const SLOW = execFileSync('patch', ['-s', '-o', '-', join(EXAMPLE, 'words.c'), join(EXAMPLE, 'slower-head.patch')], { encoding: 'utf8' });

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: DATED }).trim();
}

const CONFIG = `version: 1
history: history
profile-time-cap: 2m
suites:
  - name: words
    build: cc -O2 -g -fno-omit-frame-pointer -o words words.c
    commands:
      count: ./words 400000
    runs: 10
    timeout: 2m
    profile: callgrind
`;

describe('a confirmed regression comes with its differential profile', () => {
  // Not /tmp/perf-…: perf takes files under that prefix for JIT symbol maps.
  const repo = tempDir('pg-profile-e2e-');

  before(async () => {
    git(repo, 'init', '--quiet', '--initial-branch=main');
    git(repo, 'config', 'user.email', 'test@example.invalid');
    git(repo, 'config', 'user.name', 'perf-gate test');
    writeFileSync(join(repo, 'perf-gate.yml'), CONFIG);
    writeFileSync(join(repo, 'words.c'), SOURCE);
    writeFileSync(join(repo, '.gitignore'), 'words\nhistory/\nout/\n*.json\n*.md\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '--quiet', '-m', 'main');
    for (let i = 0; i < 6; i++) {
      const r = await runCli(['run', '--mode', 'main', '--out', 'out'], repo, ENV);
      assert.match(r.stdout, /baseline written to/, r.stdout + r.stderr);
    }
  });

  test('an unchanged pull request is profiled not at all', async () => {
    git(repo, 'checkout', '--quiet', '-B', 'docs', 'main');
    writeFileSync(join(repo, 'README'), 'docs\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '--quiet', '-m', 'docs');
    const r = await runCli(['run', '--json', 'same.json', '--out', 'out-same'], repo, ENV);
    const report = JSON.parse(readFileSync(join(repo, 'same.json'), 'utf8')) as JsonReport;
    if (report.rows.some((row) => row.status === 'regressed')) return assert.fail(`an unchanged program regressed: ${r.stdout}`);
    assert.equal(report.profiles, undefined);
    assert.equal(existsSync(join(repo, 'out-same', 'profile')), false);
  });

  test('a slowdown planted in hash_word: confirmed, profiled on both sides, hash_word on the top row, the flame graph written', async () => {
    git(repo, 'checkout', '--quiet', '-B', 'slower', 'main');
    writeFileSync(join(repo, 'words.c'), SLOW);
    git(repo, 'commit', '--quiet', '-am', 'hash every word ten times');
    const r = await runCli(['run', '--json', 'slow.json', '--markdown', 'slow.md', '--out', 'out-slow'], repo, ENV);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const report = JSON.parse(readFileSync(join(repo, 'slow.json'), 'utf8')) as JsonReport;
    const row = report.rows.find((x) => x.benchmark === 'words/count' && x.metric === 'time')!;
    assert.equal(row.status, 'regressed', JSON.stringify(row));
    assert.equal(row.stage?.by, 'interleaved');
    const section = report.profiles!;
    assert.deepEqual(section.warnings, []);
    assert.equal(section.profiles.length, 1);
    const profile = section.profiles[0]!;
    assert.equal(profile.benchmark, 'words/count');
    assert.equal(profile.profiler, 'callgrind');
    assert.equal(profile.top[0]?.function, 'hash_word', JSON.stringify(profile.top));
    assert.ok(profile.totals.after > profile.totals.before);
    assert.ok(section.seconds > 0 && section.seconds <= section.cap, `${section.seconds}`);
    assert.deepEqual(profile.files, {
      flameGraph: 'profile/words_count/diff.svg',
      base: 'profile/words_count/base.folded',
      head: 'profile/words_count/head.folded',
    });
    for (const file of Object.values(profile.files)) assert.ok(existsSync(join(repo, 'out-slow', file!)), file!);
    assert.match(readFileSync(join(repo, 'out-slow', profile.files.flameGraph!), 'utf8'), /hash_word/);
    assert.match(r.stdout, /perf-gate: profiles took \d+\.\d s \(cap 120 s\)/);
    assert.match(
      r.stdout,
      /Why it got slower\n {2}profiles of 1 confirmed regression\(s\) in [\d.]+ s \(cap 120 s\); they never change the verdict\n {2}words\/count \(callgrind, /,
    );
    const markdown = readFileSync(join(repo, 'slow.md'), 'utf8');
    assert.match(markdown, /\*\*Why it got slower\*\*/);
    // The function name is the program's text: escaped ("_" as an entity, so no emphasis starts).
    assert.match(markdown, /\n\| hash&#95;word \| [\d.]+ M \([\d.]+ %\) \| [\d.]+ M \([\d.]+ %\) \| \+\d+\.\d points \|\n/);
    assert.match(
      markdown,
      /flame graph `profile\/words_count\/diff\.svg`; folded stacks `profile\/words_count\/base\.folded`, `profile\/words_count\/head\.folded` in the output folder\./,
    );
    assert.equal(git(repo, 'worktree', 'list').split('\n').length, 1, 'the base worktree is removed after the profile');
  });
});
