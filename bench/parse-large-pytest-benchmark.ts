/**
 * Parsing speed and memory of the pytest-benchmark adapter on a 50 MB
 * `--benchmark-json` file (pytest-benchmark always writes `data`, which reaches
 * tens of thousands of values per trivial benchmark, so files this big are real).
 * The file is generated from the structure of a real capture: 40 benchmarks ×
 * 30,000 samples. Each measurement is a fresh `node --import tsx` process under
 * GNU time, reading the file through the adapter registry (auto-detection
 * included): wall time of the read+parse (printed by the child) and the
 * process's peak RSS. Prints the median over the runs.
 *
 *   npx tsx bench/parse-large-pytest-benchmark.ts [--runs 5]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const here = new URL('.', import.meta.url).pathname;

if (process.argv[2] === '--child') {
  const { readInputs } = await import('../action/src/adapters/index.js');
  const t0 = performance.now();
  const read = readInputs([process.argv[3]!], { cwd: process.cwd(), created: '2026-11-21T00:00:00Z' });
  const ms = performance.now() - t0;
  const samples = read.resultSet.benchmarks.reduce((n, b) => n + (b.metrics.time?.samples?.length ?? 0), 0);
  console.log(JSON.stringify({ ms, format: read.files[0]!.format, benchmarks: read.resultSet.benchmarks.length, samples }));
} else {
  const runsArg = process.argv.indexOf('--runs');
  const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-bench-'));
  try {
    const file = join(dir, 'pytest-benchmark-50mb.json');
    const capture = JSON.parse(readFileSync(join(here, '../action/test/fixtures/pytest-benchmark/pedantic-six-rounds.json'), 'utf8')) as {
      benchmarks: Record<string, unknown>[];
    };
    const template = capture.benchmarks[0]!;
    let seed = 42;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const benchmarks = Array.from({ length: 40 }, (_, i) => {
      const data = Array.from({ length: 30_000 }, () => 9e-6 * (1 + 0.1 * random()));
      return {
        ...template,
        name: `test_fib[${i}]`,
        fullname: `test_bench.py::test_fib[${i}]`,
        stats: { ...(template.stats as object), rounds: data.length, data },
      };
    });
    writeFileSync(file, JSON.stringify({ ...capture, benchmarks }, null, 4));
    const mb = statSync(file).size / 1e6;
    const results: { ms: number; rssMB: number }[] = [];
    for (let r = 0; r < runs; r++) {
      const run = spawnSync('/usr/bin/time', ['-v', process.execPath, '--import', 'tsx', join(here, 'parse-large-pytest-benchmark.ts'), '--child', file], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });
      if (run.status !== 0) throw new Error(run.stderr);
      const child = JSON.parse(run.stdout.trim().split('\n').pop()!) as { ms: number; format: string; benchmarks: number; samples: number };
      const rssKiB = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)![1]);
      if (child.format !== 'pytest-benchmark' || child.samples !== 40 * 30_000) throw new Error(`unexpected result ${run.stdout}`);
      results.push({ ms: child.ms, rssMB: (rssKiB * 1024) / 1e6 });
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`pytest-benchmark JSON ${mb.toFixed(1)} MB, 40 benchmarks × 30,000 samples, ${runs} runs:`);
    console.log(`  read + detect + parse: median ${median(results.map((r) => r.ms)).toFixed(0)} ms (runs: ${results.map((r) => r.ms.toFixed(0)).join(', ')})`);
    console.log(`  peak RSS of the whole process: median ${median(results.map((r) => r.rssMB)).toFixed(0)} MB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
