import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';
import { gatePullRequest, git } from '../support/pull-request-run.js';

requireTool('cargo', 'cargo-criterion', 'git');

const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };
/**
 * The same flow on a criterion crate of 20 benchmarks in one bench target
 * (cargo criterion's JSON messages): the second stage runs only the
 * suspects, each round one cargo criterion call in criterion's short
 * configuration, and decides the slowed benchmark regressed. One
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
    git(repo, 'init', '--quiet', '--initial-branch=main');
    git(repo, 'config', 'user.email', 'test@example.invalid');
    git(repo, 'config', 'user.name', 'perf-gate test');
    cpSync(join(example, 'Cargo.lock'), join(repo, 'Cargo.lock'));
    cpSync(join(example, 'src'), join(repo, 'src'), { recursive: true });
    writeFileSync(
      join(repo, 'Cargo.toml'),
      readFileSync(join(example, 'Cargo.toml'), 'utf8').replace('name = "parse"', 'name = "many"').replace('"perf-gate-example-criterion"', '"perf-gate-many"'),
    );
    mkdirSync(join(repo, 'benches'));
    writeFileSync(join(repo, 'benches', 'many.rs'), benches());
    writeFileSync(
      join(repo, 'perf-gate.yml'),
      `version: 1
history: history
ab:
  seed: 5
  # Eight rounds that all agree reach the paired test's level; a 2x slowdown needs no more, and noise sent on stays inconclusive.
  rounds: 8
  max-rounds: 8
  confirm-rounds: 8
suites:
  - name: c
    build: cargo bench --bench many --no-run
    run: cargo criterion --bench many --message-format=json --plotting-backend disabled -- --warm-up-time 0.1 --measurement-time 0.2 --sample-size 10
    format: cargo-criterion
    timeout: 5m
`,
    );
    writeFileSync(join(repo, '.gitignore'), 'history/\nout/\n*.json\ntarget/\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '--quiet', '-m', 'main');
    // One run of main: the screen then applies the configured drift, which a 2x slowdown is far beyond.
    const r = await runCli(['run', '--mode', 'main', '--out', 'out'], repo, env);
    assert.match(r.stdout, /baseline written to/, r.stdout + r.stderr);
  });

  test('w07 made 2x slower: regressed by interleaved rounds of the suspects alone, each a short criterion call', async () => {
    git(repo, 'checkout', '--quiet', '-B', 'slow-w07', 'main');
    writeFileSync(join(repo, 'benches', 'many.rs'), benches({ 7: 2 }));
    git(repo, 'commit', '--quiet', '-am', 'slow w07');
    const { r, report } = await gatePullRequest(repo, env, 'c/many/w07');
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const w07 = report.rows.find((row) => row.benchmark === 'c/many/w07' && row.metric === 'time')!;
    assert.equal(w07.status, 'regressed', JSON.stringify(w07));
    assert.equal(w07.stage?.by, 'interleaved');
    const suspects = [...new Set(report.rows.filter((row) => row.stage?.by === 'interleaved').map((row) => row.benchmark.replace(/^c\//, '')))].sort();
    assert.ok(suspects.includes('many/w07') && suspects.length < 20, suspects.join(', '));
    // What cargo criterion itself reported in every round: the suspects, each measured in 10 samples (the short configuration).
    const rounds = join(repo, 'out', 'confirm', 'c', 'ab');
    const outputs = readdirSync(rounds).filter((f) => f.endsWith('.output'));
    assert.ok(outputs.length >= 16, `${outputs.length} round outputs`);
    for (const file of outputs) {
      const text = readFileSync(join(rounds, file), 'utf8');
      const complete = text
        .split('\n')
        .filter((l) => l.includes('"benchmark-complete"'))
        .map((l) => JSON.parse(l) as { id: string; measured_values: number[] });
      assert.deepEqual(complete.map((c) => c.id).sort(), suspects, file);
      for (const c of complete) assert.equal(c.measured_values.length, 10, `${file}: ${c.id}`);
    }
    assert.equal(report.stages!.confirm.suites[0]!.whole, undefined, 'the suite was narrowed');
  });
});
