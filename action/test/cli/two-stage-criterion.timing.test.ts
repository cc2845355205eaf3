import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';
import { gatePullRequest, mainWithRuns, pullRequestBranch, verdictFacts } from '../support/pull-request-run.js';

requireTool('cargo', 'git');

const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };
const CONFIG = `version: 1
history: history
ab:
  seed: 5
  # Eight rounds that all agree reach α 0.01 for one suspect; perf-gate adds the rounds more suspects need (9 for two, 10 for up to five).
  rounds: 8
  max-rounds: 8
  confirm-rounds: 8
suites:
  - name: c
    build: cargo bench --bench many --no-run
    run: cargo bench --bench many -- --warm-up-time 0.1 --measurement-time 0.2 --sample-size 10
    format: criterion-console
    timeout: 5m
`;

/**
 * The same flow on a criterion crate of 20 benchmarks in one bench target,
 * run with `cargo bench` and read from criterion's console report: the
 * second stage runs only the suspects, each round one `cargo bench` call in
 * criterion's short configuration, and decides the slowed benchmark
 * regressed. The console report gives one estimate per benchmark and run, so
 * every round is one paired value, and the rounds reach significance over
 * all the suspects however few `max-rounds` allows (runner/ab.ts). One
 * CARGO_TARGET_DIR serves both checkouts, as on many CI runners: the base
 * side must build into a folder of its own there, or both sides run the same
 * binary. Criterion itself is copied in built from the example's target
 * folder (a first build of it takes a minute here).
 */
describe('a 20-benchmark criterion crate: the second stage runs the suspects alone, in short rounds', () => {
  const repo = tempDir('pg-two-stage-criterion-');
  const example = new URL('../../../examples/rust-criterion', import.meta.url).pathname;
  const target = tempDir('pg-two-stage-criterion-target-');
  const env = { ...ENV, CARGO_TARGET_DIR: target, CARGO_HOME: process.env.CARGO_HOME ?? join(process.env.HOME ?? '/root', '.cargo') };

  /** 20 benchmarks of one loop each, in group "many"; `slow` multiplies the work of those named. */
  function benches(slow: Record<number, number> = {}): string {
    const factors = Array.from({ length: 20 }, (_, i) => slow[i + 1] ?? 1).join(', ');
    return [
      'use criterion::{black_box, criterion_group, criterion_main, Criterion};',
      `const FACTOR: [u64; 20] = [${factors}];`,
      'fn work(n: u64) -> u64 { (0..n).fold(1u64, |x, i| x.wrapping_mul(6364136223846793005).wrapping_add(i)) }',
      'fn many(c: &mut Criterion) {',
      '    let mut g = c.benchmark_group("many");',
      '    for i in 0..20usize { g.bench_function(format!("w{:02}", i + 1), |b| b.iter(|| work(black_box(20_000 * FACTOR[i])))); }',
      '    g.finish();',
      '}',
      'criterion_group!(benches, many);',
      'criterion_main!(benches);',
      '',
    ].join('\n');
  }

  before(async () => {
    cpSync(join(example, 'target', 'release'), join(target, 'release'), { recursive: true, preserveTimestamps: true });
    cpSync(join(example, 'target', 'release'), join(target, 'perf-gate-base', 'release'), { recursive: true, preserveTimestamps: true });
    cpSync(join(example, 'src'), join(repo, 'src'), { recursive: true });
    // One run of main: the screen then applies the configured drift, which a 2x slowdown is far beyond.
    await mainWithRuns(
      repo,
      {
        // The lock names the renamed package, as cargo would write it: the pull request then changes no lockfile.
        'Cargo.lock': readFileSync(join(example, 'Cargo.lock'), 'utf8').replace('"perf-gate-example-criterion"', '"perf-gate-many"'),
        'Cargo.toml': readFileSync(join(example, 'Cargo.toml'), 'utf8')
          .replace('name = "parse"', 'name = "many"')
          .replace('"perf-gate-example-criterion"', '"perf-gate-many"'),
        'benches/many.rs': benches(),
        'perf-gate.yml': CONFIG,
        '.gitignore': 'history/\nout/\n*.json\ntarget/\n',
      },
      env,
    );
  });

  test('w07 made 2x slower: regressed by interleaved rounds of the suspects alone, each a short criterion call', async () => {
    pullRequestBranch(repo, 'slow-w07', { 'benches/many.rs': benches({ 7: 2 }) }, 'slow w07');
    const { r, report } = await gatePullRequest(repo, env, 'c/many/w07');
    const w07 = report.rows.find((row) => row.benchmark === 'c/many/w07' && row.metric === 'time');
    const facts = verdictFacts(r, w07);
    assert.equal(r.status, 1, facts);
    assert.equal(w07?.status, 'regressed', facts);
    assert.equal(w07.stage?.by, 'interleaved');
    assert.ok(!w07.flags.includes('environment-changed'), facts);
    const suspects = [...new Set(report.rows.filter((row) => row.stage?.by === 'interleaved').map((row) => row.benchmark.replace(/^c\//, '')))].sort();
    assert.ok(suspects.includes('many/w07') && suspects.length < 20, suspects.join(', '));
    // What criterion itself said in every round (the round's log): the suspects alone, each from 10 samples (the short
    // configuration), the base side running the binary it built into a target folder of its own.
    const rounds = join(repo, 'out', 'confirm', 'c', 'ab');
    const logs = readdirSync(rounds).filter((f) => f.endsWith('.log'));
    assert.ok(logs.length >= 2 * (8 + 8), `${logs.length} round logs`);
    // The first eight rounds run every suspect; rounds added for inconclusive rows run those rows alone, and the fresh
    // confirmation rounds (confirm-*) the regressed ones, which always include w07.
    for (const file of logs) {
      const text = readFileSync(join(rounds, file), 'utf8');
      const collected = [...text.matchAll(/^Benchmarking (many\/w\d\d): Collecting (\d+) samples/gm)];
      const ran = collected.map((m) => m[1]!).sort();
      const round = Number(/(\d{3})-(?:base|head)\.log$/.exec(file)?.[1]);
      if (file.startsWith('round-') && round <= 8) assert.deepEqual(ran, suspects, file);
      else assert.ok(ran.length > 0 && ran.every((name) => suspects.includes(name)), `${file}: ${ran.join(', ')}`);
      if (file.startsWith('confirm-')) assert.ok(ran.includes('many/w07'), `${file}: ${ran.join(', ')}`);
      assert.deepEqual(new Set(collected.map((m) => m[2])), new Set(['10']), file);
      assert.equal(/Running .*\/perf-gate-base\/release\//.test(text), file.endsWith('-base.log'), file);
    }
    assert.equal(report.stages!.confirm.suites[0]!.whole, undefined, 'the suite was narrowed');
  });
});
