import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp.js';
import { requireTool } from '../support/tools.js';
import { gatePullRequest, mainWithRuns, pullRequestBranch, verdictFacts } from '../support/pull-request-run.js';

requireTool('javac', 'java', 'git');

/**
 * The same flow on a JMH suite of 20 benchmarks in one class: a history of
 * main, then a pull request that makes one benchmark slower. The second
 * stage must run only the suspects (JMH's include pattern), one fork per
 * round, read from JMH's own JSON of every round, and decide the slowed one
 * regressed. The project is compiled with javac and JMH's annotation
 * processor, from the jars the JMH example's Maven build fetched (setup), so
 * a build takes seconds, not a Maven start.
 */
const M2 = join(process.env.HOME ?? '/root', '.m2', 'repository');
const JARS = {
  core: join(M2, 'org/openjdk/jmh/jmh-core/1.37/jmh-core-1.37.jar'),
  processor: join(M2, 'org/openjdk/jmh/jmh-generator-annprocess/1.37/jmh-generator-annprocess-1.37.jar'),
  options: join(M2, 'net/sf/jopt-simple/jopt-simple/5.0.4/jopt-simple-5.0.4.jar'),
  math: join(M2, 'org/apache/commons/commons-math3/3.6.1/commons-math3-3.6.1.jar'),
};
const CLASSPATH = [JARS.core, JARS.options, JARS.math].join(':');

/** 20 benchmarks of one loop each, in class many.Many; `slow` multiplies the work of those named. */
function benchmarks(slow: Record<number, number> = {}): string {
  const bench = (i: number) => `    @Benchmark public long w${String(i).padStart(2, '0')}() { return work(${20_000 * (slow[i] ?? 1)}); }`;
  return [
    'package many;',
    'import java.util.concurrent.TimeUnit;',
    'import org.openjdk.jmh.annotations.*;',
    '@BenchmarkMode(Mode.AverageTime) @OutputTimeUnit(TimeUnit.MICROSECONDS) @State(Scope.Benchmark)',
    'public class Many {',
    '    long seed = 1;',
    '    long work(int n) { long x = seed; for (int i = 0; i < n; i++) x = x * 6364136223846793005L + 1442695040888963407L; return x; }',
    ...Array.from({ length: 20 }, (_, i) => bench(i + 1)),
    '}',
    '',
  ].join('\n');
}

const CONFIG = `version: 1
history: history
ab:
  seed: 5
  rounds: 8
  max-rounds: 12
  confirm-rounds: 8
suites:
  - name: j
    build: javac -cp ${CLASSPATH} -processorpath ${CLASSPATH}:${JARS.processor} -d classes src/many/Many.java
    run: java -cp classes:${CLASSPATH} org.openjdk.jmh.Main -f 1 -wi 2 -i 3 -w 50ms -r 50ms -rf json -rff {output}
    format: jmh
    timeout: 5m
`;

describe('a 20-benchmark JMH suite: the second stage runs the suspects alone, one fork per round', () => {
  const repo = tempDir('pg-two-stage-jmh-');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };

  before(async () => {
    for (const [name, jar] of Object.entries(JARS))
      assert.ok(existsSync(jar), `${name}: ${jar} is missing; npm run setup builds examples/java-jmh, which fetches it`);
    // One run of main: the screen then applies the configured drift, which a 2x slowdown is far beyond.
    await mainWithRuns(repo, { 'src/many/Many.java': benchmarks(), 'perf-gate.yml': CONFIG, '.gitignore': 'history/\nout/\n*.json\nclasses/\n' }, env);
  });

  test('w07 made 2x slower: regressed by interleaved rounds of the suspects alone, each one JMH fork', async () => {
    pullRequestBranch(repo, 'slow-w07', { 'src/many/Many.java': benchmarks({ 7: 2 }) }, 'slow w07');
    const { r, report } = await gatePullRequest(repo, env, 'j/many.Many.w07');
    const w07 = report.rows.find((row) => row.benchmark === 'j/many.Many.w07' && row.metric === 'time');
    const facts = verdictFacts(r, w07);
    assert.equal(r.status, 1, facts);
    assert.equal(w07?.status, 'regressed', facts);
    assert.equal(w07.stage?.by, 'interleaved');
    const suspects = [...new Set(report.rows.filter((row) => row.stage?.by === 'interleaved').map((row) => row.benchmark.replace(/^j\//, '')))].sort();
    assert.ok(suspects.includes('many.Many.w07') && suspects.length < 20, suspects.join(', '));
    // What JMH itself wrote in every round: the suspects alone, each in one fork of the run line's three iterations.
    const rounds = join(repo, 'out', 'confirm', 'j', 'ab');
    const outputs = readdirSync(rounds).filter((f) => f.endsWith('.output'));
    assert.ok(outputs.length >= 2 * (8 + 8), `${outputs.length} round outputs`);
    // The first eight rounds run every suspect; rounds added for inconclusive rows run those rows alone, and the fresh
    // confirmation rounds (confirm-*) the regressed ones, which always include w07.
    for (const file of outputs) {
      const runs = JSON.parse(readFileSync(join(rounds, file), 'utf8')) as { benchmark: string; forks: number; primaryMetric: { rawData: number[][] } }[];
      const ran = runs.map((b) => b.benchmark).sort();
      const round = Number(/(\d{3})-(?:base|head)\.output$/.exec(file)?.[1]);
      if (file.startsWith('round-') && round <= 8) assert.deepEqual(ran, suspects, file);
      else assert.ok(ran.length > 0 && ran.every((name) => suspects.includes(name)), `${file}: ${ran.join(', ')}`);
      if (file.startsWith('confirm-')) assert.ok(ran.includes('many.Many.w07'), `${file}: ${ran.join(', ')}`);
      for (const b of runs) {
        assert.equal(b.forks, 1, `${file}: ${b.benchmark}`);
        assert.deepEqual(
          b.primaryMetric.rawData.map((fork) => fork.length),
          [3],
          `${file}: ${b.benchmark}`,
        );
      }
    }
    assert.equal(report.stages!.confirm.suites[0]!.whole, undefined, 'the suite was narrowed');
  });
});
