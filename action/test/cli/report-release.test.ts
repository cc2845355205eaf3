import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EMPTY_BUDGETS, newResultSet } from '../../src/model/index.js';
import { assembleRelease, type ReleaseModel } from '../../src/gate/release-model.js';
import { renderReleaseModel } from '../../src/report/release.js';
import { JOB_SUMMARY_LIMIT } from '../../src/report/summary.js';
import { webUrlOfRemote } from '../../src/pipeline/history/repository-url.js';
import { releaseOfRun } from '../../src/pipeline/history/release-report.js';
import { defaultDeps, historyStart, readConfig, runGate, storeAtOf, writeReleaseReport } from '../../src/pipeline/index.js';
import { DEFAULT_GATE_OPTIONS } from '../../src/gate/index.js';
import { runCli } from '../support/cli.js';
import { gitSync, openFolder, workRepo } from '../support/history.js';
import { seriesWithSteps } from '../support/synthetic-series.js';
import { tempDir } from '../support/temp.js';
import { reportOf, row, side } from '../report/handwritten-reports.js';

/**
 * A real git repository with 80 commits on main, one run of each in a history
 * folder, v1.0.0 on commit 10 and v1.1.0 on commit 70. `parse/small` gets
 * 10 % slower at commit STEP (40); `parse/large` never changes, and keeps a
 * budget with little room; `serve`'s throughput keeps its level but its
 * samples spread ten times wider from commit 65 on (noisier in v1.1.0).
 */
const STEP = 40;
const FROM = 10;
const TO = 70;

/** The commit times: one an hour from 2026-10-01; each run is created a minute after its commit. */
const commitDate = (i: number): string => new Date(Date.UTC(2026, 9, 1) + i * 3600_000).toISOString();

