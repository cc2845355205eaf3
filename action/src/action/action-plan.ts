/**
 * The action's settings and facts translated into the run as the pipeline
 * carries it out (pipeline/run-plan.ts): measured interleaved against a ref
 * (`ab`), or the suites' run, the given results or the two-stage artifact's
 * against the baseline input's files, else the store's choice; in mode main
 * one store both chooses and records. What needs GitHub (the merged pull
 * request's acceptances, the pull request's own) is handed in as data.
 */
import { join } from 'node:path';
import { InputError } from '../model/index.js';
import {
  gateOptions,
  historyStart,
  secondStageOn,
  storeAtOf,
  type Acceptance,
  type Budgets,
  type ConfirmPlan,
  type PerfGateConfig,
  type RunPlan,
  type RunRelease,
} from '../pipeline/index.js';
import type { PullRequestFacts } from '../github/fork.js';
import { checkPolicyOf } from './check-policy.js';
import { mergedAcceptances, readPrLedger } from './pr-comment.js';
import type { ActionDeps } from './deps.js';
import type { RunFacts } from './run-facts.js';
import { dataBranchAuth, type Settings } from './settings.js';

/** The run plan of this action run. */
export async function actionPlan(settings: Settings, config: PerfGateConfig | null, budgets: Budgets, facts: RunFacts, deps: ActionDeps): Promise<RunPlan> {
  const { pr, handoff, measuring, stackedOn } = facts;
  // A stacked pull request is measured against its base branch's head (the history holds only the default branch), unless `ab` names a ref.
  const abRef = settings.ab === 'base' ? (pr?.baseSha ?? '') : settings.ab !== '' ? settings.ab : (stackedOn?.sha ?? '');
  if (settings.ab === 'base' && abRef === '')
    throw new InputError('action input "ab"', '"base" needs a pull_request event with the base commit; give a ref such as origin/main instead');
  const outDir = join(settings.outputDir, 'runs');
  const created = deps.run.now().toISOString();
  const read = { cwd: settings.workingDirectory, created };
  // With history: in perf-gate.yml, a pull request compares with its merge base's run (a merge group with its base commit's), a release with the previous tag's.
  const baseSha = pr?.baseSha ?? facts.group?.baseSha ?? null;
  const store = config
    ? storeAtOf(config, created, {
        start: await historyStart(config.dir, { release: settings.mode === 'release', ...(baseSha ? { mergeBaseWith: baseSha } : {}) }),
        ...dataBranchAuth(settings),
      })
    : null;
  const common = {
    store,
    budgets,
    options: gateOptions(settings.testbedMismatch),
    record: settings.mode === 'main' && store ? { shard: null, accepted: await mergedAcceptances(settings, deps) } : null,
    confirm:
      (settings.mode === 'pr' || settings.mode === 'release') &&
      secondStageOn(settings.confirm, {
        mode: settings.mode,
        measuresSuites: measuring && abRef === '' && config !== null,
        baseline: settings.baseline.length > 0 ? 'files' : store ? 'store' : 'none',
        configOn: config?.confirm.on ?? false,
      })
        ? confirmPlan(settings, pr)
        : null,
    // Regressions accepted on the record in this pull request's comment pass as `accepted` (gate/acceptance.ts).
    acceptances: async (): Promise<readonly Acceptance[]> =>
      facts.prNumber !== null && settings.mode !== 'main' ? ((await readPrLedger(settings, facts.prNumber, deps))?.acceptances ?? []) : [],
    policy: checkPolicyOf(settings),
    // Main's watch reads the history the run was just appended to (alert: off leaves it unread).
    ...(settings.mode === 'main' && settings.alert !== 'off' ? { watch: { window: settings.alertWindow } } : {}),
    // Only a run that measures asks whether this runner is fit to (given results were measured elsewhere).
    ...(measuring && settings.preflight !== 'off'
      ? { preflight: { level: settings.preflight, ...(deps.run.env.RUNNER_NAME ? { runner: deps.run.env.RUNNER_NAME } : {}) } }
      : {}),
    ...(settings.mode === 'release' ? { release: releaseOf(settings) } : {}),
  };
  const baselineInput = settings.baseline.length > 0 ? 'action input "baseline"' : 'the stored baseline';
  if (measuring && abRef !== '' && config) {
    return {
      ...common,
      current: {
        interleaved: config,
        ref: abRef,
        shard: null,
        outDir,
        ...(stackedOn && settings.ab === ''
          ? { baseLabel: `${stackedOn.pullRequest !== null ? `#${stackedOn.pullRequest}'s head, ` : ''}${stackedOn.ref}` }
          : {}),
      },
      baseline: null,
      labels: { baselineInput, current: `this run of ${config.file}` },
    };
  }
  const baseline = {
    paths: settings.baseline,
    input: 'the baseline input',
    read,
    query: settings.github.sha ? { commit: settings.github.sha } : {},
    emptyIsNone: true,
  };
  if (handoff) return { ...common, current: { results: handoff.results }, baseline, labels: { baselineInput, current: 'the two-stage artifact' } };
  if (settings.results.length > 0) {
    return {
      ...common,
      current: { files: settings.results, read, stamp: { commit: settings.github.sha, ref: settings.github.ref } },
      baseline,
      labels: { baselineInput, current: `action input "results" (${settings.results.join(', ')})` },
    };
  }
  if (!config) throw new InputError(settings.config, 'no such file; the suites to run are read from it (or give results: to gate existing results)');
  // No log group around the suites: the runner opens one per suite (groups do not nest).
  return { ...common, current: { suites: config, shard: null, outDir }, baseline, labels: { baselineInput, current: `this run of ${config.file}` } };
}

/** What a release run is for: the tag's ref, the commit measured, the repository's page (the report's compare links). */
function releaseOf(settings: Settings): RunRelease {
  const { serverUrl, repository, ref, sha } = settings.github;
  return { ref, sha, repositoryUrl: serverUrl && repository ? `${serverUrl}/${repository}` : null };
}

/**
 * The second stage of a pull request: against the baseline's own commit. A
 * fork's head has already run in this checkout and could have planted git
 * hooks that `git worktree add` would run, so its base is not built unless
 * `confirm-forks` says the runner is disposable.
 */
export function confirmPlan(settings: Pick<Settings, 'failOn' | 'confirmForks' | 'confirm'>, pr: Pick<PullRequestFacts, 'fromFork'> | null): ConfirmPlan {
  const failSuspected = settings.failOn === 'suspected' || settings.failOn === 'warn';
  const asked = settings.confirm === 'interleaved';
  return pr?.fromFork && !settings.confirmForks ? { failSuspected, asked, refused: { code: 'fork' } } : { failSuspected, asked };
}
