/**
 * One run, composed once, for every face: check that the store can take the
 * run (mode main) and that the runner is fit to measure on (preflight)
 * before anything is measured, read or measure the current
 * results and choose their baseline, decide with the gate (and the second
 * stage), apply the pull request's acceptances, say what fails under the
 * policy, record the run, and watch main (its new regressions) or assemble
 * the release. The faces only build the plan (run-plan.ts)
 * and turn the outcome into exit status, files and GitHub calls.
 */
import type { BaselineQuery, BaselineStore } from '../store/index.js';
import { isGitRepository, type HistoryStore } from '../store/history/index.js';
import { openStore, type OpenedStore } from './stores.js';
import { findMainAlerts } from './history/main-watch.js';
import { releaseOfRun } from './history/release-report.js';
import { checkRunner } from './preflight.js';
import type { ResultSet } from '../model/index.js';
import { gate } from './gate.js';
import { storableResultSet } from './storable.js';
import { withPackageNames } from './environment-packages.js';
import { readBaseline, readResultFiles, type BaselineRead } from './inputs.js';
import { measuredRun, runConfiguredSuites, selectShard, shardSuites } from './measure.js';
import { confirmSuspects, type ConfirmPlan } from './confirm.js';
import { compareInterleaved } from './interleaved.js';
import type { BaselineFrom, CurrentFrom, RunEvents, RunOutcome, RunPlan, UnfitRunner } from './run-plan.js';
import type { RunContext } from './run-deps.js';
import {
  applyAcceptances,
  checkConclusionOf,
  DEFAULT_CHECK_POLICY,
  DEFAULT_MIN_DRIFT_RUNS,
  stepFails,
  type GateReport,
  type SkippedFile,
} from '../gate/index.js';

/** A plan without preflight always runs to a verdict. */
export function runGate(plan: RunPlan & { preflight?: undefined }, ctx: RunContext, events?: RunEvents): Promise<RunOutcome>;
/** With preflight, `strict` may find the runner unfit: nothing is measured. */
export function runGate(plan: RunPlan, ctx: RunContext, events?: RunEvents): Promise<RunOutcome | UnfitRunner>;
export async function runGate(plan: RunPlan, ctx: RunContext, events: RunEvents = {}): Promise<RunOutcome | UnfitRunner> {
  const opened = await openForRun(plan, events);
  const store = opened?.baselines ?? null;
  const unfit = await preflight(plan, ctx, events);
  if (unfit) return unfit;
  const current = plan.current;
  if ('interleaved' in current) return interleaved(plan, current, opened, ctx);

  // Given results are read first: the store chooses their baseline by the commit and testbed they name.
  const given = 'files' in current ? readGiven(current) : 'results' in current ? { results: current.results, skipped: [] } : null;
  const chosen = plan.baseline
    ? await chooseBaseline(plan.baseline, store, queryOf(plan, given?.results, ctx), 'suites' in current ? current : null)
    : undefined;
  const baseline = plan.baseline?.emptyIsNone && chosen?.results.benchmarks.length === 0 ? undefined : chosen;
  events.onBaseline?.(chosen);
  const started = performance.now();
  const run =
    'suites' in current
      ? await runConfiguredSuites({
          config: current.suites,
          shard: current.shard,
          outDir: current.outDir,
          expected: baseline?.results.benchmarks ?? [],
          env: ctx.env,
          write: ctx.write,
          ...(ctx.warn ? { warn: ctx.warn } : {}),
          ...(ctx.groups ? { groups: true } : {}),
          now: ctx.now,
          deps: ctx.deps,
        })
      : { results: given!.results, timings: new Map() };
  const measured = run.results;
  const screenSeconds = (performance.now() - started) / 1000;
  const skippedFiles: SkippedFile[] = [...(given?.skipped ?? []), ...(baseline?.skipped ?? [])];
  const oneStage = gate({
    baseline: baseline?.results,
    current: measured,
    budgets: plan.budgets,
    options: plan.options,
    baselineInput: plan.labels.baselineInput,
    ...(baseline ? { baselineSource: (plan.labels.baselineSource ?? ((s: string) => s))(baseline.source) } : {}),
    currentSource: plan.labels.current,
    ...(skippedFiles.length > 0 ? { skippedFiles } : {}),
    ...(baseline?.driftRuns ? { driftRuns: baseline.driftRuns } : {}),
  });
  const report =
    plan.confirm && baseline && 'suites' in current && (await baseIsBuildable(plan.confirm, baseline.results, current.suites.dir))
      ? await confirmSuspects(
          {
            report: oneStage,
            config: current.suites,
            suites: selectShard(current.suites.suites, current.shard),
            current: measured,
            baselineCommit: baseline.results.commit,
            budgets: plan.budgets,
            options: plan.options,
            plan: plan.confirm,
            // The history's drift is learned only from enough runs; fewer leave the configured drift in place.
            screen: {
              seconds: screenSeconds,
              timings: run.timings,
              driftRuns: baseline.driftRuns && baseline.driftRuns.length >= DEFAULT_MIN_DRIFT_RUNS ? baseline.driftRuns.length : null,
            },
            outDir: current.outDir,
            labels: { baselineInput: plan.labels.baselineInput, current: plan.labels.current },
          },
          ctx,
        )
      : oneStage;
  const named = 'suites' in current ? withPackageNames(report, current.suites.dir) : report;
  const stored = await record(plan, store, measured);
  return {
    ...(await finished(plan, named, opened)),
    baseline: chosen,
    current: measured,
    stored,
    alerts: await watchMain(plan, opened, stored, measured, ctx),
  };
}

