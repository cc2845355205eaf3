import { type DataFile, type Design, type Load, type Trial } from './data-file.js';
import { githubActionBenchmarkRule } from './rules/github-action-benchmark.js';
import { benchstatRule } from './rules/benchstat.js';
import { criterionRule } from './rules/criterion.js';
import { bencherRule } from './rules/bencher.js';
import {
  DEFAULT_BUDGET,
  OUT_OF_THE_BOX_BUDGET,
  TUNED_BUDGET,
  TUNED_WITH_DRIFT_FLOOR,
  perfGateRule,
  perfGateSuiteFlags,
  type PerfGateBudget,
} from './rules/perf-gate.js';
import type { Rule, TrialSamples } from './rules/rule.js';
import { mean, median, variance } from '../../action/src/stats/descriptive.js';
import { seededRandom } from '../../action/src/stats/prng.js';
import { shuffled } from './stats/shuffle.js';
import { wilsonInterval } from './stats/wilson.js';

/**
 * The cheap half of the detection benchmark: applies every rule to every
 * trial of a data file at 5, 10, 20 and 30 samples per side and renders
 * Markdown tables of false-alarm and detection rates with Wilson 95 %
 * intervals. A trial of K samples per side yields floor(K / k) disjoint
 * sub-trials at k samples: window j takes samples j·k … j·k + k − 1 of each
 * side (window 0 is "the first k samples"); for sequential blocks the
 * baseline and current windows are always K runs apart.
 */

export const SAMPLE_COUNTS = [5, 10, 20, 30];
export const DESIGNS: Design[] = ['sequential', 'interleaved'];
export const LOADS: Load[] = ['quiet', 'busy'];
export const SUITE_SIZE = 20;

export interface AnalysisOptions {
  /** Resampled 20-benchmark suites per design × load × k (on top of the disjoint ones). */
  suiteResamples: number;
  seed: number;
}

export const DEFAULT_ANALYSIS: AnalysisOptions = { suiteResamples: 500, seed: 11 };

/** The rules in table order. */
export function allRules(): Rule[] {
  return [
    perfGateRule(TUNED_BUDGET, '(2 %/1 %/0.01)'),
    perfGateRule(DEFAULT_BUDGET, '(5 %/1 %/0.01)'),
    perfGateRule(TUNED_BUDGET, '(2 %/1 %/0.01)', { ignorePairing: true }),
    perfGateRule(TUNED_BUDGET, '(2 %/1 %/0.01)', { useDrift: true }),
    perfGateRule(TUNED_WITH_DRIFT_FLOOR, '(2 %/1 %/0.01, drift floor 2 %)'),
    perfGateRule(OUT_OF_THE_BOX_BUDGET, '(defaults: 5 %/1 %/0.01, drift 2 %)'),
    githubActionBenchmarkRule(2.0),
    githubActionBenchmarkRule(1.1),
    benchstatRule,
    criterionRule,
    bencherRule,
  ];
}

/** The sub-trials at k samples per side. */
export function windows(trial: Trial, k: number, drift = 0): TrialSamples[] {
  const n = Math.min(trial.a.length, trial.b.length);
  const out: TrialSamples[] = [];
  for (let j = 0; (j + 1) * k <= n; j++)
    out.push({ baseline: trial.a.slice(j * k, (j + 1) * k), current: trial.b.slice(j * k, (j + 1) * k), paired: trial.design === 'interleaved', drift });
  return out;
}

/**
 * Between-run drift (SD of a block's log level) from sequential A/A trials:
 * Var(median log B − median log A) ≈ 2·drift² + 2·(π/2)·σ²/K, with σ the
 * within-block spread of log times (robust scales throughout; π/2 is the
 * variance factor of a median). This is what a testbed's baseline history tells a
 * user; here it is estimated in-sample from the same load condition (one
 * number from all its A/A trials, so the optimism is small).
 */
