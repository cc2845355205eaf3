import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { newResultSet } from '../../src/model/index.js';
import { runCli } from '../support/cli.js';
import { commitChain } from '../support/commit-chain.js';
import { openFolder, workRepo } from '../support/history.js';
import { seriesWithSteps } from '../support/synthetic-series.js';
import { tempDir } from '../support/temp.js';

/**
 * `perf-gate dashboard` end to end, in a real Chromium: a git repository of
 * 60 commits on main, one run of each in a history folder, release tag v1
 * (annotated) at commit 30 and a tag `nightly` at 35 that is no release.
 *
 * - `parse/small` gets 10 % slower at commit 45: the regression since v1,
 *   listed first;
 * - `parse/large` got 10 % slower at commit 15, before v1: a change point, no
 *   regression since the release;
 * - `serve` gets 12 % more throughput at commit 40: an improvement;
 * - a benchmark named like an HTML injection, and a commit subject with a
 *   script element: shown as text, never run.
 *
 * The page is opened from file://, as a downloaded artifact is. Chromium is
 * Debian's (scripts/install/10-debian.sh); PERF_GATE_CHROMIUM overrides its path.
 */
const CHROMIUM = process.env.PERF_GATE_CHROMIUM ?? '/usr/bin/chromium';
const HOSTILE = 'view/<img src=x onerror="window.__injected=1">';
const root = new URL('../../../', import.meta.url).pathname;

