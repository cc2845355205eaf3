/**
 * The action, phase by phase: settings are already read; each phase below is
 * one short function and, where it takes time, one log group. The pipeline
 * does the work (inputs, measuring, the gate, the reports, the store); this
 * file decides only what the action's modes add — fork safety, the two-stage
 * artifact, outputs — and hands the report to GitHub last. A failure to
 * comment or create the check run is a warning: it never hides or changes the
 * verdict, which is decided before any API call.
 */
import type { ConfirmPlan } from '../pipeline/index.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, type ResultSet } from '../model/index.js';
import { releaseOfRun } from '../pipeline/release-report.js';
import {
  checkRunner,
  checkRunSummary,
  checkRunTitle,
  EXIT,
  gateOptions,
  historyStart,
  jobSummary,
  preflightText,
  readBudgets,
  readConfigIfPresent,
  runGate,
  secondStageOn,
  storeOf,
  writeReleaseReport,
  writeRunFiles,
  type BaselineRead,
  type Budgets,
  type GateReport,
  type PerfGateConfig,
  type RunFiles,
  type RunOutcome,
  type RunPlan,
  type Acceptance,
  type RunStatus,
} from '../pipeline/index.js';
import { fileAlerts, watchMain } from './main-alerts.js';
import { notifyMainAlerts, notifyRelease } from './notify.js';
import { checkPolicyOf } from './conclusion.js';
import type { GitHubApi, RepoRef } from '../github/client.js';
import { publishCheckRun } from '../github/check-run.js';
import { decideForkSafety, pullRequestFromEvent, type PullRequestFacts } from '../github/fork.js';
import { mergedAcceptances, postComment, readPrLedger } from './pr-comment.js';
import { runPrCommands } from './pr-commands.js';
import { dispatchedRun } from './pr-run-request.js';
import { HandoffRejected, readHandoffFolder, verifyClaim, workflowRunFromEvent, writeHandoff, type Handoff } from './handoff.js';
import { checkRunAnnotations } from './check-run-annotations.js';
import { downloadHandoff } from './handoff-download.js';
import type { ActionLog } from './log.js';
import type { ActionDeps } from './deps.js';
import { dataBranchAuth, repoRef, workflowRunUrl, type Settings } from './settings.js';

/** Runs the whole action; returns the exit status. Unusable input throws InputError (the caller maps it to 2). */
export async function runAction(settings: Settings, deps: ActionDeps): Promise<number> {
  const event = readEvent(settings.github.eventPath);
  if (settings.mode === 'command') return runPrCommands(settings, event, deps);
  const dispatched = await dispatchedRun(settings, event, deps);
  const pr: PullRequestFacts | null = settings.mode === 'report' ? null : (dispatched?.pr ?? pullRequestFromEvent(event));
  if (!forkAllowed(settings, pr, deps.log)) return EXIT.unusable;
  const handoff = settings.mode === 'report' ? await readTwoStageArtifact(settings, event, deps) : null;
  const config = readConfigIfPresent(settings.config, settings.workingDirectory);
  if (!config && settings.mode !== 'report' && settings.results.length === 0) {
    throw new InputError(settings.config, 'no such file; set the config input to your perf-gate.yml');
  }
  const budgets = readBudgets(settings.budgets, config?.budgets, settings.workingDirectory);
  const measuring = !handoff && settings.results.length === 0;
  if (measuring && !(await preflightPasses(settings, deps))) return EXIT.fail;
  // A run started by /perf-gate run stamps the commit it measured, not the dispatching branch's GITHUB_SHA.
  const run = dispatched ? { ...deps.run, env: { ...deps.run.env, GITHUB_SHA: dispatched.pr.headSha } } : deps.run;
  // Regressions accepted on the record in this pull request's comment pass as `accepted` (gate/acceptance.ts).
  const prNumber = handoff ? handoff.claim.pullRequest : (pr?.number ?? null);
  const acceptances = async (): Promise<readonly Acceptance[]> =>
    prNumber !== null && settings.mode !== 'main' ? ((await readPrLedger(settings, prNumber, deps))?.acceptances ?? []) : [];
  const plan = { ...(await actionPlan(settings, config, budgets, pr, handoff, measuring, deps)), acceptances, policy: checkPolicyOf(settings) };
  const outcome = await runGate(plan, run, { onBaseline: (chosen) => sayBaseline(chosen, deps.log) });
  const { report } = outcome;
  deps.log.info(`verdict: ${report.verdict}`);
  await publishReports(settings, outcome, config, pr, deps);
  const alerts = settings.mode === 'main' ? await watchMain(settings, config, budgets, outcome.current, deps) : null;
  const status = dispatched ? { ...dispatched.status, finished: deps.run.now().toISOString() } : null;
  await tellGitHub(settings, outcome, status, pr, handoff, deps);
  const opened = alerts && settings.alert === 'issue' ? await fileAlerts(settings, alerts, config, budgets, deps) : null;
  if (alerts) await notifyMainAlerts(settings, alerts, opened, deps);
  if (settings.mode === 'release') await notifyRelease(settings, report, deps);
  if (report.verdict === 'fail') deps.log.error(`perf-gate: the gate fails: ${checkRunTitle(report)}`);
  if (report.counts.inconclusive > 0 && settings.inconclusive !== 'pass')
    deps.log.info(
      `${report.counts.inconclusive} inconclusive row(s); inconclusive: ${settings.inconclusive} makes the check ${settings.inconclusive === 'fail' ? 'fail' : 'neutral'}`,
    );
  return outcome.fails ? EXIT.fail : EXIT.pass;
}

