import { rmSync } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { InputError, newResultSet, rowKey, type BenchmarkError, type BenchmarkResult, type ResultSet, type RowStatus } from '../model/index.js';
import type { SuiteConfig } from '../config/perf-gate-config.js';
import { failedRows } from './failure.js';
import { buildSuite, invoke, type RunnerContext, type Side } from './invoke.js';
import { emptySide, push, seriesRows, valuesOf, type SideData } from './round-series.js';
import { pointLabel, pointSuffix, sweepPoints, type SweepPoint } from './sweep.js';
import { minRounds } from '../stats/index.js';

/**
 * Interleaved A/B runs (`perf-gate run --ab REF`). Block drift on these
 * machines moves whole stretches of consecutive runs together, so base and
 * head are measured side by side: every round runs each side once, in a
 * seeded random order, as fresh processes. Each round contributes ONE value
 * per side and metric (the median of that invocation's samples), so index i of
 * both sides' samples is round i and the gate can analyse per-round pairs.
 *
 * Adaptive: every unit (suite × sweep point) runs `rounds` rounds; units with
 * an inconclusive benchmark get `step` more rounds, up to `maxRounds`, of
 * those benchmarks alone where the suite can be narrowed (AbContext.narrow).
 * Units with a regressed benchmark are then re-measured in `confirmRounds`
 * fresh rounds of the regressed benchmarks (extended the same way while the
 * suspects stay inconclusive); a
 * regression counts only when the fresh rounds show it again (`confirmed`),
 * and the fresh samples replace the first ones for those metrics, so an
 * unconfirmed regression cannot fail the gate. The paired signed-rank test
 * cannot reach alpha 0.01 with fewer than 8–9 rounds even when every round
 * agrees, hence the defaults (10 first, 12 to confirm).
 */

/** What an interleaved A/B measurement produced: both sides, and which suspected regressions fresh rounds re-measured. */
export interface AbMeasurement {
  base: ResultSet;
  head: ResultSet;
  confirmations: ReadonlyMap<string, 'confirmed' | 'not-confirmed'>;
}

/**
 * Classifies every benchmark × metric of two interleaved ResultSets (the CLI
 * passes the gate's own decision, with the budgets' tolerances), keyed by rowKey.
 */
export type Classifier = (base: ResultSet, head: ResultSet) => ReadonlyMap<string, RowStatus>;

export interface AbCheckouts {
  /** Root of the base worktree. */
  base: string;
  /** Root of the head checkout (suite workdirs lie inside it). */
  head: string;
}

export interface AbContext extends RunnerContext {
  classify: Classifier;
  /**
   * Called with a unit's sides after its first round, before any more are
   * spent: a caller that needs one benchmark (bisect) throws here, naming
   * what the suite did report, instead of after every round. Only when the
   * run is one unit (no parameter sweep).
   */
  afterFirstRound?: (base: ResultSet, head: ResultSet) => void;
  /** ISO time written into the intermediate ResultSets. */
  created: string;
  /**
   * A suite changed to run only the named benchmarks (their ids), or null
   * when it cannot be: the later rounds then run only the rows still open
   * (the inconclusive ones when rounds are added, the regressed ones when
   * fresh rounds confirm them), not every benchmark the first rounds ran.
   * Absent: every round runs the suite as given.
   */
  narrow?: (suite: SuiteConfig, ids: readonly string[]) => SuiteConfig | null;
  /**
   * The smallest significance level the classifier tests at. With it, rows
   * still inconclusive get rounds beyond `max-rounds` up to the least count at
   * which the paired test can reach it over all the rows decided together
   * (roundsToReach); below that count more rounds were the only way on.
   */
  alpha?: number;
}

export interface AbOutcome {
  base: ResultSet;
  head: ResultSet;
  /** For every row the first rounds flagged regressed: did the fresh rounds confirm it? */
  confirmations: ReadonlyMap<string, 'confirmed' | 'not-confirmed'>;
  /** Rounds each unit ran (`suite` or `suite[param=value]`), confirmation rounds excluded. */
  rounds: Readonly<Record<string, number>>;
  /** Confirmation rounds of the units that had a suspected regression. */
  confirmRounds: Readonly<Record<string, number>>;
  /** The deadline stopped rounds that would otherwise have run. */
  capped: boolean;
}

interface Unit {
  suite: SuiteConfig;
  /** What a round runs now: the suite, or it narrowed to the rows still open (AbContext.narrow). */
  running: SuiteConfig;
  point: SweepPoint;
  index: number;
  label: string;
  cwd: Record<Side, string>;
  rounds: number;
  stopped: boolean;
  data: Record<Side, SideData>;
  next: () => number;
}