describe('perf-gate dashboard in a browser', () => {
  const repo = workRepo(tempDir('perf-gate-dashboard-'));
  const commits: string[] = [];
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `Chromium is missing at ${CHROMIUM}: the dashboard's browser test needs it. Install it with npm run setup (scripts/install/10-debian.sh: apt-get install chromium), or set PERF_GATE_CHROMIUM to a Chromium binary.`,
    );
    const small = seriesWithSteps(1, 60, 0.01, [{ at: 45, size: 0.1 }]);
    const large = seriesWithSteps(2, 60, 0.01, [{ at: 15, size: 0.1 }]);
    const rate = seriesWithSteps(3, 60, 0.01, [{ at: 40, size: 0.12 }]);
    const steady = seriesWithSteps(4, 60, 0.01);
    commits.push(...commitChain(repo, 60, { 50: 'speed up <script>window.__injected=2</script>' }, { 30: 'v1', 35: 'nightly' }));
    const store = openFolder(join(repo, 'history'));
    for (let i = 0; i < 60; i++) {
      const commit = commits[i]!;
      const samples = (level: number, scale: number): number[] => [0.99, 1, 1.01, 0.995, 1.005].map((f) => level * f * scale);
      const set = newResultSet(new Date(Date.UTC(2026, 9, 1) + i * 3600_000).toISOString(), [
        { id: 'parse/small', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: samples(small[i]!, 1e-5) } } },
        { id: 'parse/large', status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: samples(large[i]!, 1e-3) } } },
        { id: 'serve', status: 'ok', metrics: { throughput: { unit: '1/s', direction: 'higher', samples: samples(rate[i]!, 10) } } },
        { id: HOSTILE, status: 'ok', metrics: { time: { unit: 's', direction: 'lower', samples: samples(steady[i]!, 1e-4) } } },
      ]);
      await store.append({ ...set, commit, testbed: { id: 'vm' } }, { commit, testbed: 'vm' });
    }
    const r = await runCli(['dashboard', '--out', 'site', '--history', 'history'], repo, process.env);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /wrote 4 chart\(s\) from 60 run\(s\) on vm, 1 regressed since the last release tag, to site\/index\.html/);

    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.on('console', (m) => void (m.type() === 'error' && problems.push(`console: ${m.text()}`)));
    page.on('pageerror', (e) => void problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (q) => void problems.push(`request failed: ${q.url()}`));
    await page.goto(pathToFileURL(join(repo, 'site', 'index.html')).href);
  });

  after(async () => {
    await browser?.close();
  });

  test('the site is self-contained: its files, no network, no errors', async () => {
    assert.deepEqual(readdirSync(join(repo, 'site')).sort(), ['dashboard.css', 'dashboard.js', 'data.js', 'index.html', 'uPlot.iife.min.js', 'uPlot.min.css']);
    const html = readFileSync(join(repo, 'site', 'index.html'), 'utf8');
    assert.doesNotMatch(html, /https?:\/\//, 'nothing from a CDN');
    await page.waitForFunction(() => document.querySelectorAll('article.card[data-drawn]').length > 0);
    assert.deepEqual(problems, []);
  });

  test('the regression since the last release tag is listed first; the older step and the improvement are not', async () => {
    const listed = await page.locator('#regressions li').allTextContents();
    assert.equal(listed.length, 1, listed.join('\n'));
    assert.match(
      listed[0]!,
      new RegExp(`^parse/small · time · vm: \\+\\d+\\.\\d % \\[.*\\] slower at ${commits[44]!.slice(0, 7)}\\.\\.${commits[45]!.slice(0, 7)}`),
    );
    assert.match(await page.locator('#regressions h2').innerText(), /Regressions since v1 \(1\)/);
    const order = await page.locator('article.card .bench').allTextContents();
    assert.equal(order[0], 'parse/small', order.join(', '));
    assert.deepEqual(order.slice(1).sort(), [HOSTILE, 'parse/large', 'serve'].sort());
    assert.match(await page.locator('article.card').first().locator('.badge').innerText(), /regressed since v1/);
  });

  test('every chart draws when scrolled to, with its change points marked', async () => {
    const cards = page.locator('article.card');
    for (let i = 0; i < (await cards.count()); i++) await cards.nth(i).scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () => [...document.querySelectorAll('article.card')].every((c) => c instanceof HTMLElement && c.dataset.drawn === 'true'),
      undefined,
      { timeout: 10_000 },
    );
    // Per card: painted pixels, and pixels of the slower (red) and faster (green) change-point colours.
    const paint = await page.evaluate(() =>
      [...document.querySelectorAll('article.card')].map((card) => {
        const canvas = card.querySelector('canvas')!;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let painted = 0;
        let red = 0;
        let green = 0;
        for (let p = 0; p < data.length; p += 4) {
          if (data[p + 3]! === 0) continue;
          painted++;
          if (data[p]! > 180 && data[p + 1]! < 70 && data[p + 2]! < 80) red++;
          if (data[p]! < 60 && data[p + 1]! > 100 && data[p + 2]! < 80) green++;
        }
        return { bench: card.querySelector('.bench')!.textContent, painted, red, green };
      }),
    );
    const of = (bench: string) => paint.find((p) => p.bench === bench)!;
    for (const p of paint) assert.ok(p.painted > 2000, `${p.bench}: the canvas is blank (${p.painted} painted pixels)`);
    assert.ok(of('parse/small').red > 50 && of('parse/small').green === 0, JSON.stringify(of('parse/small')));
    assert.ok(of('parse/large').red > 50, JSON.stringify(of('parse/large')));
    assert.ok(of('serve').green > 50 && of('serve').red === 0, JSON.stringify(of('serve')));
    assert.ok(of(HOSTILE).red === 0 && of(HOSTILE).green === 0, `the steady benchmark has no change point: ${JSON.stringify(of(HOSTILE))}`);
    assert.deepEqual(problems, []);
  });

  test('hovering a point shows its commit and value', async () => {
    const first = page.locator('article.card').first();
    await first.scrollIntoViewIfNeeded();
    const over = await first.locator('.u-over').boundingBox();
    assert.ok(over);
    // The right edge of the plot is the newest run.
    await page.mouse.move(over.x + over.width - 1, over.y + over.height / 2);
    const tip = first.locator('.tip');
    await tip.waitFor({ state: 'visible', timeout: 5000 });
    const text = await tip.innerText();
    assert.match(text, new RegExp(`^${commits[59]!.slice(0, 7)}\\n`), text);
    assert.match(text, /median \d+(\.\d+)? µs/, text);
    // Ten runs back: commit 50, whose subject holds a script element, shown as text.
    await page.mouse.move(over.x + over.width * (50 / 59), over.y + over.height / 2);
    await page.waitForFunction((sha) => document.querySelector('article.card .tip .commit')?.textContent === sha, commits[50]!.slice(0, 7), { timeout: 5000 });
    assert.equal(await tip.locator('.subject').innerText(), 'speed up <script>window.__injected=2</script>');
    await page.mouse.move(0, 0);
  });

  test('untrusted names and subjects are text, never markup', async () => {
    assert.equal(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected), undefined);
    assert.equal(await page.locator('article.card img').count(), 0);
    assert.ok((await page.locator('article.card .bench').allTextContents()).includes(HOSTILE));
  });

  test('the search box keeps the benchmarks whose id contains the text', async () => {
    const visible = async (): Promise<string[]> => page.locator('article.card:visible .bench').allTextContents();
    await page.fill('#search', 'PARSE');
    assert.deepEqual((await visible()).sort(), ['parse/large', 'parse/small']);
    assert.equal(await page.locator('#count').innerText(), '2 of 4 charts');
    await page.fill('#search', 'serv');
    assert.deepEqual(await visible(), ['serve']);
    await page.fill('#search', 'no such benchmark');
    assert.deepEqual(await visible(), []);
    await page.fill('#search', '');
    assert.equal((await visible()).length, 4);
    assert.deepEqual(problems, []);
  });

  test('the screenshot for docs/dashboard.md', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    const first = page.locator('article.card').first();
    const over = await first.locator('.u-over').boundingBox();
    assert.ok(over);
    await page.mouse.move(over.x + over.width * (46 / 59), over.y + over.height / 2);
    await first.locator('.tip').waitFor({ state: 'visible' });
    mkdirSync(join(root, 'docs', 'images'), { recursive: true });
    await page.screenshot({ path: join(root, 'docs', 'images', 'dashboard.png') });
  });

  test('an empty history and an unknown testbed are clear errors (exit 2)', async () => {
    const empty = await runCli(['dashboard', '--out', 'site2', '--history', 'no-runs'], repo, process.env);
    assert.equal(empty.status, 2);
    assert.match(empty.stderr, /holds no runs to chart/);
    const testbed = await runCli(['dashboard', '--out', 'site2', '--history', 'history', '--testbed', 'metal'], repo, process.env);
    assert.equal(testbed.status, 2);
    assert.match(testbed.stderr, /--testbed: .* holds no runs of testbed metal; it holds runs of vm/);
    assert.equal((await runCli(['dashboard', '--history', 'history'], repo, process.env)).status, 2, '--out is required');
  });
});
