/**
 * Benchmark of the whole `perf-gate compare` process (Node's start included) on
 * 1,000 benchmarks × 100 samples per side: wall time and peak memory, measured
 * with GNU time (`/usr/bin/time -v`) around the bundled CLI (action/dist/cli.js,
 * what users run). Prints medians over several runs and writes docs-ready Markdown.
 *
 *   npm run build && npm run bench:compare [-- --runs 7]
 *
 * `--prepare DIR` only writes the two input files (without planted
 * regressions) for perf-gate's own gate (perf-gate.yml at the root).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 7;
const BENCHMARKS = 1000;
const SAMPLES = 100;
const cli = new URL('../action/dist/cli.js', import.meta.url).pathname;

/** Deterministic pseudo-random numbers (mulberry32), so every run compares the same data. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function resultSet(seed: number, shiftEvery: number): string {
  const random = rng(seed);
  const benchmarks = Array.from({ length: BENCHMARKS }, (_, i) => {
    const level = 0.001 * (1 + (i % 50));
    // Every shiftEvery-th benchmark is 10 % slower on the current side: a realistic mix of verdicts.
    const factor = shiftEvery > 0 && i % shiftEvery === 0 ? 1.1 : 1;
    const samples = Array.from({ length: SAMPLES }, () => level * factor * (1 + 0.03 * (random() + random() + random() - 1.5)));
    return { id: `suite/bench-${i}`, status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples } } };
  });
  return JSON.stringify({ schema: 'perf-gate/results@1', created: '2026-11-21T00:00:00Z', benchmarks });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

const prepareArg = process.argv.indexOf('--prepare');
if (prepareArg > 0) {
  const out = process.argv[prepareArg + 1];
  if (!out) throw new Error('--prepare needs a folder');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'baseline.json'), resultSet(1, 0));
  writeFileSync(join(out, 'current.json'), resultSet(2, 0));
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'perf-gate-bench-'));
try {
  writeFileSync(join(dir, 'baseline.json'), resultSet(1, 0));
  writeFileSync(join(dir, 'current.json'), resultSet(2, 20));
  const walls: number[] = [];
  const rss: number[] = [];
  let verdictStatus = -1;
  for (let r = 0; r < RUNS; r++) {
    const out = spawnSync(
      '/usr/bin/time',
      ['-v', process.execPath, cli, 'compare', '--baseline', 'baseline.json', '--current', 'current.json', '--json', 'report.json'],
      { cwd: dir, encoding: 'utf8' },
    );
    if (out.error) throw new Error(`cannot run /usr/bin/time (apt-get install time): ${out.error.message}`);
    verdictStatus = out.status ?? -1;
    const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(out.stderr);
    const maxRss = /Maximum resident set size \(kbytes\): (\d+)/.exec(out.stderr);
    if (!wall || !maxRss) throw new Error(`unexpected GNU time output:\n${out.stderr.slice(-2000)}`);
    walls.push(Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]));
    rss.push(Number(maxRss[1]) * 1024);
  }
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const node = execFileSync(process.execPath, ['--version'], { encoding: 'utf8' }).trim();
  console.log(`perf-gate compare, ${BENCHMARKS} benchmarks × ${SAMPLES} samples per side, ${RUNS} runs`);
  console.log(`machine: ${cpus().length} × ${cpu}, Node ${node}; exit status ${verdictStatus} (1 = the planted regressions failed the gate)`);
  console.log(`| wall time, median (min–max) | peak RSS, median |`);
  console.log(`|---|---|`);
  console.log(`| ${median(walls).toFixed(2)} s (${Math.min(...walls).toFixed(2)}–${Math.max(...walls).toFixed(2)}) | ${(median(rss) / 1e6).toFixed(0)} MB |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
