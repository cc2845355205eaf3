// The dashboard page's script (perf-gate dashboard; docs/dashboard.md).
// Plain browser JavaScript, no build step: the command copies this file
// beside index.html. It reads the model that data.js sets, draws each card's
// chart with uPlot only when the card scrolls near the viewport (200 charts
// of 1,000 points drawn at once would stall the page), filters the cards by
// benchmark id, and shows a run's commit under the cursor. Every text from
// the data goes into the page through textContent, never as HTML.
(function () {
  'use strict';

  const model = window.PERF_GATE_DASHBOARD;
  const cards = Array.from(document.querySelectorAll('article.card'));
  if (!model || typeof uPlot !== 'function') {
    const main = document.getElementById('charts');
    const note = document.createElement('p');
    note.className = 'error';
    note.textContent = 'data.js or uPlot.iife.min.js did not load: keep the files perf-gate dashboard wrote together.';
    main.prepend(note);
    return;
  }

  const testbeds = new Map(model.testbeds.map((t) => [t.id, { ...t, times: t.runs.map((r) => Date.parse(r.created) / 1000) }]));
  const COLORS = {
    median: '#0969da',
    band: 'rgba(9, 105, 218, 0.16)',
    edge: 'rgba(9, 105, 218, 0.35)',
    slower: '#cf222e',
    faster: '#1a7f37',
    tag: '#6e7781',
    environment: '#8250df',
  };
  const HEIGHT = 220;

  /** report/format.ts's formatNumber: 3 significant digits, no exponent noise. */
  function formatNumber(x) {
    if (!Number.isFinite(x)) return String(x);
    const abs = Math.abs(x);
    if (abs >= 100) return x.toFixed(abs >= 1000 ? 0 : 1);
    if (abs >= 1 || abs === 0) return x.toFixed(2);
    return x.toPrecision(3);
  }

  const shortCommit = (commit) => commit.slice(0, 7);
  const withUnit = (value, scale) => (scale.symbol ? `${formatNumber(value / scale.factor)} ${scale.symbol}` : formatNumber(value / scale.factor));
  const percent = (fraction) => `${fraction >= 0 ? '+' : ''}${(fraction * 100).toFixed(1)} %`;

  /** Vertical lines at the change points (dashed, red slower, green faster) and the release tags (grey, named). */
  function drawMarks(u, series, bed) {
    const ctx = u.ctx;
    const { top, height, left, width } = u.bbox;
    const px = uPlot.pxRatio;
    const line = (x, color, dash) => {
      const at = Math.round(u.valToPos(x, 'x', true));
      if (at < left || at > left + width) return null;
      ctx.strokeStyle = color;
      ctx.setLineDash(dash);
      ctx.beginPath();
      ctx.moveTo(at, top);
      ctx.lineTo(at, top + height);
      ctx.stroke();
      return at;
    };
    ctx.save();
    ctx.lineWidth = 1.5 * px;
    ctx.font = `${11 * px}px system-ui, sans-serif`;
    for (let r = 0; r < bed.runs.length; r++) {
      const tags = bed.runs[r].tags;
      if (tags.length === 0) continue;
      const at = line(bed.times[r], COLORS.tag, []);
      if (at === null) continue;
      ctx.fillStyle = COLORS.tag;
      ctx.fillText(tags.join(', '), at + 3 * px, top + 11 * px);
    }
    for (const c of series.changes) line(bed.times[c.run], c.regression ? COLORS.slower : COLORS.faster, [5 * px, 4 * px]);
    // An environment change (kernel, compiler, lockfile) starts a new stretch: dotted, labelled, its words in the tooltip.
    for (let r = 0; r < bed.runs.length; r++) {
      if (!bed.runs[r].environment) continue;
      const at = line(bed.times[r], COLORS.environment, [1.5 * px, 3 * px]);
      if (at === null) continue;
      ctx.fillStyle = COLORS.environment;
      ctx.fillText('environment', at + 3 * px, top + height - 4 * px);
    }
    ctx.restore();
  }

  /** The tooltip of the run under the cursor: commit, subject, time, median and spread, tags, change point. */
  function showTip(u, tip, series, bed) {
    const i = u.cursor.idx;
    if (i === null || i === undefined || u.cursor.left < 0) {
      tip.hidden = true;
      return;
    }
    const run = series.runs[i];
    const info = bed.runs[run];
    const change = series.changes.find((c) => c.run === run);
    const lines = [
      [`${shortCommit(info.commit)}`, 'commit'],
      [info.subject ?? '', 'subject'],
      [info.created.slice(0, 16).replace('T', ' '), 'time'],
      [`median ${withUnit(series.median[i], series.scale)}`, 'value'],
      [`middle half ${withUnit(series.low[i], series.scale)} – ${withUnit(series.high[i], series.scale)}`, 'spread'],
      [info.tags.length > 0 ? `tag ${info.tags.join(', ')}` : '', 'tags'],
      [info.environment ? `environment changed: ${info.environment}` : '', 'environment'],
      [change ? `change point: ${percent(change.change)} (${change.regression ? 'slower' : 'faster'})` : '', change && change.regression ? 'slower' : 'faster'],
      [change && change.accepted ? `accepted in #${change.accepted.pullRequest} by @${change.accepted.by}: ${change.accepted.reason}` : '', 'accepted'],
    ];
    tip.replaceChildren(
      ...lines
        .filter(([text]) => text !== '')
        .map(([text, cls]) => {
          const div = document.createElement('div');
          div.className = cls;
          div.textContent = text;
          return div;
        }),
    );
    tip.hidden = false;
    // Placed beside the cursor, in the card's coordinates (the card holds the tip), flipped left near the right edge.
    const over = u.over.getBoundingClientRect();
    const box = tip.parentElement.getBoundingClientRect();
    const x = over.left - box.left + u.cursor.left;
    const flip = x + 16 + tip.offsetWidth > box.width;
    tip.style.left = `${flip ? x - 16 - tip.offsetWidth : x + 16}px`;
    tip.style.top = `${over.top - box.top + Math.max(0, u.cursor.top - 20)}px`;
  }

  const charts = new Map();

  function draw(card) {
    const series = model.series[Number(card.dataset.series)];
    const bed = testbeds.get(series.testbed);
    const target = card.querySelector('.chart');
    const tip = card.querySelector('.tip');
    const factor = series.scale.factor;
    const data = [
      series.runs.map((r) => bed.times[r]),
      series.low.map((v) => v / factor),
      series.median.map((v) => v / factor),
      series.high.map((v) => v / factor),
    ];
    const symbol = series.scale.symbol;
    const chart = new uPlot(
      {
        width: target.clientWidth,
        height: HEIGHT,
        legend: { show: false },
        cursor: { y: false, points: { size: 7 } },
        scales: { x: { time: true } },
        series: [
          {},
          { label: 'p25', stroke: COLORS.edge, width: 0.5, points: { show: false } },
          { label: 'median', stroke: COLORS.median, width: 1.5 },
          { label: 'p75', stroke: COLORS.edge, width: 0.5, points: { show: false } },
        ],
        bands: [{ series: [3, 1], fill: COLORS.band }],
        axes: [{}, { size: 72, values: (u, splits) => splits.map((v) => (symbol ? `${formatNumber(v)} ${symbol}` : formatNumber(v))) }],
        hooks: {
          draw: [
            (u) => {
              drawMarks(u, series, bed);
              card.dataset.drawn = 'true';
            },
          ],
          setCursor: [(u) => showTip(u, tip, series, bed)],
        },
      },
      data,
      target,
    );
    charts.set(card, chart);
  }

  // Charts are drawn as their cards come within a screen of the viewport, once each.
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        draw(entry.target);
      }
    },
    { rootMargin: '400px 0px' },
  );
  for (const card of cards) observer.observe(card);

  window.addEventListener('resize', () => {
    for (const [card, chart] of charts) chart.setSize({ width: card.querySelector('.chart').clientWidth, height: HEIGHT });
  });

  // The search box keeps the cards whose benchmark id contains the text (any case).
  const search = document.getElementById('search');
  const count = document.getElementById('count');
  search.addEventListener('input', () => {
    const term = search.value.trim().toLowerCase();
    let shown = 0;
    for (const card of cards) {
      const keep = term === '' || card.dataset.search.includes(term);
      card.hidden = !keep;
      if (keep) shown++;
    }
    count.textContent = `${shown} of ${cards.length} charts`;
  });
})();
