/**
 * `perf-gate dashboard` at scale (docs/dashboard.md): 200 benchmarks ×
 * 1,000 runs, in two measures.
 *
 * - generation: a history folder of 1,000 runs × 200 benchmarks (5 samples
 *   each; a 5 % step in every fourth series, and one after the last release
 *   tag in every twentieth) of a real git repository of 1,000 commits
 *   tagged v0.1 … v0.9 every 100 commits, written once; then
 *   `node action/dist/cli.js dashboard` timed as a process from spawn to
 *   exit (reading the history, change points, git, writing the site),
 *   median of `--repeats`;
 * - loading: the site opened from file:// in Chromium (1200 × 800), from
 *   navigation until every chart in the first viewport has drawn, median of
 *   `--repeats` fresh pages.
 *
 *   npm run build && npm run bench:dashboard -- [--repeats 3] [--runs 1000]
 *
 * Writing the history takes a few minutes here; everything is removed at the end.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { newResultSet } from '../action/src/model/index.js';
import { median } from '../action/src/stats/index.js';
import { commitChain } from '../action/test/support/commit-chain.js';
import { openFolder, workRepo } from '../action/test/support/history.js';
import { seriesWithSteps } from '../action/test/support/synthetic-series.js';
import { positiveWholeFlag as flag } from './args.js';

const REPEATS = flag('repeats', 3);
const RUNS = flag('runs', 1000);
const SERIES = 200;
const ROOT = new URL('..', import.meta.url).pathname;
const CHROMIUM = process.env.PERF_GATE_CHROMIUM ?? '/usr/bin/chromium';

const levels = Array.from({ length: SERIES }, (_, i) => {
  const steps = i % 4 === 0 ? [{ at: Math.floor(RUNS * (0.3 + (0.6 * i) / SERIES)), size: 0.05 }] : [];
  if (i % 20 === 0) steps.push({ at: Math.floor(RUNS * 0.95), size: 0.06 });
  return seriesWithSteps(i + 1, RUNS, 0.02, steps);
});

async function writeHistory(repo: string, dir: string): Promise<void> {
  // Every 100th commit is a release, the last one before the steps at 95 % of the runs.
  const tags = Object.fromEntries(Array.from({ length: Math.floor((RUNS - 1) / 100) }, (_, k) => [(k + 1) * 100 - 1, `v0.${k + 1}`]));
  const commits = commitChain(repo, RUNS, {}, tags);
  const store = openFolder(dir);
  for (let run = 0; run < RUNS; run++) {
    const created = new Date(Date.UTC(2026, 0, 1) + run * 3600_000).toISOString();
    const benchmarks = levels.map((series, i) => ({
      id: `suite/bench-${i}`,
      status: 'ok' as const,
      metrics: { time: { unit: 's', direction: 'lower' as const, samples: [0.99, 1, 1.01, 0.995, 1.005].map((f) => series[run]! * f * 1e-5) } },
    }));
    await store.append({ ...newResultSet(created, benchmarks), commit: commits[run]!, testbed: { id: 'vm' } }, { commit: commits[run]!, testbed: 'vm' });
  }
}

/**
 * The command's wall time, and its CPU time (user + system, git included),
 * which a busy shared machine inflates far less: GNU time (/usr/bin/time)
 * reports both.
 */
function timeGeneration(repo: string): { wall: number; cpu: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const times = join(repo, 'times.txt');
    execFileSync(
      '/usr/bin/time',
      ['-o', times, '-f', '%e %U %S', 'node', join(ROOT, 'action/dist/cli.js'), 'dashboard', '--out', 'site', '--history', 'history'],
      { cwd: repo, stdio: 'ignore' },
    );
    const [elapsed, user, system] = readFileSync(times, 'utf8').trim().split(/\s+/).map(Number) as [number, number, number];
    wall.push(elapsed);
    cpu.push(user + system);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

/**
 * Navigation to the last chart of the first viewport drawn (the page marks a
 * card data-drawn after uPlot's first draw): wall time, and the renderer's
 * main-thread busy time until then (Chrome's TaskDuration metric), which
 * load on the machine inflates less.
 */
async function timeLoad(site: string): Promise<{ wall: number; busy: number; charts: number }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const wall: number[] = [];
    const busy: number[] = [];
    let charts = 0;
    for (let r = 0; r < REPEATS; r++) {
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable');
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const taskDuration = async (): Promise<number> => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN;
      const before = await taskDuration();
      const started = performance.now();
      await page.goto(pathToFileURL(join(site, 'index.html')).href);
      charts = await page
        .waitForFunction(
          () => {
            const visible = [...document.querySelectorAll<HTMLElement>('article.card')].filter((c) => {
              const box = c.getBoundingClientRect();
              return box.bottom > 0 && box.top < window.innerHeight;
            });
            return visible.length > 0 && visible.every((c) => c.dataset.drawn === 'true') ? visible.length : 0;
          },
          undefined,
          { timeout: 120_000, polling: 10 },
        )
        .then((h) => h.jsonValue());
      wall.push((performance.now() - started) / 1000);
      busy.push((await taskDuration()) - before);
      if (errors.length > 0) throw new Error(`the page failed: ${errors.join('; ')}`);
      await page.close();
    }
    return { wall: median(wall), busy: median(busy), charts };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'perf-gate-dashboard-bench-'));
  try {
    const repo = workRepo(work);
    const writing = performance.now();
    await writeHistory(repo, join(repo, 'history'));
    const written = (performance.now() - writing) / 1000;
    const generation = timeGeneration(repo);
    const load = await timeLoad(join(repo, 'site'));
    const size = (name: string): string => `${(statSync(join(repo, 'site', name)).size / 1e6).toFixed(1)} MB`;
    console.log(`Dashboard: ${SERIES} benchmarks × ${RUNS} runs, median of ${REPEATS}`);
    console.log(`(${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${loadavg()[0]!.toFixed(1)} at the end, Node ${process.version})\n`);
    console.log('| measure | wall time | CPU time |');
    console.log('| --- | ---: | ---: |');
    console.log(`| \`perf-gate dashboard\`, whole process, ${RUNS} runs in a folder | ${generation.wall.toFixed(2)} s | ${generation.cpu.toFixed(2)} s |`);
    console.log(
      `| page load from file:// until the first viewport's ${load.charts} charts have drawn (data.js ${size('data.js')}, index.html ${size('index.html')}) | ${load.wall.toFixed(2)} s | ${load.busy.toFixed(2)} s (renderer main thread) |`,
    );
    console.log(`| (writing the history, once) | ${written.toFixed(0)} s | |`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