/** One round of a unit: both sides once, in seeded random order. Stops the unit on a failure; true when the round completed. */
async function runRound(unit: Unit, stemPrefix: string, round: number, ctx: AbContext): Promise<boolean> {
  const order: Side[] = unit.next() === 0 ? ['base', 'head'] : ['head', 'base'];
  const got: Partial<Record<Side, ReturnType<typeof valuesOf>>> = {};
  const dir = join(ctx.outDir, unit.suite.name, 'ab', pointLabel(unit.point, unit.index) || '.');
  for (const side of order) {
    const stem = `${stemPrefix}${String(round).padStart(3, '0')}-${side}`;
    const outcome = await invoke({ suite: unit.running, point: unit.point, cwd: unit.cwd[side], dir, stem, side, pin: unit.suite.ab.pin }, ctx);
    for (const b of outcome.results) unit.data[side].delivered.add(b.id);
    if (outcome.error) {
      unit.data[side].error = outcome.error;
      unit.stopped = true;
      return false;
    }
    got[side] = valuesOf(outcome.results);
  }
  // Commit the round only when both sides finished, so index i stays round i on both.
  for (const side of order) for (const entry of got[side]!.values()) push(unit.data[side], entry);
  return true;
}

/** Has the deadline passed? Remembers that it cut something, for the outcome. */
function pastDeadline(ctx: AbContext, cut: { capped: boolean }): boolean {
  if (ctx.deadline === undefined || performance.now() < ctx.deadline) return false;
  cut.capped = true;
  return true;
}

async function runRounds(
  units: readonly Unit[],
  count: (u: Unit) => number,
  phase: string,
  stemPrefix: string,
  ctx: AbContext,
  cut: { capped: boolean },
): Promise<void> {
  const active = units.filter((u) => !u.stopped && count(u) > 0);
  for (const [i, unit] of active.entries()) {
    const n = count(unit);
    ctx.progress.begin(i + 1, active.length, `A/B ${phase}: ${unit.label}, ${n} round(s)`);
    const start = unit.rounds;
    for (let r = 1; r <= n && !unit.stopped && !pastDeadline(ctx, cut); r++) {
      if (await runRound(unit, stemPrefix, start + r, ctx)) unit.rounds++;
      // Only for a run of one unit: with a parameter sweep, the benchmark may be another point's.
      if (unit.rounds === 1 && start === 0 && r === 1 && ctx.afterFirstRound && units.length === 1) {
        ctx.afterFirstRound(interleaved(ctx.created, sideRows(unit, 'base')), interleaved(ctx.created, sideRows(unit, 'head')));
      }
    }
  }
}

/**
 * Adds `step` rounds to the units that still have an inconclusive row (among
 * the keys `relevant` accepts), until none has or each reached `maxRounds`.
 */
async function extendInconclusive(
  units: readonly Unit[],
  relevant: (key: string) => boolean,
  stemPrefix: string,
  ctx: AbContext,
  cut: { capped: boolean },
  family: { classify: () => ReadonlyMap<string, RowStatus>; rows: number },
): Promise<void> {
  // Each pass adds at least one round to every unit it keeps (or the deadline ends it), so the limit bounds the loop.
  const rows = family.rows;
  const reach = roundsToReach(ctx.alpha, rows);
  const limit = (u: Unit): number => Math.max(u.suite.ab.maxRounds, reach);
  while (!pastDeadline(ctx, cut)) {
    const statuses = family.classify();
    const undecided = units.filter((u) => !u.stopped && u.rounds < limit(u) && unitKeys(u).some((k) => relevant(k) && statuses.get(k) === 'inconclusive'));
    if (undecided.length === 0) return;
    const raised = undecided.some((u) => u.suite.ab.maxRounds < reach)
      ? ` (${reach} at most, beyond max-rounds: fewer cannot reach α ${ctx.alpha} over ${rows} rows)`
      : '';
    const phase = `${stemPrefix === 'round-' ? 'more rounds for inconclusive benchmarks' : 'more confirmation rounds'}${raised}`;
    for (const u of undecided) narrowTo(u, (k) => relevant(k) && statuses.get(k) === 'inconclusive', ctx);
    await runRounds(undecided, (u) => Math.min(u.suite.ab.step, limit(u) - u.rounds), phase, stemPrefix, ctx, cut);
  }
}

