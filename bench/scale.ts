/**
 * A suite of 10,000 benchmarks × 3 metrics (docs/reliability.md, "Scale"):
 * time (10 samples), peak memory (one value) and instructions (an exact
 * count) per benchmark, every 50th benchmark 20 % slower and every 500th
 * using 30 % more memory. Measures
 *
 * - `perf-gate compare` of the two files as a whole process (the bundled
 *   CLI, Node's start included), wall time and peak RSS from GNU time,
 *   median of `--runs`;
 * - what GitHub would get from the action for the same report, built in
 *   process with the action's own functions: the pull request comment
 *   (limit 65,536 characters; regressions come first), the job summary
 *   (limit 1 MiB), and the JSON report's rows (all 30,000).
 *
 *   npm run build && npm run bench:scale [-- --runs 5]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateResultSet } from '../action/src/adapters/result-set.js';
import { EMPTY_BUDGETS, type BenchmarkResult, type ResultSet } from '../action/src/model/index.js';
import { commentMarkdown, gate, jobSummary } from '../action/src/pipeline/index.js';
import { stickyMarker } from '../action/src/github/sticky-comment.js';
import { seededRandom } from '../action/src/stats/prng.js';
import { median } from '../action/src/stats/index.js';
import { positiveWholeFlag } from './args.js';

const RUNS = positiveWholeFlag('runs', 5);
const BENCHMARKS = 10_000;
const cli = new URL('../action/dist/cli.js', import.meta.url).pathname;

function resultSet(seed: number, slower: boolean): ResultSet {
  const random = seededRandom(seed);
  const benchmarks: BenchmarkResult[] = Array.from({ length: BENCHMARKS }, (_, i) => {
    const time = 0.001 * (1 + (i % 50)) * (slower && i % 50 === 0 ? 1.2 : 1);
    const memory = 1e6 * (1 + (i % 7)) * (slower && i % 500 === 0 ? 1.3 : 1);
    return {
      id: `suite-${i % 20}/benchmark-${i}`,
      status: 'ok',
      metrics: {
        time: { unit: 's', direction: 'lower', samples: Array.from({ length: 10 }, () => time * (1 + 0.01 * (random.next() - 0.5))) },
        memory_peak: { unit: 'B', direction: 'lower', value: Math.round(memory) },
        instructions: { unit: 'count', direction: 'lower', exact: true, value: 1e6 * (1 + (i % 13)) },
      },
    };
  });
  return { schema: 'perf-gate/results@1', created: '2026-11-27T00:00:00Z', benchmarks };
}

function timed(dir: string): { wall: number; rss: number; status: number } {
  const out = spawnSync(
    '/usr/bin/time',
    ['-v', process.execPath, cli, 'compare', '--baseline', 'baseline.json', '--current', 'current.json', '--json', 'report.json', '--markdown', 'report.md'],
    { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
  );
  if (out.error) throw new Error(`cannot run /usr/bin/time (apt-get install time): ${out.error.message}`);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(out.stderr);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(out.stderr);
  if (!wall || !rss) throw new Error(`unexpected GNU time output:\n${out.stderr.slice(-2000)}`);
  return { wall: Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]), rss: Number(rss[1]) * 1024, status: out.status ?? -1 };
}

const dir = mkdtempSync(join(tmpdir(), 'perf-gate-scale-'));
try {
  const baseline = resultSet(1, false);
  const current = resultSet(2, true);
  writeFileSync(join(dir, 'baseline.json'), JSON.stringify(baseline));
  writeFileSync(join(dir, 'current.json'), JSON.stringify(current));
  const runs = Array.from({ length: RUNS }, () => timed(dir));
  const rows = (JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { rows: unknown[] }).rows.length;

  const report = gate({
    baseline: validateResultSet(baseline, 'baseline.json'),
    current: validateResultSet(current, 'current.json'),
    budgets: EMPTY_BUDGETS,
    baselineInput: 'baseline.json',
  });
  const marker = stickyMarker('perf-gate', { verdict: report.verdict, digest: '00' });
  const comment = commentMarkdown(report, { title: 'perf-gate', marker, maxLength: 65_536, previouslyFailed: false });
  const summary = jobSummary(report, 'perf-gate');
  // The comment's first table row: a regression, when the comment puts them first.
  const firstRow = comment.split('\n').find((l) => l.startsWith('| ') && !l.startsWith('| Benchmark') && !l.startsWith('| :--'));
  const firstRegressed = firstRow?.includes('regressed') === true;
  const truncated = /\*\*Truncated:\*\* ([\d,]+) of ([\d,]+) rows are left out/.exec(comment);

  console.log(`Scale: ${BENCHMARKS.toLocaleString('en')} benchmarks × 3 metrics, ${report.counts.regressed} regressed rows; compare median of ${RUNS}`);
  console.log(`(${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${loadavg()[0]!.toFixed(1)} at the end, Node ${process.version})\n`);
  console.log('| measure | value | target |\n| --- | ---: | ---: |');
  console.log(
    `| \`perf-gate compare\`, whole process: wall time, median (min–max) | ${median(runs.map((r) => r.wall)).toFixed(2)} s (${Math.min(...runs.map((r) => r.wall)).toFixed(2)}–${Math.max(...runs.map((r) => r.wall)).toFixed(2)}) | 3 s |`,
  );
  console.log(`| … peak RSS, median | ${(median(runs.map((r) => r.rss)) / 1e6).toFixed(0)} MB | 500 MB |`);
  console.log(`| … exit status | ${runs[0]!.status} (1: the planted regressions fail the gate) | |`);
  console.log(`| JSON report rows | ${rows.toLocaleString('en')} | ${(BENCHMARKS * 3).toLocaleString('en')} |`);
  console.log(
    `| pull request comment | ${comment.length.toLocaleString('en')} characters; first row ${firstRegressed ? 'a regression' : 'NOT a regression'}; ${truncated ? `${truncated[1]} of ${truncated[2]} rows left out, pointing to the job summary and artifact` : 'not truncated'} | 65,536 |`,
  );
  console.log(`| job summary | ${Buffer.byteLength(summary).toLocaleString('en')} bytes | 1,048,576 |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