export function estimateDrift(trials: readonly Trial[]): number {
  const aa = trials.filter((t) => t.design === 'sequential' && t.slowdown === 0 && t.a.length > 1);
  if (aa.length < 3) return 0;
  const logs = (xs: readonly number[]): number[] => xs.map(Math.log);
  // Robust scales (1.4826 × MAD): one trial hit by a neighbour's build must not set the drift.
  const robustSd = (xs: readonly number[]): number => {
    const m = median(xs);
    return 1.4826 * median(xs.map((x) => Math.abs(x - m)));
  };
  const d = aa.map((t) => median(logs(t.b)) - median(logs(t.a)));
  const within = (median(aa.map((t) => (robustSd(logs(t.a)) ** 2 + robustSd(logs(t.b)) ** 2) / 2)) * (Math.PI / 2)) / (aa[0]?.a.length ?? 1);
  return Math.expm1(Math.sqrt(Math.max(0, robustSd(d) ** 2 / 2 - within)));
}

export interface Cell {
  flagged: number;
  n: number;
}

export interface RuleResult {
  rule: Rule;
  /** key: design|load|slowdown|k */
  cells: Map<string, Cell>;
  /** Set when the rule could not run (e.g. compareMetrics not implemented yet). */
  error: string | null;
}

export const cellKey = (design: Design, load: Load, slowdown: number, k: number): string => `${design}|${load}|${slowdown}|${k}`;

function evaluate(rule: Rule, groups: Map<string, TrialSamples[]>): RuleResult {
  const cells = new Map<string, Cell>();
  try {
    for (const [key, subs] of groups) {
      if (rule.designs && !rule.designs.some((d) => key.startsWith(`${d}|`))) continue;
      let flagged = 0;
      for (const s of subs) if (rule.flagsSlower(s)) flagged++;
      cells.set(key, { flagged, n: subs.length });
    }
    return { rule, cells, error: null };
  } catch (e) {
    return { rule, cells, error: e instanceof Error ? e.message : String(e) };
  }
}

export interface SuiteResult {
  design: Design;
  load: Load;
  k: number;
  disjoint: Cell;
  resampled: Cell;
}

function suiteRates(groups: Map<string, TrialSamples[]>, ks: number[], budget: PerfGateBudget, options: AnalysisOptions): SuiteResult[] {
  const random = seededRandom(options.seed);
  const out: SuiteResult[] = [];
  for (const design of DESIGNS)
    for (const load of LOADS)
      for (const k of ks) {
        const pool = groups.get(cellKey(design, load, 0, k)) ?? [];
        if (pool.length < SUITE_SIZE) continue;
        const disjoint: Cell = { flagged: 0, n: 0 };
        for (let g = 0; (g + 1) * SUITE_SIZE <= pool.length; g++) {
          disjoint.n++;
          if (perfGateSuiteFlags(pool.slice(g * SUITE_SIZE, (g + 1) * SUITE_SIZE), budget).some(Boolean)) disjoint.flagged++;
        }
        const resampled: Cell = { flagged: 0, n: 0 };
        for (let r = 0; r < options.suiteResamples; r++) {
          resampled.n++;
          if (perfGateSuiteFlags(shuffled(pool, random).slice(0, SUITE_SIZE), budget).some(Boolean)) resampled.flagged++;
        }
        out.push({ design, load, k, disjoint, resampled });
      }
  return out;
}

export interface NoiseSummary {
  design: Design;
  load: Load;
  /** Median over A/A trials of the per-run coefficient of variation of side A. */
  cv: number;
  /** SD of Δmean across A/A trials ÷ what independent samples with that CV predict. */
  inflation: number;
  /** Realised slowdown per nominal slowdown: median over trials of median(b)/median(a) − 1. */
  realised: Map<number, number>;
}