/**
 * Lets a unit's next rounds run only the benchmarks with a row `open` accepts
 * (AbContext.narrow); a unit of a parameter sweep, or a suite that cannot be
 * narrowed, runs as given. A row left out keeps the rounds it has, and
 * pairs stay aligned: both sides of a round run the same benchmarks.
 */
function narrowTo(unit: Unit, open: (key: string) => boolean, ctx: AbContext): void {
  if (!ctx.narrow || sweepPoints(unit.suite.params).length > 1) return;
  const ids = [...unit.data.head.series.values()].filter((s) => [...s.metrics.keys()].some((m) => open(rowKey(s.template.id, m)))).map((s) => s.template.id);
  unit.running = (ids.length > 0 ? ctx.narrow(unit.suite, ids) : null) ?? unit.suite;
}

/**
 * The least rounds at which the paired signed-rank test can reach `alpha` for
 * one of `rows` rows decided together (stats' minRounds); 0 without an alpha.
 * Rows of exact counts are not tested, so counting them only ever asks for a
 * round more.
 */
export function roundsToReach(alpha: number | undefined, rows: number): number {
  return alpha === undefined ? 0 : minRounds(alpha, rows);
}

/** The ResultSet rows of one side of a unit: its series, plus failed rows for a failure. */
function sideRows(unit: Unit, side: Side, replace?: { data: SideData; keys: ReadonlySet<string> }): BenchmarkResult[] {
  const data = unit.data[side];
  const rows = seriesRows(data, replace);
  if (!data.error) return rows;
  const failed = failedRows(unit.suite.name, unit.point, pointSuffix(unit.point), new Set<string>(), rows, data.error);
  const failedIds = new Set(failed.map((f) => f.id));
  return [...rows.filter((r) => !failedIds.has(r.id)), ...failed];
}

function interleaved(created: string, rows: BenchmarkResult[]): ResultSet {
  return { ...newResultSet(created, rows), design: 'interleaved' };
}

/** Asks the classifier about the units' current samples (`rowsOf`: a unit side's rows, by default as collected). */
function classifyUnits(units: readonly Unit[], ctx: AbContext, rowsOf: (u: Unit, side: Side) => BenchmarkResult[] = sideRows): ReadonlyMap<string, RowStatus> {
  return ctx.classify(
    interleaved(
      ctx.created,
      units.flatMap((u) => rowsOf(u, 'base')),
    ),
    interleaved(
      ctx.created,
      units.flatMap((u) => rowsOf(u, 'head')),
    ),
  );
}

/** The benchmark × metric keys the head side of a unit has measured. */
function unitKeys(unit: Unit): string[] {
  return [...unit.data.head.series.values()].flatMap((s) => [...s.metrics.keys()].map((m) => rowKey(s.template.id, m)));
}

/** Where a suite's workdir lies in the base checkout. */
function baseWorkdir(suite: SuiteConfig, checkouts: AbCheckouts): string {
  const rel = relative(checkouts.head, suite.workdir);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new InputError(
      'perf-gate.yml',
      `suite "${suite.name}": workdir ${suite.workdir} lies outside the repository ${checkouts.head}; A/B runs need it inside`,
      suite.line,
    );
  }
  return join(checkouts.base, rel);
}

/** The fresh rounds of one unit that re-measured its regressed rows (`keys`). */
interface FreshRounds {
  data: Record<Side, SideData>;
  keys: Set<string>;
}

/**
 * Re-measures the units with a regressed row in fresh rounds of the regressed
 * benchmarks (see the module comment); each unit's first data is restored,
 * and its fresh rounds are returned to replace the regressed rows' samples.
 */
