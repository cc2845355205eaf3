/**
 * The cheap half of the learned-drift benchmark: replays a recorded sequence
 * of runs through the gate as perf-gate would see it. For slot t, the
 * baseline is the history run of slot t − 1 (the latest run of main), the
 * drift is learned from the history runs of the N slots before t, and each
 * current of slot t (measured after it, unchanged or slower by construction)
 * is gated against that baseline: "regressed" on an unchanged current is a
 * false alarm, on a slower one a detection. Every variant sees the same
 * trials: the first slots, which some N could not yet use, are skipped for all.
 *
 * Two sources of real runs (replaysOf*): a history recorded by collect.ts
 * (two benchmarks, a 10 % slower B block beside every A block), and the
 * sequential trials of the detection benchmark's data (bench/detect/data/),
 * in the order they ran: each trial's A block is a run of main, its B block
 * the current (A/A, or 2/5/10 % slower).
 */
import { decide, DEFAULT_GATE_OPTIONS, learnDrift, type GateOptions } from '../../action/src/gate/index.js';
import { EMPTY_BUDGETS, newResultSet, rowKey, type Budgets, type ResultSet } from '../../action/src/model/index.js';
import type { DataFile, Load } from '../detect/data-file.js';
import type { HistoryData } from './collect.js';

/** A sequence of runs to replay. */
export interface Replay {
  label: string;
  benchmarks: string[];
  slots: {
    /** This slot's run of main: samples per benchmark. */
    history: number[][];
    /** Runs measured after it, each `slowdown` % slower by construction: samples per benchmark. */
    currents: { slowdown: number; samples: number[][] }[];
  }[];
}

/** A way to set the drift of a stored-baseline comparison. */
export interface DriftVariant {
  label: string;
  /** Learn from this many runs before the current one; null: the configured `drift:` only. */
  window: number | null;
  /** The configured `drift:` (fraction); the default budget's 2 % unless given. */
  configured?: number;
  /** Which scatter is learned (learnDrift's `part`); default perf-gate's. */
  part?: 'total' | 'between';
}

export const VARIANTS: DriftVariant[] = [
  { label: 'configured 0 % (rank test alone)', window: null, configured: 0 },
  { label: 'configured 2 % (the default)', window: null },
  { label: 'learned, N = 5', window: 5 },
  { label: 'learned, N = 10', window: 10 },
  { label: 'learned, N = 20', window: 20 },
  { label: 'learned, N = 20, between-run part only (rejected)', window: 20, part: 'between' },
];

export interface Tally {
  trials: number;
  regressed: number;
  unchanged: number;
}

export interface VariantResult {
  variant: DriftVariant;
  /** By benchmark, then by slowdown (0: A/A). */
  tallies: Map<string, Map<number, Tally>>;
  /** Median learned drift per benchmark (null: nothing learned). */
  medianDrift: Map<string, number | null>;
}

function runOf(benchmarks: readonly string[], samples: readonly number[][]): ResultSet {
  return newResultSet(
    '2026-01-01T00:00:00Z',
    benchmarks.map((id, j) => ({
      id,
      status: 'ok' as const,
      metrics: { time: { unit: 's', direction: 'lower' as const, samples: [...samples[j]!] } },
    })),
  );
}

function budgetsFor(v: DriftVariant): Budgets {
  return v.configured === undefined ? EMPTY_BUDGETS : { ...EMPTY_BUDGETS, defaults: { ...EMPTY_BUDGETS.defaults, drift: v.configured } };
}