function noise(trials: readonly Trial[]): NoiseSummary[] {
  const out: NoiseSummary[] = [];
  for (const design of DESIGNS)
    for (const load of LOADS) {
      const mine = trials.filter((t) => t.design === design && t.load === load);
      const aa = mine.filter((t) => t.slowdown === 0);
      if (aa.length < 3) continue;
      const cvs = aa.map((t) => Math.sqrt(variance(t.a)) / mean(t.a));
      const cv = median(cvs);
      const deltas = aa.map((t) => mean(t.b) / mean(t.a) - 1);
      const k = aa[0]?.a.length ?? 1;
      const inflation = Math.sqrt(variance(deltas)) / (cv * Math.sqrt(2 / k));
      const realised = new Map<number, number>();
      for (const s of [...new Set(mine.map((t) => t.slowdown))].sort((x, y) => x - y))
        realised.set(s, median(mine.filter((t) => t.slowdown === s).map((t) => median(t.b) / median(t.a) - 1)));
      out.push({ design, load, cv, inflation, realised });
    }
  return out;
}

export interface Analysis {
  data: DataFile;
  ks: number[];
  slowdowns: number[];
  results: RuleResult[];
  /** Sub-trials per cell (same for every rule). */
  counts: Map<string, number>;
  /** Between-run drift per load, estimated from the sequential A/A trials. */
  drift: Map<Load, number>;
  suites: SuiteResult[] | null;
  suiteError: string | null;
  noise: NoiseSummary[];
}

export function analyse(data: DataFile, options: AnalysisOptions = DEFAULT_ANALYSIS, rules: Rule[] = allRules()): Analysis {
  const ks = SAMPLE_COUNTS.filter((k) => k <= data.samplesPerSide);
  const slowdowns = [...new Set(data.trials.map((t) => t.slowdown))].sort((x, y) => x - y);
  const drift = new Map(LOADS.map((load) => [load, estimateDrift(data.trials.filter((t) => t.load === load))] as const));
  const groups = new Map<string, TrialSamples[]>();
  for (const t of data.trials)
    for (const k of ks) {
      const key = cellKey(t.design, t.load, t.slowdown, k);
      const list = groups.get(key) ?? [];
      list.push(...windows(t, k, drift.get(t.load) ?? 0));
      groups.set(key, list);
    }
  const results = rules.map((r) => evaluate(r, groups));
  let suites: SuiteResult[] | null = null;
  let suiteError: string | null = null;
  try {
    suites = suiteRates(groups, ks, TUNED_BUDGET, options);
  } catch (e) {
    suiteError = e instanceof Error ? e.message : String(e);
  }
  const counts = new Map([...groups].map(([key, subs]) => [key, subs.length] as const));
  return { data, ks, slowdowns, results, counts, drift, suites, suiteError, noise: noise(data.trials) };
}

// ---- Markdown ---------------------------------------------------------------

const pct = (x: number, digits = 1): string => `${(x * 100).toFixed(digits)} %`;

function rate(cell: Cell | undefined): string {
  if (!cell || cell.n === 0) return '–';
  const [lo, hi] = wilsonInterval(cell.flagged, cell.n);
  return `${pct(cell.flagged / cell.n)} (${(lo * 100).toFixed(1)}–${(hi * 100).toFixed(1)})`;
}

interface Targets {
  falseAlarm: number;
  detect10: number;
  detect5: number;
}

/** issue 3 (sequential, per benchmark) and issue 6 (interleaved) targets. */
export function targetsFor(design: Design): Targets {
  return design === 'sequential' ? { falseAlarm: 0.01, detect10: 0.95, detect5: 0.8 } : { falseAlarm: 0.01, detect10: 0.95, detect5: 0.9 };
}

const share = (c: Cell | undefined): number => (c && c.n > 0 ? c.flagged / c.n : Number.NaN);

/** Smallest k at which a predicate on the cells holds, or null. */
function firstK(ks: number[], ok: (k: number) => boolean): number | null {
  for (const k of ks) if (ok(k)) return k;
  return null;
}

