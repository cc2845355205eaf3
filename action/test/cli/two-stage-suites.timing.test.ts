import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileInput, parseInput } from '../../src/adapters/index.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';
import { gatePullRequest, mainWithRuns, pullRequestBranch, readReport } from '../support/pull-request-run.js';

/**
 * The second stage on a suite of realistic size (issue 36): a Go package of
 * 24 benchmarks in one `go test -bench` suite, a history of main, then a pull
 * request that makes one benchmark slower. The second stage must run only
 * the suspects, in short rounds (three repetitions in all) of the test binary
 * each side compiled once, read from the harness's own output of every
 * round, and decide the slowed one regressed.
 */
requireTool('go', 'git');

const ENV = { PATH: process.env.PATH, HOME: process.env.HOME, GOCACHE: process.env.GOCACHE ?? join(process.env.HOME ?? '/root', '.cache', 'go-build') };
/** 24 benchmarks of one loop each; `slow` multiplies the work of those named. */
function benchmarks(slow: Record<number, number> = {}): string {
  const bench = (i: number) =>
    `func BenchmarkW${String(i).padStart(2, '0')}(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tsink += work(${20_000 * (slow[i] ?? 1)})\n\t}\n}\n`;
  return [
    'package wide\n\nimport "testing"\n\nvar sink uint64\n',
    'func work(n int) uint64 {\n\tx := uint64(1)\n\tfor i := 0; i < n; i++ {\n\t\tx = x*6364136223846793005 + 1442695040888963407\n\t}\n\treturn x\n}\n',
    ...Array.from({ length: 24 }, (_, i) => bench(i + 1)),
  ].join('\n');
}

const CONFIG = `version: 1
history: history
ab:
  seed: 5
suites:
  - name: go
    run: go test -run '^$' -bench . -benchtime 200x -count 6
    format: go-bench
    timeout: 5m
`;