async function confirmRegressions(
  units: readonly Unit[],
  everyRow: number,
  ctx: AbContext,
  cut: { capped: boolean },
): Promise<{ confirmations: Map<string, 'confirmed' | 'not-confirmed'>; confirmRounds: Record<string, number>; fresh: Map<Unit, FreshRounds> }> {
  const confirmations = new Map<string, 'confirmed' | 'not-confirmed'>();
  const confirmRounds: Record<string, number> = {};
  const fresh = new Map<Unit, FreshRounds>();
  const first = classifyUnits(units, ctx);
  const suspects = units.filter((u) => u.suite.ab.confirm && !u.stopped && unitKeys(u).some((k) => first.get(k) === 'regressed'));
  if (suspects.length === 0) return { confirmations, confirmRounds, fresh };
  const saved = new Map(suspects.map((u) => [u, { data: u.data, rounds: u.rounds }]));
  const suspectKeys = new Set(suspects.flatMap((u) => unitKeys(u).filter((k) => first.get(k) === 'regressed')));
  for (const u of suspects) {
    // Fresh rounds measure only the regressed rows' benchmarks.
    narrowTo(u, (k) => suspectKeys.has(k), ctx);
    u.data = { base: emptySide(), head: emptySide() };
    u.rounds = 0;
  }
  // The fresh rounds are decided among every row, as the final verdict decides them: their first rounds replaced
  // by the fresh ones, the other rows as they were (a family of the regressed rows alone would adjust less).
  const withFresh = (u: Unit, side: Side): BenchmarkResult[] => {
    const before = saved.get(u);
    return before ? sideRows({ ...u, data: before.data }, side, { data: u.data[side], keys: suspectKeys }) : sideRows(u, side);
  };
  const family = { classify: () => classifyUnits(units, ctx, withFresh), rows: everyRow };
  await runRounds(suspects, (u) => u.suite.ab.confirmRounds, 'confirming regressions in fresh rounds', 'confirm-', ctx, cut);
  await extendInconclusive(suspects, (k) => suspectKeys.has(k), 'confirm-', ctx, cut, family);
  const again = family.classify();
  for (const u of suspects) {
    confirmRounds[u.label] = u.rounds;
    const data = u.data;
    u.data = saved.get(u)!.data;
    u.rounds = saved.get(u)!.rounds;
    if (data.base.error || data.head.error) {
      // A crash while confirming is a failure in its own right: keep it.
      u.data = { base: { ...u.data.base, error: data.base.error }, head: { ...u.data.head, error: data.head.error } };
    }
    const keys = new Set(unitKeys(u).filter((k) => first.get(k) === 'regressed'));
    for (const k of keys) confirmations.set(k, again.get(k) === 'regressed' ? 'confirmed' : 'not-confirmed');
    fresh.set(u, { data, keys });
  }
  return { confirmations, confirmRounds, fresh };
}

/** Runs every suite interleaved on both checkouts; see the module comment. */
export async function runAb(suites: readonly SuiteConfig[], checkouts: AbCheckouts, ctx: AbContext): Promise<AbOutcome> {
  const units: Unit[] = [];
  for (const [s, suite] of suites.entries()) {
    const cwd = { base: baseWorkdir(suite, checkouts), head: suite.workdir };
    const dir = join(ctx.outDir, suite.name);
    // The rounds' logs and outputs are this comparison's alone: an earlier run's in the same --out folder would read as its rounds.
    rmSync(join(dir, 'ab'), { recursive: true, force: true });
    ctx.progress.begin(s + 1, suites.length, `A/B build: suite ${suite.name}`);
    const buildErrors: Record<Side, BenchmarkError | null> = {
      base: await buildSuite(suite, cwd.base, dir, 'base', ctx),
      head: await buildSuite(suite, cwd.head, dir, 'head', ctx),
    };
    for (const [index, point] of sweepPoints(suite.params).entries()) {
      const rng = xoroshiro128plus((suite.ab.seed * 7919 + s * 104729 + index) >>> 0);
      const unit: Unit = {
        suite,
        running: suite,
        point,
        index,
        cwd,
        label: `${suite.name}${pointSuffix(point)}`,
        rounds: 0,
        stopped: Boolean(buildErrors.base || buildErrors.head),
        data: { base: { ...emptySide(), error: buildErrors.base }, head: { ...emptySide(), error: buildErrors.head } },
        next: () => uniformInt(rng, 0, 1),
      };
      units.push(unit);
    }
  }

  // The deadline (RunnerContext) bounds the builds too: one it stopped, or rounds it left unstarted, mark the outcome capped.
  const cut = { capped: ctx.deadline !== undefined && performance.now() >= ctx.deadline };
  await runRounds(units, (u) => u.suite.ab.rounds, 'first rounds', 'round-', ctx, cut);
  const everyRow = units.flatMap(unitKeys).length;
  await extendInconclusive(units, () => true, 'round-', ctx, cut, { classify: () => classifyUnits(units, ctx), rows: everyRow });

  const { confirmations, confirmRounds, fresh } = await confirmRegressions(units, everyRow, ctx, cut);
  ctx.progress.end();

  const rows = (side: Side): BenchmarkResult[] =>
    units.flatMap((u) => {
      const f = fresh.get(u);
      return sideRows(u, side, f ? { data: f.data[side], keys: f.keys } : undefined);
    });
  return {
    base: interleaved(ctx.created, rows('base')),
    head: interleaved(ctx.created, rows('head')),
    confirmations,
    rounds: Object.fromEntries(units.map((u) => [u.label, u.rounds])),
    confirmRounds,
    capped: cut.capped,
  };
}