export function renderMarkdown(a: Analysis): string {
  const out: string[] = [];
  const d = a.data;
  out.push(
    `Data: ${d.mode} collection, ${d.trials.length} trials, ${d.samplesPerSide} samples per side, ` +
      `${Math.round(d.durationSeconds)} s, started ${d.started}; load average before ${d.machine.loadBefore.join(' / ')}, after ${d.machine.loadAfter.join(' / ')}.`,
  );
  const loads = d.trials
    .map((t) => t.load1)
    .filter((x): x is number => typeof x === 'number')
    .sort((x, y) => x - y);
  if (loads.length > 0)
    out.push(
      `1-minute load average at trial start (other users' work included): median ${median(loads).toFixed(2)}, range ${loads[0]?.toFixed(2)}–${loads[loads.length - 1]?.toFixed(2)}.`,
    );
  out.push(`Machine: ${d.machine.nproc} CPUs, ${d.machine.cpu}, kernel ${d.machine.kernel}, Node ${d.machine.node}, ${d.machine.gcc}.`);
  out.push(
    `Workload: ${d.calibration.iterations} iterations, A = ${(d.calibration.aSeconds * 1e3).toFixed(2)} ms per run ` +
      `(spawn overhead ${(d.calibration.overheadSeconds * 1e3).toFixed(2)} ms); B's extra work is scaled by 1 / ${d.calibration.loopShare.toFixed(3)} so the nominal slowdown applies to wall time.`,
  );
  out.push('');
  out.push('### Noise of this machine during the collection');
  out.push('');
  out.push(`| design | load | per-run CV (median) | SD of A/A Δmean ÷ independent prediction | realised slowdown (median of median(B)/median(A) − 1) |`);
  out.push('|---|---|---|---|---|');
  for (const n of a.noise)
    out.push(
      `| ${n.design} | ${n.load} | ${pct(n.cv, 2)} | ${n.inflation.toFixed(2)}× | ${[...n.realised].map(([s, r]) => `${s} %: ${pct(r, 2)}`).join(', ')} |`,
    );
  out.push('');
  out.push(
    `Between-run drift estimated from the sequential A/A blocks (used by the "+ drift" variant): ${[...a.drift].map(([l, v]) => `${l} ${pct(v, 2)}`).join(', ')}.`,
  );
  out.push('');
  for (const r of a.results) if (r.error) out.push(`**${r.rule.name} could not run:** ${r.error}`);
  out.push('');
  for (const design of DESIGNS)
    for (const load of LOADS) {
      const aaN = a.ks.map((k) => a.counts.get(cellKey(design, load, 0, k)) ?? 0);
      const abN = a.ks.map((k) => a.counts.get(cellKey(design, load, a.slowdowns[1] ?? 0, k)) ?? 0);
      if (a.slowdowns.every((sd) => (a.counts.get(cellKey(design, load, sd, a.ks[0] ?? 0)) ?? 0) === 0)) continue;
      out.push(
        `### ${design === 'sequential' ? 'Sequential blocks (stored baseline)' : 'Interleaved rounds'}, ${load === 'quiet' ? 'no added load' : 'other core busy'}`,
      );
      out.push('');
      out.push(
        `Rates with Wilson 95 % intervals. Sub-trials per cell: A/A ${a.ks.map((k, i) => `k=${k}: ${aaN[i]}`).join(', ')}; each A/B ${a.ks.map((k, i) => `k=${k}: ${abN[i]}`).join(', ')}.`,
      );
      out.push('');
      const header = ['rule', 'k', 'false alarms (A/A)', ...a.slowdowns.filter((s) => s > 0).map((s) => `detects +${s} %`)];
      out.push(`| ${header.join(' | ')} |`);
      out.push(`|${header.map(() => '---').join('|')}|`);
      for (const r of a.results) {
        if (r.error || (r.rule.designs && !r.rule.designs.includes(design))) continue;
        for (const k of a.ks) {
          const cells = a.slowdowns.map((s) => rate(r.cells.get(cellKey(design, load, s, k))));
          out.push(`| ${r.rule.name} | ${k} | ${cells.join(' | ')} |`);
        }
      }
      out.push('');
    }
  const pooled = (r: RuleResult, design: Design, slowdown: number, k: number): Cell | undefined => {
    const cells = LOADS.map((load) => r.cells.get(cellKey(design, load, slowdown, k))).filter((c): c is Cell => c !== undefined);
    return cells.length === 0 ? undefined : { flagged: cells.reduce((x, c) => x + c.flagged, 0), n: cells.reduce((x, c) => x + c.n, 0) };
  };
  const cellOf = (r: RuleResult, design: Design, load: Load | 'both', slowdown: number, k: number): Cell | undefined =>
    load === 'both' ? pooled(r, design, slowdown, k) : r.cells.get(cellKey(design, load, slowdown, k));
  out.push('### Summary at the target sample count, both loads pooled');
  out.push('');
  out.push('Sequential at k = 20 per side (issue 3), interleaved at 30 rounds (issue 6); Wilson 95 % intervals.');
  out.push('');
  out.push('| rule | design | k | false alarms (target ≤ 1 %) | detects +5 % (≥ 80 % seq, ≥ 90 % interleaved) | detects +10 % (≥ 95 %) | detects +2 % |');
  out.push('|---|---|---|---|---|---|---|');
  for (const r of a.results) {
    if (r.error) continue;
    for (const design of r.rule.designs ?? DESIGNS) {
      const k = Math.min(design === 'sequential' ? 20 : 30, a.ks[a.ks.length - 1] ?? 0);
      out.push(
        `| ${r.rule.name} | ${design} | ${k} | ${rate(pooled(r, design, 0, k))} | ${rate(pooled(r, design, 5, k))} | ${rate(pooled(r, design, 10, k))} | ${rate(pooled(r, design, 2, k))} |`,
      );
    }
  }
  out.push('');
  out.push('### Targets: smallest k (samples per side / rounds) at which each is met (point estimates)');
  out.push('');
  out.push(
    'Sequential: issue 3 (false alarms ≤ 1 %, detects ≥ 95 % of +10 %, ≥ 80 % of +5 %, within k ≤ 20). Interleaved: issue 6 (≤ 1 %, ≥ 90 % of +5 % within 30 rounds; ≥ 95 % of +10 % shown too). "–" = not met at any measured k.',
  );
  out.push('');
  out.push('| rule | design | load | FA ≤ 1 % | +10 % ≥ 95 % | +5 % ≥ target | all three |');
  out.push('|---|---|---|---|---|---|---|');
  const show = (k: number | null): string => (k === null ? '–' : String(k));
  for (const r of a.results) {
    if (r.error) continue;
    for (const design of r.rule.designs ?? DESIGNS)
      for (const load of [...LOADS, 'both'] as const) {
        const t = targetsFor(design);
        const fa = (k: number): boolean => share(cellOf(r, design, load, 0, k)) <= t.falseAlarm;
        const d10 = (k: number): boolean => share(cellOf(r, design, load, 10, k)) >= t.detect10;
        const d5 = (k: number): boolean => share(cellOf(r, design, load, 5, k)) >= t.detect5;
        out.push(
          `| ${r.rule.name} | ${design} | ${load} | ${show(firstK(a.ks, fa))} | ${show(firstK(a.ks, d10))} | ${show(firstK(a.ks, d5))} | ${show(firstK(a.ks, (k) => fa(k) && d10(k) && d5(k)))} |`,
        );
      }
  }
  out.push('');
  out.push(`### perf-gate ${'(2 %/1 %/0.01)'}: 20-benchmark suite false alarms (any A/A row regressed, Benjamini–Hochberg across the 20)`);
  out.push('');
  if (a.suites === null) {
    out.push(`Not computed: ${a.suiteError ?? 'unknown error'}`);
  } else if (a.suites.length === 0) {
    out.push('Not enough A/A sub-trials for one suite of 20.');
  } else {
    out.push('| design | load | k | disjoint suites | resampled suites (point) |');
    out.push('|---|---|---|---|---|');
    for (const s of a.suites)
      out.push(
        `| ${s.design} | ${s.load} | ${s.k} | ${s.disjoint.flagged}/${s.disjoint.n} = ${rate(s.disjoint)} | ${pct(s.resampled.flagged / s.resampled.n)} of ${s.resampled.n} |`,
      );
  }
  out.push('');
  out.push('Rules:');
  out.push('');
  for (const r of a.results) out.push(`- **${r.rule.name}**: ${r.rule.note}`);
  return out.join('\n') + '\n';
}