/** The plan's store, opened once; in mode main, checked that it can take the run. */
async function openForRun(plan: RunPlan, events: RunEvents): Promise<OpenedStore | null> {
  const opened = plan.store
    ? openStore(plan.store, { appends: plan.record !== null, ...(events.onNoBaseline ? { onNoBaseline: events.onNoBaseline } : {}) })
    : null;
  if (plan.record) {
    if (!opened) throw new Error('RunPlan.record needs RunPlan.store: a run is recorded where the runs are kept');
    // A store that cannot take the run is found out before minutes of measuring, not after.
    await opened.baselines.checkWritable();
  }
  return opened;
}

/** Is this runner fit to measure on? The face is told what the checks found; `strict` with a warning stops the run. */
async function preflight(plan: RunPlan, ctx: RunContext, events: RunEvents): Promise<UnfitRunner | null> {
  if (!plan.preflight) return null;
  const checked = (ctx.deps.preflight ?? checkRunner)(plan.preflight.level, plan.preflight.runner, ctx.env);
  await events.onPreflight?.(checked);
  return checked.fails ? { unfit: checked } : null;
}

/**
 * Left to `auto`, the second stage runs only where there is a base to build:
 * the baseline names its commit and the project is a git checkout (the
 * README's example compares a copied folder with a committed baseline).
 * Asked for by name, it always runs, and a suspect it cannot measure again
 * says why (no commit, a shallow clone, not a repository).
 */
async function baseIsBuildable(confirm: ConfirmPlan, baseline: ResultSet, dir: string): Promise<boolean> {
  if (confirm.asked === true || confirm.ref !== undefined || confirm.refused !== undefined) return true;
  return baseline.commit !== undefined && (await isGitRepository(dir));
}

/**
 * The decided report with the pull request's acceptances applied, what it
 * means under the plan's policy, and for a release its model (with the
 * change points of the run's history, when its store is one).
 */
async function finished(
  plan: RunPlan,
  decided: GateReport,
  opened: OpenedStore | null,
): Promise<Pick<RunOutcome, 'report' | 'unaccepted' | 'acceptances' | 'fails' | 'conclusion' | 'release'>> {
  const acceptances = (await plan.acceptances?.()) ?? [];
  const report = applyAcceptances(decided, acceptances);
  const policy = plan.policy ?? DEFAULT_CHECK_POLICY;
  return {
    report,
    unaccepted: decided,
    acceptances,
    fails: stepFails(report, policy),
    conclusion: checkConclusionOf({ verdict: report.verdict, inconclusive: report.counts.inconclusive }, policy),
    release: plan.release ? await releaseOfRun(report, historyOf(plan, opened), plan.release) : null,
  };
}