export function analyseReplay(replay: Replay, variants: readonly DriftVariant[] = VARIANTS): VariantResult[] {
  const first = Math.max(1, ...variants.map((v) => v.window ?? 0));
  const history = replay.slots.map((s) => runOf(replay.benchmarks, s.history));
  return variants.map((variant) => {
    const tallies = new Map(replay.benchmarks.map((b) => [b, new Map<number, Tally>()]));
    const drifts = new Map(replay.benchmarks.map((b) => [b, [] as number[]]));
    for (let t = first; t < replay.slots.length; t++) {
      const options: GateOptions = { ...DEFAULT_GATE_OPTIONS };
      if (variant.window !== null) options.learnedDrift = learnDrift(history.slice(t - variant.window, t), variant.part ? { part: variant.part } : {});
      for (const current of replay.slots[t]!.currents) {
        const report = decide(history[t - 1]!, runOf(replay.benchmarks, current.samples), budgetsFor(variant), options);
        for (const b of replay.benchmarks) {
          const row = report.rows.find((r) => r.benchmark === b)!;
          const bySlowdown = tallies.get(b)!;
          const tally = bySlowdown.get(current.slowdown) ?? { trials: 0, regressed: 0, unchanged: 0 };
          tally.trials++;
          if (row.status === 'regressed') tally.regressed++;
          if (row.status === 'unchanged') tally.unchanged++;
          bySlowdown.set(current.slowdown, tally);
        }
      }
      for (const b of replay.benchmarks) {
        const learned = options.learnedDrift?.get(rowKey(b, 'time'));
        if (learned) drifts.get(b)!.push(learned.drift);
      }
    }
    const medianDrift = new Map([...drifts].map(([b, xs]) => [b, xs.length ? xs.sort((p, q) => p - q)[xs.length >> 1]! : null] as const));
    return { variant, tallies, medianDrift };
  });
}

/** A history recorded by collect.ts: every slot's A block is main's run, its A and B blocks the currents. */
export function replayOfHistory(data: HistoryData): Replay {
  return {
    label: `recorded history (${data.created.slice(0, 10)}, ${data.machine.cpu})`,
    benchmarks: data.benchmarks.map((b) => b.name),
    slots: data.slots.map((slot) => ({
      history: slot.map((s) => s.a),
      currents: [
        { slowdown: 0, samples: slot.map((s) => s.a) },
        { slowdown: data.plan.slowdown, samples: slot.map((s) => s.b) },
      ],
    })),
  };
}

/**
 * The detection benchmark's sequential trials of one load, in the order they
 * ran, as a history: a trial's first `k` A times are main's run, its first `k`
 * B times the current. For the A/A currents the "current" is a separate block
 * of the same program, measured right after, as in real use.
 */
export function replayOfDetectData(data: DataFile, load: Load, k: number): Replay {
  const trials = data.trials.filter((t) => t.design === 'sequential' && t.load === load).sort((p, q) => p.startedAt - q.startedAt);
  return {
    label: `detection data, sequential, ${load} (${data.started.slice(0, 10)}, ${data.machine.cpu}), ${k} samples per run`,
    benchmarks: ['work-20ms'],
    slots: trials.map((t) => ({ history: [t.a.slice(0, k)], currents: [{ slowdown: t.slowdown, samples: [t.b.slice(0, k)] }] })),
  };
}

const pct = (part: number, whole: number): string => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)} %`);

export function renderReplayMarkdown(replay: Replay, results: readonly VariantResult[], detectAt = 10): string {
  const lines = [
    `**${replay.label}**: ${replay.slots.length} runs.`,
    '',
    `| drift used | benchmark | A/A trials | A/A regressed (false alarm) | A/A unchanged | ${detectAt} % slower: trials | regressed | median learned drift |`,
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    for (const b of replay.benchmarks) {
      const aa = r.tallies.get(b)!.get(0) ?? { trials: 0, regressed: 0, unchanged: 0 };
      const ab = r.tallies.get(b)!.get(detectAt) ?? { trials: 0, regressed: 0, unchanged: 0 };
      const drift = r.medianDrift.get(b);
      lines.push(
        `| ${r.variant.label} | ${b} | ${aa.trials} | ${pct(aa.regressed, aa.trials)} | ${pct(aa.unchanged, aa.trials)} | ${ab.trials} | ${pct(ab.regressed, ab.trials)} | ${drift == null ? '–' : `${(drift * 100).toFixed(2)} %`} |`,
      );
    }
  }
  return lines.join('\n');
}