describe('perf-gate report release on a recorded history with two tags', () => {
  const repo = workRepo(tempDir('perf-gate-release-'));
  const history = join(repo, 'history');
  const commits: string[] = [];
  const env = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'octo/app' };

  before(async () => {
    const small = seriesWithSteps(1, 80, 0.01, [{ at: STEP, size: 0.1 }]);
    const large = seriesWithSteps(4, 80, 0.01);
    const rate = seriesWithSteps(3, 80, 0.01);
    const store = openFolder(history);
    for (let i = 0; i < 80; i++) {
      gitSync(repo, ['commit', '--quiet', '--allow-empty', '-m', `commit ${i}`], { GIT_COMMITTER_DATE: commitDate(i), GIT_AUTHOR_DATE: commitDate(i) });
      const commit = gitSync(repo, ['rev-parse', 'HEAD']);
      commits.push(commit);
      const samples = (level: number, scale: number, spread = 1): number[] =>
        [0.99, 1, 1.01, 0.995, 1.005, 0.998, 1.002, 0.993].map((f) => level * (1 + (f - 1) * spread) * scale);
      const created = new Date(Date.parse(commitDate(i)) + 60_000).toISOString();
      const set = newResultSet(created, [
        { id: 'parse/small', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: samples(small[i]!, 1e-5) } } },
        { id: 'parse/large', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: samples(large[i]!, 1e-3) } } },
        { id: 'serve', status: 'ok', metrics: { throughput: { unit: '1/s', direction: 'higher', samples: samples(rate[i]!, 10, i >= 65 ? 10 : 1) } } },
      ]);
      await store.append({ ...set, commit, testbed: { id: 'vm' } }, { commit, testbed: 'vm' });
    }
    gitSync(repo, ['tag', 'v1.0.0', commits[FROM]!]);
    gitSync(repo, ['tag', 'v1.1.0', commits[TO]!]);
    // parse/large runs at about 100 ms: a limit of 104 ms leaves it less than 10 % room.
    mkdirSync(join(repo, 'budgets'));
    writeFileSync(join(repo, 'budgets', 'parse.yml'), 'version: 1\nbenchmarks:\n  "parse/large":\n    time: { max: 104ms }\n');
  });

  test('no-go: every section, the change point between the tags with its exact range, and what to bisect', async () => {
    const r = await runCli(
      ['report', 'release', '--from', 'v1.0.0', '--to', 'v1.1.0', '--history', 'history', '--out', 'out', '--json', 'release.json', '--markdown', 'summary.md'],
      repo,
      env,
    );
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const good = commits[STEP - 1]!;
    const bad = commits[STEP]!;
    const range = `${good.slice(0, 7)}..${bad.slice(0, 7)}`;

    const markdown = readFileSync(join(repo, 'out', 'release-report.md'), 'utf8');
    assert.match(markdown, /^## 🚫 release v1\.1\.0: no-go\n\n\*\*1 regression, .*\.\*\* Do not release/);
    assert.match(
      markdown,
      /Against v1\.0\.0 \(\w{7}\): 1 regression, 0 budget failures and 1 noisier benchmark among 3 compared\./,
      'the executive summary says why',
    );
    assert.match(markdown, /The run history shows 1 change point between the two releases \(1 slower\)/);
    for (const heading of [
      '### Benchmarks',
      '### Variance changes',
      '### Budget validation',
      '### Change points between v1.0.0 and v1.1.0',
      '### Recommendations',
    ]) {
      assert.ok(markdown.includes(heading), heading);
    }
    assert.match(
      markdown,
      /\| parse\/small \| time \| [\d.]+ \w?s ± [\d.]+ \| [\d.]+ \w?s ± [\d.]+ \| \+\d+\.\d % \[\+[\d.]+, \+[\d.]+\] \| — \| ❌ regressed/,
    );
    assert.match(markdown, /\| serve \| throughput \| .* \(×\d+\.\d\) \|/, 'serve is noisier');
    assert.match(markdown, /\| parse\/large \| time \| ≤ 104 ms \| mean \d+\.\d+ ms \| ✅ pass \| ✅ pass \| budgets\/parse\.yml:4 \|/);
    // The change point: its range is the planted step's, linked to GitHub's compare page, 1 commit long.
    const link = `[${range}](https://github.com/octo/app/compare/${good}...${bad})`;
    assert.ok(markdown.includes(`| parse/small | time | ${link} (1 commit) |`), markdown);
    assert.equal(markdown.split('\n').filter((l) => /^\| (parse\/large|serve) \| \w+ \| \[/.test(l)).length, 0, 'no change point in the steady series');
    // Recommendations: a one-commit range needs no bisecting; re-measure serve; parse/large is close to its budget.
    assert.match(
      markdown,
      /\*\*Bisect\*\*[^\n]*\n\n\| Benchmark \| Metric \| Step \| Range \|\n.*\n\| parse\/small \| time \| \+[\d.]+ % &#91;.*&#93; in \w+\.\.\w+ \(1 commit\), change point \|/,
    );
    assert.match(markdown, /\*\*Re-measure\*\*.*\n\n.*\n.*\n(?:\|.*\n)*\| serve \| throughput \| (?:inconclusive: .*; )?noisier: stddev ×\d+\.\d \|/);
    assert.match(
      markdown,
      /\*\*Budgets close to their limit\*\*.*\n\n.*\n.*\n\| parse\/large \| time \| ≤ 104 ms \| mean [\d.]+ ms \| \d\.\d % \| budgets\/parse\.yml:4 \|/,
    );

    // The terminal: the comparison table, the change points, the recommendations, the verdict last.
    assert.match(r.stdout, /^perf-gate: release v1\.1\.0: the run of v1\.1\.0 \(\w{12}\) on testbed vm in /);
    assert.match(
      r.stdout,
      new RegExp(
        `Change points between v1\\.0\\.0 and v1\\.1\\.0\\n.*61 runs on testbed vm.*\\n.*\\n  parse/small\\s+time\\s+${range} \\(1 commit\\)\\s+.*slower`,
      ),
    );
    assert.match(r.stdout, /Recommendations\n {2}bisect parse\/small time: .*\n {4}one commit: read \w{12}, it brought the step\n/);
    assert.match(r.stdout, /\n\n✗ FAIL — 1 regression, .*\n$/);

    // The JSON says the same, with its schema.
    const json = JSON.parse(readFileSync(join(repo, 'release.json'), 'utf8')) as Omit<ReleaseModel, 'recommendations' | 'report'> & {
      recommendations: Omit<ReleaseModel['recommendations'], 'bisect'> & { bisect: Array<{ commands: unknown }> };
      report: { schema: string; rows: unknown[] };
    };
    assert.equal(json.schema, 'perf-gate/release@1');
    assert.equal(json.verdict, 'no-go');
    assert.deepEqual(json.previous, { name: 'v1.0.0', commit: commits[FROM], runs: 1 });
    assert.deepEqual(json.candidate, { name: 'v1.1.0', commit: commits[TO], runs: 1 });
    assert.equal(json.testbed, 'vm');
    assert.equal(json.historyRuns, TO - FROM + 1);
    assert.equal(json.repositoryUrl, 'https://github.com/octo/app');
    assert.deepEqual(
      {
        regressions: json.summary.regressions,
        budgetFailures: json.summary.budgetFailures,
        noisier: json.summary.noisier,
        changePoints: json.summary.changePoints,
        slower: json.summary.slowerChangePoints,
      },
      { regressions: 1, budgetFailures: 0, noisier: 1, changePoints: 1, slower: 1 },
    );
    assert.deepEqual(
      json.changes!.map((c) => [c.benchmark, c.previousCommit, c.commit, c.commits, c.regression]),
      [['parse/small', good, bad, 1, true]],
    );
    assert.equal(json.report.schema, 'perf-gate/report@1');
    assert.equal(json.report.rows.length, 3);
    assert.deepEqual(
      json.recommendations.bisect.map((b) => b.commands),
      [null],
      'one commit: nothing to bisect',
    );
    assert.deepEqual(
      json.recommendations.remeasure.filter((a) => a.why.includes('noisier')).map((a) => a.benchmark),
      ['serve'],
    );
    assert.deepEqual(
      json.recommendations.nearLimit.map((a) => a.benchmark),
      ['parse/large'],
    );

    // The job summary's Markdown is the whole report when it fits.
    assert.equal(readFileSync(join(repo, 'summary.md'), 'utf8'), markdown);
  });

  test('a range of several commits gets both bisect commands, with the exact commits', async () => {
    // Only every fifth commit measured from 30 to 50: the step lies somewhere in 35..40 … 40..45.
    const sparse = join(repo, 'sparse');
    const store = openFolder(sparse);
    const all = openFolder(history);
    const kept = (await all.list()).filter((e) => {
      const i = commits.indexOf(e.commit);
      return i <= 30 || i >= 50 || i % 5 === 0;
    });
    const sets = await all.readMany(kept);
    for (const [k, e] of kept.entries()) await store.append(sets[k]!, { commit: e.commit, testbed: e.testbed, runId: e.runId });
    const r = await runCli(['report', 'release', '--from', 'v1.0.0', '--to', 'v1.1.0', '--history', 'sparse', '--json', 'sparse.json'], repo, {});
    assert.equal(r.status, 1, r.stderr);
    const json = JSON.parse(readFileSync(join(repo, 'sparse.json'), 'utf8')) as ReleaseModel;
    const [change] = json.changes!;
    // The planted step lies in the reported range: the last measured commit before it and the first at or after it.
    const lastBefore = Math.floor((STEP - 1) / 5) * 5;
    const firstAfter = Math.ceil(STEP / 5) * 5;
    assert.deepEqual([change!.previousCommit, change!.commit, change!.commits], [commits[lastBefore], commits[firstAfter], firstAfter - lastBefore]);
    assert.equal(json.repositoryUrl, null, 'no GitHub environment and no origin: no links');
    const short = (i: number): string => commits[i]!.slice(0, 12);
    assert.ok(r.stdout.includes(`    perf-gate bisect --good ${short(lastBefore)} --bad ${short(firstAfter)} --benchmark parse/small\n`), r.stdout);
    assert.ok(
      r.stdout.includes(`    or: git bisect start ${short(firstAfter)} ${short(lastBefore)} && git bisect run perf-gate run --base ${short(lastBefore)}\n`),
      r.stdout,
    );
  });

  test('go: a candidate before the step, compared with the previous release, passes (exit 0)', async () => {
    const r = await runCli(['report', 'release', '--from', 'v1.0.0', '--to', commits[30]!, '--history', 'history', '--json', 'go.json'], repo, {});
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const json = JSON.parse(readFileSync(join(repo, 'go.json'), 'utf8')) as ReleaseModel;
    assert.equal(json.verdict, 'go');
    assert.deepEqual(json.changes, []);
    assert.match(r.stdout, /No change point in the 21 runs on testbed vm/);
    assert.match(r.stdout, /\n✓ PASS — /);
  });

  test('mode: release with history: in perf-gate.yml adds the change points since the previous tag, and writes the JSON and a summary within the room left', async () => {
    writeFileSync(join(repo, 'perf-gate.yml'), 'version: 1\nhistory: history\nsuites:\n  - name: parse\n    run: "true"\n    format: hyperfine\n');
    const config = readConfig('perf-gate.yml', repo);
    // The released commit's run, gated as the action's mode: release plans it: the history (its store) chooses the previous tag's run, and the run assembles the release.
    const store = openFolder(history);
    const released = await store.readUsable((await store.list()).filter((e) => e.commit === commits[TO]));
    const outcome = await runGate(
      {
        current: { results: released.sets[0]! },
        store: storeAtOf(config, '2026-11-01T00:00:00Z', { start: await historyStart(repo, { release: true }) }),
        baseline: { paths: [], read: { cwd: repo, created: '2026-11-01T00:00:00Z' } },
        budgets: EMPTY_BUDGETS,
        options: DEFAULT_GATE_OPTIONS,
        labels: { baselineInput: 'the stored baseline', current: 'the released run' },
        record: null,
        release: { ref: 'refs/tags/v1.1.0', sha: commits[TO]!, repositoryUrl: 'https://github.com/octo/app' },
      },
      { env: {}, write: () => {}, now: () => new Date('2026-11-01T00:00:00Z'), deps: defaultDeps(), cleanups: [] },
    );
    const { report } = outcome;
    assert.equal(report.baseline?.commit, commits[FROM], "the previous tag's run is the baseline");
    assert.ok(outcome.release, 'the run assembled the release');
    const { model, note } = outcome.release;
    assert.equal(note, null);
    assert.equal(model.previous?.name, 'v1.0.0', 'the tag before the released one');
    assert.deepEqual(
      model.changes!.map((c) => [c.benchmark, c.previousCommit, c.commit]),
      [['parse/small', commits[STEP - 1], commits[STEP]]],
    );
    const out = join(repo, 'action-out');
    const files = writeReleaseReport(report, out, 'refs/tags/v1.1.0', { model, title: 'perf-gate-release' });
    assert.equal((JSON.parse(readFileSync(files.jsonPath, 'utf8')) as { schema: string }).schema, 'perf-gate/release@1');
    assert.match(files.markdown, /### Change points between v1\.0\.0 and v1\.1\.0/);
    assert.equal(files.summary, files.markdown, 'a small report fits the summary whole');
    // Without a history the section is left out, and the report still says go / no-go.
    const plain = await releaseOfRun(report, null, { ref: 'refs/tags/v1.1.0', sha: commits[TO]!, repositoryUrl: null });
    assert.equal(plain.model.changes, null);
    assert.ok(!renderReleaseModel(plain.model).includes('### Change points'));
  });

  test('a tag that names no commit, a tag without runs, an unknown kind and missing flags are clear errors (exit 2)', async () => {
    const badTag = await runCli(['report', 'release', '--from', 'v0.9.9', '--to', 'v1.1.0', '--history', 'history'], repo, {});
    assert.equal(badTag.status, 2);
    assert.match(badTag.stderr, /--from: "v0\.9\.9" names no commit in .*; expected the previous release/);
    gitSync(repo, ['commit', '--quiet', '--allow-empty', '-m', 'not measured']);
    gitSync(repo, ['tag', 'v2.0.0']);
    const noRun = await runCli(['report', 'release', '--from', 'v1.1.0', '--to', 'v2.0.0', '--history', 'history'], repo, {});
    assert.equal(noRun.status, 2);
    assert.match(
      noRun.stderr,
      /--to: v2\.0\.0 \(\w{12}\) has no run in .*history; record one: check out v2\.0\.0, measure it and run `perf-gate history add --commit \w{12} RESULTS`/,
    );
    const testbed = await runCli(['report', 'release', '--from', 'v1.0.0', '--to', 'v1.1.0', '--history', 'history', '--testbed', 'metal'], repo, {});
    assert.equal(testbed.status, 2);
    assert.match(testbed.stderr, /--from: v1\.0\.0 \(\w{12}\) has no run on testbed metal .*\(it has runs on vm; give --testbed\)/);
    const backwards = await runCli(['report', 'release', '--from', 'v1.1.0', '--to', 'v1.0.0', '--history', 'history'], repo, {});
    assert.equal(backwards.status, 2);
    assert.match(backwards.stderr, /--from: v1\.1\.0 \(\w{12}\) is not an ancestor of v1\.0\.0/);
    const kind = await runCli(['report', 'weekly'], repo, {});
    assert.equal(kind.status, 2);
    assert.match(kind.stderr, /report takes release, found "weekly"/);
    assert.match((await runCli(['report', 'release', '--to', 'v1.1.0'], repo, {})).stderr, /needs --from TAG/);
  });
});

describe('the release report under the job summary limit', () => {
  /** 6,000 rows with long names: several MiB of Markdown (made once: formatting rows takes a while). */
  let made: ReleaseModel | undefined;
  function hugeModel(): ReleaseModel {
    if (made) return made;
    const rows = Array.from({ length: 6_000 }, (_, i) =>
      row({
        benchmark: `suite/${'long-benchmark-name-'.repeat(3)}${i}`,
        status: i % 3 === 0 ? 'inconclusive' : 'unchanged',
        flags: i % 5 === 0 ? ['noisier'] : [],
        baseline: side(0.001, 0.00001, 20),
        current: side(0.001, 0.0001, 20),
        budget: {
          kind: 'max',
          limit: 0.00105,
          stat: 'mean',
          value: 0.001,
          result: 'pass',
          baselineResult: 'pass',
          severity: 'fail',
          source: 'budgets/x.yml:3',
        },
      }),
    );
    made = assembleRelease({
      report: reportOf(rows),
      previous: { name: 'v1.0.0', commit: 'a'.repeat(40), runs: 1 },
      candidate: { name: 'v1.1.0', commit: 'b'.repeat(40), runs: 1 },
      changes: [],
    });
    return made;
  }

  test('the whole report is longer than 1 MiB; the summary keeps every section within it and says where the rest is', () => {
    const model = hugeModel();
    const full = renderReleaseModel(model);
    assert.ok(Buffer.byteLength(full) > 2 * JOB_SUMMARY_LIMIT, String(Buffer.byteLength(full)));
    assert.ok(!full.includes('left out'));
    const summary = renderReleaseModel(model, { maxBytes: JOB_SUMMARY_LIMIT, fullReportHint: '`release-report.md`' });
    const bytes = Buffer.byteLength(summary);
    assert.ok(bytes <= JOB_SUMMARY_LIMIT, String(bytes));
    assert.ok(bytes > JOB_SUMMARY_LIMIT * 0.9, `the room is used: ${bytes}`);
    assert.match(summary, /^## ✅ release v1\.1\.0: go\n/);
    assert.match(summary, /\n> \*\*This summary is cut to stay under GitHub's 1 MiB limit\*\*.*The full report is in `release-report\.md`\./);
    // Each table keeps some rows and says how many it left out.
    for (const heading of ['### Benchmarks', '### Variance changes', '### Budget validation', '**Re-measure**', '**Budgets close to their limit**']) {
      const at = summary.indexOf(heading);
      assert.ok(at >= 0, heading);
      assert.match(
        summary.slice(at),
        /^[^\n]*\n(?:.*\n){2,}?\| suite\/[^\n]*\n(?:\|[^\n]*\n)*\n\*… [\d,]+ more rows left out here; the full report is in `release-report\.md`\.\*/,
        heading,
      );
    }
    // Rows are cut whole: every table line is complete.
    for (const line of summary.split('\n').filter((l) => l.startsWith('| suite/'))) assert.match(line, /\|$/);
  });

  test('a tiny limit still gives the verdict', () => {
    const summary = renderReleaseModel(hugeModel(), { maxBytes: 2000 });
    assert.ok(Buffer.byteLength(summary) <= 2000);
    assert.match(summary, /^## ✅ release v1\.1\.0: go/);
  });
});

describe('the repository address of a remote', () => {
  test('github.com remotes in every form, credentials dropped; other hosts none', () => {
    for (const remote of [
      'https://github.com/octo/app.git',
      'https://x-access-token:secret@github.com/octo/app',
      'git@github.com:octo/app.git',
      'ssh://git@github.com/octo/app.git',
    ]) {
      assert.equal(webUrlOfRemote(remote), 'https://github.com/octo/app', remote);
    }
    assert.equal(webUrlOfRemote('https://gitlab.com/octo/app.git'), null);
    assert.equal(webUrlOfRemote('https://github.com/octo/app/../../evil'), null);
  });
});