/** Base and head measured in alternating rounds: the run is its own baseline, decided paired; its confirmed regressions profiled where asked. */
async function interleaved(
  plan: RunPlan,
  current: Extract<CurrentFrom, { interleaved: unknown }>,
  opened: OpenedStore | null,
  ctx: RunContext,
): Promise<RunOutcome> {
  const { measured, report } = await compareInterleaved({
    ...ctx,
    config: current.interleaved,
    suites: selectShard(current.interleaved.suites, current.shard),
    base: { commit: current.ref },
    head: { working: true },
    outDir: current.outDir,
    budgets: plan.budgets,
    decision: { options: plan.options, baselineInput: plan.labels.baselineInput, currentSource: plan.labels.current },
    profile: { suites: current.interleaved.suites, outDir: current.outDir },
    opened: ({ base, head }) =>
      ctx.write(`perf-gate: A/B of ${head.commit ?? 'HEAD'} (head) against ${current.ref} = ${base.commit ?? current.ref} (base, in ${base.dir})\n`),
  });
  const stored = await record(plan, opened?.baselines ?? null, measured.head);
  const { baseLabel } = current;
  const labelled = baseLabel !== undefined && report.baseline ? { ...report, baseline: { ...report.baseline, ref: baseLabel } } : report;
  return {
    ...(await finished(plan, withPackageNames(labelled, current.interleaved.dir), opened)),
    baseline: { results: measured.base, source: `${current.ref} (interleaved)` },
    current: measured.head,
    stored,
    alerts: await watchMain(plan, opened, stored, measured.head, ctx),
  };
}

function readGiven(current: Extract<CurrentFrom, { files: unknown }>): { results: ResultSet; skipped: SkippedFile[] } {
  const read = readResultFiles(current.files, current.read);
  const stamp = current.stamp ?? {};
  const results = {
    ...read.results,
    ...((read.results.commit ?? stamp.commit) ? { commit: read.results.commit ?? stamp.commit } : {}),
    ...((read.results.ref ?? stamp.ref) ? { ref: read.results.ref ?? stamp.ref } : {}),
  };
  return { results, skipped: read.skipped };
}

/** What the run about to be gated is, for the store: its commit and testbed. */
function queryOf(plan: RunPlan, given: ResultSet | undefined, ctx: RunContext): BaselineQuery {
  if ('suites' in plan.current) return measuredRun(plan.current.suites, ctx.env, ctx.deps);
  const q = plan.baseline?.query ?? {};
  const commit = q.commit ?? given?.commit;
  const testbed = q.testbed ?? given?.testbed?.id ?? (q.machineTestbed ? ctx.deps.testbed(ctx.env)?.id : undefined);
  return { ...(commit ? { commit } : {}), ...(testbed ? { testbed } : {}) };
}

/** The baseline of the run; a shard compares only its own suites (the others' benchmarks run elsewhere, they are not missing). */
function chooseBaseline(
  from: BaselineFrom,
  store: BaselineStore | null,
  query: BaselineQuery,
  measuring: Extract<CurrentFrom, { suites: unknown }> | null,
): Promise<BaselineRead | undefined> {
  return readBaseline({
    paths: from.paths,
    ...(from.input !== undefined ? { input: from.input } : {}),
    store,
    query,
    suites: measuring?.shard ? shardSuites(measuring.suites, measuring.shard) : null,
    read: from.read,
  });
}

/** Mode main: the run into its store; a failure is kept for the face to raise after the reports are out. */
async function record(plan: RunPlan, store: BaselineStore | null, results: ResultSet): Promise<RunOutcome['stored']> {
  if (!plan.record || !store) return null;
  try {
    const { accepted } = plan.record;
    const run = storableResultSet(accepted && accepted.length > 0 ? { ...results, accepted } : results, store.location);
    return { at: await store.record(run, { shard: plan.record.shard }) };
  } catch (error) {
    return { error: error as Error };
  }
}

/** The run's history and the repository its commits are in; null when the store is no history. */
function historyOf(plan: RunPlan, opened: OpenedStore | null): { store: HistoryStore; repo: string } | null {
  return opened?.history && plan.store && 'history' in plan.store ? { store: opened.history, repo: plan.store.repo } : null;
}

/**
 * Main's watch, once the run is in its history: the change points of the
 * last runs that are new regressions (pipeline/history/main-watch.ts), read
 * from the history the run was just appended to. Null when the plan does not
 * watch, the store is no history, or the run was not stored.
 */
async function watchMain(
  plan: RunPlan,
  opened: OpenedStore | null,
  stored: RunOutcome['stored'],
  current: ResultSet,
  ctx: RunContext,
): Promise<RunOutcome['alerts']> {
  const history = historyOf(plan, opened);
  if (!plan.watch || !history || stored === null || 'error' in stored) return null;
  const testbed = current.testbed?.id;
  if (!testbed) {
    (ctx.warn ?? ctx.write)('perf-gate: the run has no testbed, so its history series are unknown; no main-branch alert');
    return null;
  }
  return findMainAlerts({ history: history.store, testbed, budgets: plan.budgets, repo: history.repo, window: plan.watch.window });
}
