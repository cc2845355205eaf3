/**
 * The cost of counting (docs/counting.md, "The slowdown"): for the commands
 * of examples/c-counting (the sieve of examples/cli-hyperfine, 1M and 4M),
 * the wall time of one timed run against one counted run, and how many
 * counted repeats a stable count needs.
 *
 * - timed: hyperfine --shell=none `sh -c CMD`, as a `commands:` suite times
 *   it (--runs 10 --warmup 1); the median of its runs.
 * - counted (cachegrind): one `count-repeat: 1` run through perf-gate's own
 *   counter, as a `measure: counts` suite counts, each run timed from spawn
 *   to exit; `--repeats` of them, the median. The same for an empty program
 *   (`./sieve 10`), which is valgrind's start-up alone.
 * - counted (perf stat): the same through `counter: perf`, whether or not
 *   this machine's perf can count (the wrapper's cost is what is measured).
 * - beyond start-up: (counted − counted empty) / (timed − timed empty), the
 *   slowdown of the program's own work once valgrind's fixed start-up is
 *   paid.
 * - stability: the instruction counts of the counted repeats: distinct
 *   values, and their spread as a share of the median.
 *
 *   npx tsx bench/counting-overhead.ts [--repeats 7]
 *
 * Prints a Markdown table; about two minutes here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { countedBenchmark } from '../action/src/runner/counted-rows.js';
import { cachegrindTool, valgrindVersion } from '../action/src/runner/cachegrind-tool.js';
import { countCommands, type CountingTool } from '../action/src/runner/counter.js';
import { perfTool } from '../action/src/runner/perf-tool.js';
import { median } from '../action/src/stats/index.js';
import { positiveWholeFlag as flag } from './args.js';

const REPEATS = flag('repeats', 7);
const ROOT = new URL('..', import.meta.url).pathname;
const COMMANDS = [
  { name: 'sieve 10 (start-up only)', command: './sieve 10' },
  { name: 'sieve 1M', command: './sieve 1000000' },
  { name: 'sieve 4M', command: './sieve 4000000' },
];

/** The median wall time, in seconds, of hyperfine timing `command` as a commands: suite does. */
function timed(command: string, dir: string): number {
  const out = join(dir, 'hyperfine.json');
  execFileSync('hyperfine', ['--runs', '10', '--warmup', '1', '--shell=none', '--style', 'none', '--export-json', out, `sh -c '${command}'`], {
    cwd: dir,
    stdio: 'ignore',
  });
  const result = JSON.parse(readFileSync(out, 'utf8')) as { results: { median: number }[] };
  return result.results[0]!.median;
}

interface Counted {
  /** Median wall time of one counted run, seconds. */
  seconds: number;
  /** The instruction count of each repeat (empty when the tool counted none). */
  instructions: number[];
}

/** `REPEATS` counted runs of `command`, one at a time, each timed from spawn to exit. */
async function counted(tool: CountingTool, command: string, dir: string): Promise<Counted> {
  const seconds: number[] = [];
  const instructions: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const started = performance.now();
    const [runs] = await countCommands({
      tool,
      commands: [command],
      repeats: 1,
      cwd: dir,
      env: process.env,
      timeoutMs: 300_000,
      workDir: join(dir, `${tool.name}-${i}`),
    });
    seconds.push((performance.now() - started) / 1000);
    const row = countedBenchmark(command, runs!, 1, tool);
    const count = row.metrics.instructions?.samples?.[0];
    if (count !== undefined) instructions.push(count);
  }
  return { seconds: median(seconds), instructions };
}

const ms = (s: number): string => (s < 1 ? `${(s * 1000).toFixed(1)} ms` : `${s.toFixed(2)} s`);

function stability(counts: readonly number[]): string {
  if (counts.length === 0) return 'not counted here';
  const distinct = new Set(counts).size;
  const spread = (Math.max(...counts) - Math.min(...counts)) / median(counts);
  return `${distinct} distinct of ${counts.length}, spread ${(spread * 100).toPrecision(2)} %`;
}

async function main(): Promise<void> {
  if (valgrindVersion(process.env) === null) throw new Error('valgrind is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-count-overhead-'));
  const rows: string[] = [];
  try {
    execFileSync('cc', ['-O2', '-o', join(dir, 'sieve'), join(ROOT, 'examples/cli-hyperfine/sieve.c')]);
    let startUp: { time: number; grind: number } | null = null;
    for (const { name, command } of COMMANDS) {
      const time = timed(command, dir);
      const grind = await counted(cachegrindTool, command, dir);
      const perf = await counted(perfTool, command, dir);
      // The first command does next to nothing: beyond it, what counting costs per second of the program's own work.
      const beyond = startUp ? `${((grind.seconds - startUp.grind) / (time - startUp.time)).toFixed(0)}×` : '–';
      startUp ??= { time, grind: grind.seconds };
      rows.push(
        `| ${name} | ${ms(time)} | ${ms(grind.seconds)} | ${(grind.seconds / time).toFixed(0)}× | ${beyond} | ${ms(perf.seconds)} | ${(perf.seconds / time).toFixed(1)}× | ${stability(grind.instructions)} | ${stability(perf.instructions)} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`Counting overhead: examples/cli-hyperfine/sieve.c (cc -O2), timed run median of 10, counted run median of ${REPEATS}`);
  console.log(
    `(${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${loadavg()[0]!.toFixed(1)} at the end, ${valgrindVersion(process.env)}, Node ${process.version})\n`,
  );
  console.log(
    '| command | timed run | counted run (cachegrind) | slowdown | slowdown beyond start-up | counted run (perf stat) | slowdown | cachegrind instructions | perf instructions |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |');
  for (const row of rows) console.log(row);
}

await main();
