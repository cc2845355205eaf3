/**
 * The two-stage replay's tables (docs/detection.md, "Two stages"): per load,
 * each design's rates per benchmark and per 20-benchmark pull request, and
 * its runner time per pull request.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataFile, Load } from '../detect/data-file.js';
import { wilsonInterval } from '../detect/stats/wilson.js';
import { DESIGNS, pullRequests, replayLoad, REPLAY_PLAN, type ReplayPlan, type RowOutcome } from './analyse.js';
import { DEFAULT_SCREEN_ALPHA } from '../../action/src/gate/index.js';

/** Seconds one `gcc -O2` build of the workload takes here: the median of three real compiles. */
export function measureBuildSeconds(source: string): number {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-two-stage-build-'));
  try {
    const times = [0, 1, 2].map(() => {
      const t0 = performance.now();
      execFileSync('gcc', ['-O2', '-o', join(dir, 'work'), source], { stdio: 'pipe' });
      return (performance.now() - t0) / 1000;
    });
    return times.sort((a, b) => a - b)[1]!;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;

function rate(rows: readonly RowOutcome[], slowdown: number, design: 'stored' | 'twoStage' | 'interleaved', status: string): string {
  const these = rows.filter((r) => r.slowdown === slowdown);
  const hits = these.filter((r) => r[design].status === status).length;
  const [lo, hi] = wilsonInterval(hits, these.length);
  return `${pct(hits / Math.max(1, these.length))} (${pct(lo)}–${pct(hi)})`;
}

/** Screen levels the tuning table tries; the default is DEFAULT_SCREEN_ALPHA. */
const SCREEN_LEVELS = [0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9];

/**
 * How the screen's level trades the second stage's cost against what it
 * catches (both loads pooled): the tuning behind DEFAULT_SCREEN_ALPHA.
 */
function tuningTable(data: DataFile, plan: ReplayPlan, prs: number): string[] {
  const lines = [
    '| screen level | A/A rows sent on | A/A PRs that ran the second stage | false alarms per PR | +5 % caught | +10 % caught | runner time per A/A PR: median | mean |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const alpha of SCREEN_LEVELS) {
    const rows = (['quiet', 'busy'] as const).flatMap((load) => replayLoad(data, load, { ...plan, screenAlpha: alpha }));
    const aa = rows.filter((r) => r.slowdown === 0);
    const pr = pullRequests(rows, 'twoStage', 20, prs, plan.seed);
    const stored = pullRequests(rows, 'stored', 20, prs, plan.seed);
    const caught = (s: number): string => {
      const these = rows.filter((r) => r.slowdown === s);
      return pct(these.filter((r) => r.twoStage.status === 'regressed').length / these.length);
    };
    lines.push(
      `| ${alpha}${alpha === DEFAULT_SCREEN_ALPHA ? ' (default)' : ''} | ${pct(aa.filter((r) => r.twoStage.suspect).length / aa.length)} | ${pct(pr.confirmed)} | ${pct(pr.failed)} | ${caught(5)} | ${caught(10)} | ${(pr.median / stored.median).toFixed(2)}× | ${(pr.mean / stored.mean).toFixed(2)}× |`,
    );
  }
  return lines;
}

/** The tables of every load, pooled last, then the screen's tuning. */
export function twoStageMarkdown(data: DataFile, buildSeconds: number, prs = 500): string {
  const plan = { ...REPLAY_PLAN, buildSeconds };
  const byLoad = new Map<Load | 'pooled', RowOutcome[]>();
  for (const load of ['quiet', 'busy'] as const) byLoad.set(load, replayLoad(data, load, plan));
  byLoad.set('pooled', [...byLoad.get('quiet')!, ...byLoad.get('busy')!]);
  const lines: string[] = [];
  for (const [load, rows] of byLoad) {
    const n = (s: number): number => rows.filter((r) => r.slowdown === s).length;
    const storedPrs = pullRequests(rows, 'stored', 20, prs, plan.seed);
    lines.push(
      `**${load}**: ${n(0)} A/A rows, ${n(5)} rows 5 % slower, ${n(10)} rows 10 % slower; ${prs} resampled pull requests of 20 benchmarks.`,
      '',
      '| design | false alarms per benchmark | per 20-benchmark PR | A/A unchanged | +5 % caught (2 % tolerance) | +10 % caught (5 %) | PRs that ran the second stage | runner time per A/A PR: median | mean |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const d of DESIGNS) {
      const pr = pullRequests(rows, d.key, 20, prs, plan.seed);
      const ratio = (x: number, base: number): string => `${x.toFixed(1)} s (${(x / base).toFixed(2)}×)`;
      lines.push(
        `| ${d.label} | ${rate(rows, 0, d.key, 'regressed')} | ${pct(pr.failed)} | ${rate(rows, 0, d.key, 'unchanged')} | ${rate(rows, 5, d.key, 'regressed')} | ${rate(rows, 10, d.key, 'regressed')} | ${d.key === 'twoStage' ? pct(pr.confirmed) : d.key === 'interleaved' ? '100 %' : '–'} | ${ratio(pr.median, storedPrs.median)} | ${ratio(pr.mean, storedPrs.mean)} |`,
      );
    }
    lines.push('');
  }
  lines.push('**Tuning the screen** (both loads pooled; runner time relative to the stored baseline only):', '', ...tuningTable(data, plan, prs));
  return `${lines.join('\n')}\n`;
}