function readEvent(path: string): unknown {
  if (path === '' || !existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (error) {
    throw new InputError(path, `the event payload is not JSON: ${(error as Error).message}`);
  }
}

/** mode pr: a fork's pull request runs on a self-hosted runner only when allowed. */
function forkAllowed(settings: Settings, pr: PullRequestFacts | null, log: ActionLog): boolean {
  if (settings.mode !== 'pr') return true;
  const decision = decideForkSafety(pr, settings.github.runnerEnvironment, settings.allowForkPullRequests, settings.github.eventName);
  if (!decision.allowed) {
    log.error(decision.message);
    log.setOutput('verdict', 'refused');
    return false;
  }
  if (decision.note) log.warning(`perf-gate: ${decision.note}`);
  return true;
}

/** mode report: the results come from the untrusted artifact, verified against GitHub first. */
function readTwoStageArtifact(settings: Settings, event: unknown, deps: ActionDeps): Promise<Handoff> {
  const { log } = deps;
  return log.group('perf-gate: read the two-stage artifact', async () => {
    const run = workflowRunFromEvent(event);
    if (!deps.github) throw new InputError('action input "github-token"', 'mode: report needs a token to verify the pull request and post');
    const repo = repoRef(settings);
    let found: Handoff;
    if (settings.reportFrom !== '') found = readHandoffFolder(settings.reportFrom);
    else {
      if (!run)
        throw new InputError(
          'GITHUB_EVENT_PATH',
          'mode: report without report-from must run in a workflow_run workflow (the artifact is downloaded from the triggering run)',
        );
      found = await downloadHandoff(deps.github, repo, run.runId, settings.artifactName);
    }
    if (!run) log.warning('perf-gate: not a workflow_run event; the artifact is checked against the pull request only');
    try {
      await verifyClaim(deps.github, repo, found.claim, run, settings.gateName);
    } catch (error) {
      if (error instanceof HandoffRejected) throw new InputError('two-stage artifact', error.message);
      throw error;
    }
    log.info(`pull request #${found.claim.pullRequest} at ${found.claim.headSha}: verified against GitHub`);
    return found;
  });
}

/** Before measuring: is this runner fit to measure on? False when `preflight: strict` found warnings. */
async function preflightPasses(settings: Settings, deps: ActionDeps): Promise<boolean> {
  if (settings.preflight === 'off') return true;
  const { log } = deps;
  const checked = await log.group('perf-gate: preflight (is this runner fit to measure on?)', async () => {
    const result = checkRunner(settings.preflight, deps.run.env.RUNNER_NAME || undefined, deps.run.env);
    for (const line of preflightText(result).trimEnd().split('\n')) log.info(line);
    for (const f of result.findings.filter((x) => x.status === 'warn')) log.warning(`perf-gate preflight: ${f.message}${f.fix ? ` Fix: ${f.fix}` : ''}`);
    return result;
  });
  if (checked.fails)
    log.error('perf-gate: preflight is strict and found warnings: this runner would give timings that cannot be trusted (see above for the fixes)');
  return !checked.fails;
}

/**
 * The run as the pipeline carries it out (pipeline/run-plan.ts): measured
 * interleaved against a ref (`ab`), or the suites' run, the given results or
 * the two-stage artifact's against the baseline input's files, else the
 * store's choice; in mode main one store both chooses and records.
 */
async function actionPlan(
  settings: Settings,
  config: PerfGateConfig | null,
  budgets: Budgets,
  pr: PullRequestFacts | null,
  handoff: Handoff | null,
  measuring: boolean,
  deps: ActionDeps,
): Promise<RunPlan> {
  const abRef = settings.ab === 'base' ? (pr?.baseSha ?? '') : settings.ab;
  if (settings.ab === 'base' && abRef === '')
    throw new InputError('action input "ab"', '"base" needs a pull_request event with the base commit; give a ref such as origin/main instead');
  const outDir = join(settings.outputDir, 'runs');
  const created = deps.run.now().toISOString();
  const read = { cwd: settings.workingDirectory, created };
  // With history: in perf-gate.yml, a pull request compares with its merge base's run, a release with the previous tag's.
  const store = config
    ? storeOf(config, created, {
        start: await historyStart(config.dir, { release: settings.mode === 'release', ...(pr?.baseSha ? { mergeBaseWith: pr.baseSha } : {}) }),
        appends: settings.mode === 'main',
        onNoBaseline: (text) => deps.log.warning(`perf-gate: ${text}`),
        ...dataBranchAuth(settings),
      })
    : null;
  const common = {
    budgets,
    options: gateOptions(settings.testbedMismatch),
    record: settings.mode === 'main' && store ? { store, shard: null, accepted: await mergedAcceptances(settings, deps) } : null,
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
  };
  const baselineInput = settings.baseline.length > 0 ? 'action input "baseline"' : 'the stored baseline';
  if (measuring && abRef !== '' && config) {
    return {
      ...common,
      current: { interleaved: config, ref: abRef, shard: null, outDir },
      baseline: null,
      labels: { baselineInput, current: `this run of ${config.file}` },
    };
  }
  const baseline = {
    paths: settings.baseline,
    input: 'the baseline input',
    store,
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

/** A missing or empty baseline is said out loud, before anything is measured: only the budgets decide. */
function sayBaseline(chosen: BaselineRead | undefined, log: ActionLog): void {
  if (!chosen)
    log.warning(
      'perf-gate: no baseline found; every benchmark is "new" and only the budgets decide. Run the workflow with mode: main on your default branch to record one.',
    );
  else if (chosen.results.benchmarks.length === 0) log.warning(`perf-gate: the baseline (${chosen.source}) holds no benchmarks; only the budgets decide.`);
}

/** Reports on disk and in the job summary, the outputs, and what each mode adds — all before any API call. */
async function publishReports(
  settings: Settings,
  outcome: RunOutcome,
  config: PerfGateConfig | null,
  pr: PullRequestFacts | null,
  deps: ActionDeps,
): Promise<void> {
  const { log } = deps;
  const { report, current } = outcome;
  // The summary first: whatever the disk under output-dir does, the report reaches the job.
  await log.appendSummary(jobSummary(report, settings.gateName));
  const files = writeRunFilesOrSay(settings, report, current, log);
  setReportOutputs(log, report, files);
  if (settings.mode === 'pr' && pr && files !== null) {
    try {
      const dir = writeHandoff(join(settings.outputDir, 'handoff'), { pullRequest: pr.number, headSha: pr.headSha, gate: settings.gateName }, current);
      log.setOutput('handoff-dir', dir);
    } catch (error) {
      // Only a two-stage workflow reads the handoff; its second stage will say the artifact is missing.
      if (!(error instanceof InputError)) throw error;
      log.error(`perf-gate: could not write the two-stage handoff: ${error.message}; the verdict stands`);
    }
  }
  if (settings.mode === 'main') {
    if (outcome.stored !== null) {
      // The store was checked before measuring; a failure now is raised after the reports are out.
      if ('error' in outcome.stored) throw outcome.stored.error;
      log.info(`baseline written to ${outcome.stored.at}`);
      log.setOutput('baseline-file', outcome.stored.at);
    } else {
      log.warning(
        `perf-gate: mode main stores the baseline where perf-gate.yml's baselines: points, but ${settings.config} does not exist; the results are only in ${files?.results ?? 'the job summary'}`,
      );
    }
  }
  if (settings.mode === 'release') {
    // With history: in perf-gate.yml the report adds the change points since the previous release tag.
    const repositoryUrl = settings.github.serverUrl && settings.github.repository ? `${settings.github.serverUrl}/${settings.github.repository}` : null;
    const { model, note } = await releaseOfRun(report, config, { ref: settings.github.ref, sha: settings.github.sha, repositoryUrl });
    if (note) log.warning(`perf-gate: ${note}`);
    const release = writeReleaseReport(report, settings.outputDir, settings.github.ref, { model, title: settings.gateName });
    await log.appendSummary(release.summary);
    log.setOutput('release-report', release.path);
  }
}

/**
 * The run's files in output-dir, or null when the file system refuses them
 * (full, read-only, no permission): an error annotation then says so, and the
 * verdict and its exit status stand, since the report is in the job summary.
 */
function writeRunFilesOrSay(settings: Settings, report: GateReport, current: ResultSet, log: ActionLog): RunFiles | null {
  try {
    return writeRunFiles(report, current, settings.outputDir, settings.gateName);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    log.error(
      `perf-gate: could not write the run's files to output-dir ${settings.outputDir} (${(error as Error).message}); the report is in the job summary, the verdict stands`,
    );
    return null;
  }
}

function setReportOutputs(log: ActionLog, report: GateReport, files: RunFiles | null): void {
  log.setOutput('verdict', report.verdict);
  const c = report.counts;
  log.setOutput('regressed', String(c.regressed));
  log.setOutput('improved', String(c.improved));
  log.setOutput('unchanged', String(c.unchanged));
  log.setOutput('inconclusive', String(c.inconclusive));
  log.setOutput('new', String(c.new));
  log.setOutput('missing', String(c.missing));
  log.setOutput('failed', String(c.failed));
  log.setOutput('budget-failed', String(c.budgetFailed));
  log.setOutput('budget-warned', String(c.budgetWarned));
  log.setOutput('counts', JSON.stringify(c));
  if (files === null) return;
  log.setOutput('report-json', files.reportJson);
  log.setOutput('report-markdown', files.reportMarkdown);
  log.setOutput('results', files.results);
}

/** Last: the sticky comment and the check run. Failures are warnings; the verdict stands. */
function tellGitHub(
  settings: Settings,
  outcome: RunOutcome,
  status: RunStatus | null,
  pr: PullRequestFacts | null,
  handoff: Handoff | null,
  deps: ActionDeps,
): Promise<void> {
  const { log, github } = deps;
  return log.group('perf-gate: tell GitHub', async () => {
    if (!github) {
      log.info('no github-token: no comment and no check run');
      return;
    }
    const repo = repoRef(settings);
    const prNumber = handoff ? handoff.claim.pullRequest : (pr?.number ?? null);
    const headSha = handoff ? handoff.claim.headSha : (pr?.headSha ?? settings.github.sha);
    if (prNumber !== null && (settings.mode === 'pr' || settings.mode === 'report'))
      await postComment(github, { repo, pullRequest: prNumber, headSha }, settings, outcome, status, log);
    if (settings.checkRun && headSha) await postCheckRun(github, repo, headSha, settings, outcome, log);
  });
}

async function postCheckRun(github: GitHubApi, repo: RepoRef, headSha: string, settings: Settings, outcome: RunOutcome, log: ActionLog): Promise<void> {
  const { report } = outcome;
  const runUrl = workflowRunUrl(settings.github);
  try {
    const posted = await publishCheckRun(github, {
      repo,
      name: settings.gateName,
      headSha,
      conclusion: outcome.conclusion,
      title: checkRunTitle(report),
      summary: checkRunSummary(report, settings.gateName),
      annotations: checkRunAnnotations(report, { workspace: settings.github.workspace, workingDirectory: settings.workingDirectory, config: settings.config }),
      ...(runUrl ? { detailsUrl: runUrl } : {}),
    });
    log.info(`check run ${posted.id} (${posted.batches} request${posted.batches === 1 ? '' : 's'} with annotations)`);
    log.setOutput('check-run-id', String(posted.id));
  } catch (error) {
    log.warning(`perf-gate: could not create the check run (${(error as Error).message}); the verdict stands. The token needs checks: write.`);
  }
}