describe('a 24-benchmark go test -bench suite: the second stage measures only the suspects, in short rounds', () => {
  const repo = tempDir('pg-two-stage-go-');

  before(async () => {
    // Five runs of main: the fewest from which the screen learns this machine's drift.
    await mainWithRuns(
      repo,
      { 'perf-gate.yml': CONFIG, 'go.mod': 'module wide\n\ngo 1.21\n', 'w_test.go': benchmarks(), '.gitignore': 'history/\nout/\n*.json\n' },
      ENV,
      5,
    );
  });

  test('W07 made 2x slower: regressed by interleaved rounds; the first rounds ran the suspects alone, three repetitions in all, the fresh rounds the regressed rows', async () => {
    pullRequestBranch(repo, 'slow-w07', { 'w_test.go': benchmarks({ 7: 2 }) }, 'slow W07');
    const { r, report } = await gatePullRequest(repo, ENV, 'go/BenchmarkW07');
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const w07 = report.rows.find((row) => row.benchmark === 'go/BenchmarkW07' && row.metric === 'time')!;
    assert.equal(w07.status, 'regressed', JSON.stringify(w07));
    assert.equal(w07.stage?.by, 'interleaved');
    const suspects = [...new Set(report.rows.filter((row) => row.stage?.by === 'interleaved').map((row) => row.benchmark.replace(/^go\//, '')))].sort();
    assert.ok(suspects.length < 24, `${suspects.length} suspects`);
    // What the harness itself printed in every round of the second stage: the first ten rounds the suspects, each
    // ⌊3 / suspects⌋ times (at least once); rounds added for rows still inconclusive those
    // rows alone; the fresh rounds that confirm a regression the regressed rows, W07 among them.
    const rounds = join(repo, 'out', 'confirm', 'go', 'ab');
    const outputs = readdirSync(rounds).filter((f) => f.endsWith('.output'));
    assert.ok(outputs.length >= 20, `${outputs.length} round outputs`);
    const count = (n: number): number => Math.max(1, Math.min(6, Math.floor(3 / n)));
    for (const file of outputs) {
      const text = readFileSync(join(rounds, file), 'utf8');
      // The test binary each side compiled once ran the round, not go test (whose output closes with "ok  \twide\t…").
      assert.doesNotMatch(text, /^ok\s+wide\b/m, file);
      const rows = parseInput(fileInput(join(rounds, file), text), 'go-bench');
      const ids = rows.map((b) => b.id).sort();
      const round = Number(/-(\d+)-/.exec(file)![1]);
      // Fresh rounds run the rows the first rounds called regressed (W07, and any other the first rounds' noise did),
      // rounds added to them those still open.
      if (file.startsWith('confirm-'))
        assert.ok(ids.length > 0 && ids.every((id) => suspects.includes(id)) && (round > 1 || ids.includes('BenchmarkW07')), `${file}: ${ids.join(', ')}`);
      else if (round <= 10) assert.deepEqual(ids, suspects, file);
      else assert.ok(ids.length > 0 && ids.every((id) => suspects.includes(id)), `${file}: ${ids.join(', ')}`);
      for (const b of rows) assert.equal(b.metrics['time']!.samples!.length, count(ids.length), `${file}: ${b.id} ran ${count(ids.length)} times`);
    }
    assert.ok(
      outputs.some((f) => f.startsWith('confirm-')),
      'fresh rounds ran',
    );
    assert.equal(report.stages!.confirm.suites[0]!.whole, undefined, 'the suite was narrowed');
    for (const side of ['base', 'head']) assert.ok(existsSync(join(repo, 'out', 'confirm', 'go', `build-${side}`, 'go-bench.test')), `${side}'s test binary`);
    // Priced before it started, from the first stage's own timing, and said in the log.
    const estimate = report.stages!.confirm.estimate!;
    assert.ok(estimate.seconds > 0 && estimate.left.length === 0, JSON.stringify(estimate));
    assert.match(r.stdout + r.stderr, new RegExp(`second stage: ${suspects.length} suspect benchmark\\(s\\), about \\d+ s; confirm-time-cap \\d+ s`));
  });

  test('two slowed benchmarks and a cap that holds one: the likelier is measured, the other is named as left out and stays suspected', async () => {
    pullRequestBranch(
      repo,
      'slow-two',
      { 'w_test.go': benchmarks({ 3: 3, 15: 2 }), 'perf-gate.yml': CONFIG.replace('ab:\n', 'confirm-time-cap: 1s\nab:\n') },
      'slow W03 and W15, with a cap of one second',
    );
    const r = await runCli(['run', '--json', 'report.json', '--out', 'out'], repo, ENV);
    const report = readReport(repo);
    const row = (name: string) => report.rows.find((x) => x.benchmark === `go/${name}` && x.metric === 'time')!;
    // W03 (3x) is the likeliest regression: it goes first; W15 (2x) does not fit the one-second cap, nor does any noise the screen sent on.
    const left = report.stages!.confirm.estimate!.left;
    assert.ok(left.includes('go/BenchmarkW15') && !left.includes('go/BenchmarkW03'), r.stdout + r.stderr);
    assert.deepEqual(
      report.stages!.confirm.suites.map((s) => s.rows),
      [['go/BenchmarkW03 time']],
    );
    const w15 = row('BenchmarkW15');
    assert.equal(w15.status, 'suspected', JSON.stringify(w15));
    assert.match(w15.stage?.text ?? '', /left out: the suspects before it were estimated to fill the 1 s cap/);
    assert.match(r.stdout, /Left out to stay within confirm-time-cap \(1\.0 s\): [^\n]*go\/BenchmarkW15[^\n]*, still suspected\./);
    // Nothing of W15 ran in the second stage (compiling each side's test binary may take the whole second: then no
    // round ran at all, and W03 stays suspected too).
    const rounds = join(repo, 'out', 'confirm', 'go', 'ab');
    for (const file of existsSync(rounds) ? readdirSync(rounds).filter((f) => f.endsWith('.output')) : []) {
      assert.doesNotMatch(readFileSync(join(rounds, file), 'utf8'), /BenchmarkW15/, file);
    }
  });
});
