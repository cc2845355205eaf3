/**
 * The dashboard's two generated files: index.html (every chart's card, the
 * regressions since the last release, the search box: all text escaped with
 * escapeHtml) and data.js (the model, as a script that sets a global, since
 * a page opened from file:// cannot fetch() a JSON file in Chromium). The
 * page's script (report/dashboard/dashboard.js) draws each card's chart when
 * it scrolls into view. Pure: model in, text out.
 */
import { escapeHtml } from './escape-html.js';
import { formatChange, formatValue, plural, shortCommit } from './format.js';
import type { DashboardChange, DashboardModel, DashboardSeries, DashboardTestbed } from './dashboard-data.js';

/** The global data.js sets and dashboard.js reads. */
export const DASHBOARD_GLOBAL = 'PERF_GATE_DASHBOARD';

/** The files index.html loads, beside it in the output folder. */
export const DASHBOARD_FILES = {
  uplotJs: 'uPlot.iife.min.js',
  uplotCss: 'uPlot.min.css',
  script: 'dashboard.js',
  style: 'dashboard.css',
  data: 'data.js',
} as const;

/**
 * data.js: the model as a script. `<` is written as \u003c so no string of
 * the data (a benchmark named `</script>`) can end a script element if the
 * file is ever inlined; JSON is otherwise valid JavaScript.
 */
export function dashboardDataScript(model: DashboardModel): string {
  const json = JSON.stringify(model)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `window.${DASHBOARD_GLOBAL} = ${json};\n`;
}

// Scripts only from the output folder, no inline script, no network: a second fence behind escapeHtml.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

/** index.html. */
export function renderDashboardHtml(model: DashboardModel): string {
  const testbeds = new Map(model.testbeds.map((t) => [t.id, t]));
  const regressed = model.series.map((s, i) => ({ s, i })).filter(({ s }) => s.regressedSinceTag);
  const cards = model.series.map((s, i) => card(s, i, testbeds.get(s.testbed)!));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>perf-gate dashboard</title>
<link rel="stylesheet" href="${DASHBOARD_FILES.uplotCss}">
<link rel="stylesheet" href="${DASHBOARD_FILES.style}">
</head>
<body>
<header>
<h1>perf-gate dashboard</h1>
<p class="meta">${escapeHtml(`${plural(model.series.length, 'series', 'series')} · ${model.testbeds.map(testbedLine).join(' · ')} · generated ${model.generated.slice(0, 16).replace('T', ' ')} UTC`)}</p>
<p class="legend"><span class="key median"></span> median of each run <span class="key band"></span> middle half of its samples <span class="key slower"></span> change point, slower <span class="key faster"></span> faster <span class="key tag"></span> release tag (${escapeHtml(model.tagPattern)})</p>
<label class="search">Filter benchmarks <input id="search" type="search" placeholder="benchmark id contains…" autocomplete="off" spellcheck="false"></label>
<span id="count">${model.series.length} of ${model.series.length} charts</span>
</header>
${regressionList(model, regressed)}
<main id="charts">
${cards.join('\n')}
</main>
<noscript><p>The charts need JavaScript; the list above and each card's summary do not.</p></noscript>
<script src="${DASHBOARD_FILES.uplotJs}"></script>
<script src="${DASHBOARD_FILES.data}"></script>
<script src="${DASHBOARD_FILES.script}"></script>
</body>
</html>
`;
}

function testbedLine(t: DashboardTestbed): string {
  const tag = t.lastTag ? `, last release ${t.lastTag.name} at ${shortCommit(t.runs[t.lastTag.run]!.commit)}` : ', no release tag on its runs';
  return `testbed ${t.id}: ${plural(t.runs.length, 'run')}${tag}`;
}

const seriesName = (s: DashboardSeries): string => `${s.benchmark} · ${s.metric} · ${s.testbed}`;

/** "since v1.2.0", per testbed when they differ. */
function sinceText(model: DashboardModel): string {
  const tags = [...new Set(model.testbeds.map((t) => t.lastTag?.name ?? null))];
  if (tags.length === 1) return tags[0] === null ? 'in the whole history (no release tag)' : `since ${tags[0]}`;
  return "since each testbed's last release tag";
}

function changeText(c: DashboardChange, s: DashboardSeries, t: DashboardTestbed): string {
  const run = t.runs[c.run]!;
  return `${formatChange(c.change, c.interval)} ${c.regression ? 'slower' : 'faster'} at ${shortCommit(t.runs[c.previousRun]!.commit)}..${shortCommit(run.commit)} (${run.created.slice(0, 10)})`;
}

const SHOWN_REGRESSIONS = 8;

function regressionList(model: DashboardModel, regressed: readonly { s: DashboardSeries; i: number }[]): string {
  const testbeds = new Map(model.testbeds.map((t) => [t.id, t]));
  const head = `<h2>Regressions ${escapeHtml(sinceText(model))} (${regressed.length})</h2>`;
  if (regressed.length === 0) return `<section id="regressions">${head}<p>None: no change point after the last release tag is a regression.</p></section>`;
  const items = regressed.map(({ s, i }) => {
    const t = testbeds.get(s.testbed)!;
    const after = t.lastTag?.run ?? -1;
    const steps = s.changes.filter((c) => c.regression && c.run > after).map((c) => changeText(c, s, t));
    return `<li><a href="#s-${i}">${escapeHtml(seriesName(s))}</a>: ${escapeHtml(steps.join('; '))}</li>`;
  });
  // The first few stay in view; a long list would push every chart below the fold.
  const more =
    items.length > SHOWN_REGRESSIONS
      ? `\n<details><summary>${items.length - SHOWN_REGRESSIONS} more</summary><ol start="${SHOWN_REGRESSIONS + 1}">\n${items.slice(SHOWN_REGRESSIONS).join('\n')}\n</ol></details>`
      : '';
  return `<section id="regressions">${head}\n<ol>\n${items.slice(0, SHOWN_REGRESSIONS).join('\n')}\n</ol>${more}</section>`;
}

function card(s: DashboardSeries, i: number, t: DashboardTestbed): string {
  const last = s.median.at(-1);
  const facts = [plural(s.median.length, 'run'), last === undefined ? '' : `latest ${formatValue(last, s.scale)}`, `${s.direction} is better`].filter(
    (x) => x !== '',
  );
  const changes = s.changes.length === 0 ? 'no change point' : `change points: ${s.changes.map((c) => changeText(c, s, t)).join('; ')}`;
  const badge = s.regressedSinceTag ? ` <span class="badge">${escapeHtml(t.lastTag ? `regressed since ${t.lastTag.name}` : 'regressed')}</span>` : '';
  return `<article class="card${s.regressedSinceTag ? ' regressed' : ''}" id="s-${i}" data-series="${i}" data-search="${escapeHtml(s.benchmark.toLowerCase())}">
<h3><span class="bench">${escapeHtml(s.benchmark)}</span> <span class="metric">${escapeHtml(s.metric)}</span> <span class="testbed">${escapeHtml(s.testbed)}</span>${badge}</h3>
<p class="summary">${escapeHtml(`${facts.join(' · ')} · ${changes}`)}</p>
<div class="chart"></div>
<div class="tip" hidden></div>
</article>`;
}
