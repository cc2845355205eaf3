/**
 * Parsing speed and memory of the compiled-language adapters on large inputs:
 * a criterion `target/criterion` tree of 1,000 benchmarks (each with new/,
 * base/ and change/, 100 samples: criterion's default), and a 100,000-line
 * `go test -bench` log (10,000 benchmarks × `-count 10`, with -benchmem and
 * MB/s). Both are generated from the structure of real captures in
 * action/test/fixtures. Each measurement is a fresh `node --import tsx` process
 * under GNU time reading the input through the adapter registry (auto-detection
 * included): wall time of read+parse (printed by the child) and peak RSS.
 *
 *   npx tsx bench/parse-large-compiled.ts [--runs 5]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const here = new URL('.', import.meta.url).pathname;
const fixtures = join(here, '../action/test/fixtures');

if (process.argv[2] === '--child') {
  const { readInputs } = await import('../action/src/adapters/index.js');
  const t0 = performance.now();
  const read = readInputs([process.argv[3]!], { cwd: process.cwd(), created: '2026-11-21T00:00:00Z' });
  const ms = performance.now() - t0;
  const samples = read.resultSet.benchmarks.reduce((n, b) => n + (b.metrics.time?.samples?.length ?? 0), 0);
  console.log(
    JSON.stringify({
      ms,
      formats: [...new Set(read.files.map((f) => f.format))],
      files: read.files.length,
      benchmarks: read.resultSet.benchmarks.length,
      samples,
    }),
  );
} else {
  const runsArg = process.argv.indexOf('--runs');
  const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-bench-'));
  let seed = 7;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  try {
    // A criterion tree: 1,000 benchmarks, files shaped like the real capture.
    const tree = join(dir, 'criterion');
    const template = join(fixtures, 'criterion/target-criterion/sum/bytes/100');
    const estimates = readFileSync(join(template, 'new/estimates.json'), 'utf8');
    const tukey = readFileSync(join(template, 'new/tukey.json'), 'utf8');
    const change = readFileSync(join(template, 'change/estimates.json'), 'utf8');
    for (let i = 0; i < 1000; i++) {
      const [group, fn, value] = [`group${Math.floor(i / 20)}`, `f${i % 4}`, String(i)];
      const id = {
        group_id: group,
        function_id: fn,
        value_str: value,
        throughput: { Bytes: 289 },
        full_id: `${group}/${fn}/${value}`,
        directory_name: `${group}/${fn}/${value}`,
        title: `${group}/${fn}/${value}`,
      };
      const iters = Array.from({ length: 100 }, (_, k) => 2000 * (k + 1));
      const sample = { sampling_mode: 'Linear', iters, times: iters.map((n) => n * 165 * (1 + 0.05 * random())) };
      for (const side of ['new', 'base']) {
        const folder = join(tree, group, fn, value, side);
        mkdirSync(folder, { recursive: true });
        writeFileSync(join(folder, 'benchmark.json'), JSON.stringify(id));
        writeFileSync(join(folder, 'estimates.json'), estimates);
        writeFileSync(join(folder, 'sample.json'), JSON.stringify(sample));
        writeFileSync(join(folder, 'tukey.json'), tukey);
      }
      mkdirSync(join(tree, group, fn, value, 'change'), { recursive: true });
      writeFileSync(join(tree, group, fn, value, 'change/estimates.json'), change);
    }
    // A go test -bench log: 100,000 result lines after the usual header.
    const log = join(dir, 'go-bench.txt');
    const lines = ['goos: linux', 'goarch: amd64', 'pkg: example.com/perfgate/gobench', 'cpu: AMD EPYC'];
    for (let b = 0; b < 10_000; b++) {
      for (let c = 0; c < 10; c++) {
        const ns = 228.9 * (1 + 0.1 * random());
        lines.push(
          `BenchmarkSum/case=${b}-2   \t    2000\t${ns.toFixed(1).padStart(12)} ns/op\t${(19e3 / ns).toFixed(2).padStart(7)} MB/s\t        10.00 items/op\t     160 B/op\t       1 allocs/op`,
        );
      }
    }
    lines.push('PASS', 'ok  \texample.com/perfgate/gobench\t123.456s', '');
    writeFileSync(log, lines.join('\n'));

    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    for (const [label, input, benchmarks, samples] of [
      ['criterion tree, 1,000 benchmarks × 100 samples (9,000 files: new/, base/, change/)', tree, 1000, 100_000],
      ['go test -bench log, 100,000 result lines (10,000 benchmarks × -count 10)', log, 10_000, 100_000],
    ] as const) {
      const results: { ms: number; rssMB: number }[] = [];
      for (let r = 0; r < runs; r++) {
        const run = spawnSync('/usr/bin/time', ['-v', process.execPath, '--import', 'tsx', join(here, 'parse-large-compiled.ts'), '--child', input], {
          encoding: 'utf8',
          maxBuffer: 1 << 26,
        });
        if (run.status !== 0) throw new Error(run.stderr);
        const child = JSON.parse(run.stdout.trim().split('\n').pop()!) as { ms: number; benchmarks: number; samples: number };
        if (child.benchmarks !== benchmarks || child.samples !== samples) throw new Error(`unexpected result ${run.stdout}`);
        const rssKiB = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)![1]);
        results.push({ ms: child.ms, rssMB: (rssKiB * 1024) / 1e6 });
      }
      console.log(`${label}, ${runs} runs:`);
      console.log(
        `  read + detect + parse: median ${median(results.map((r) => r.ms)).toFixed(0)} ms (runs: ${results.map((r) => r.ms.toFixed(0)).join(', ')})`,
      );
      console.log(`  peak RSS of the whole process: median ${median(results.map((r) => r.rssMB)).toFixed(0)} MB`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
