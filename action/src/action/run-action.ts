/**
 * The action, phase by phase: settings are already read; each phase below is
 * one short function and, where it takes time, one log group. The pipeline
 * does the work (inputs, measuring, the gate, the reports, the store); this
 * file decides only what the action's modes add — fork safety, the two-stage
 * artifact, outputs — and hands the report to GitHub last. A failure to
 * comment or create the check run is a warning: it never hides or changes the
 * verdict, which is decided before any API call.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, type ResultSet } from '../model/index.js';
import { releaseOfRun } from '../pipeline/release-report.js';
import {
  checkRunAnnotations, checkRunner, checkRunSummary, checkRunTitle, commentMarkdown, defaultBaseBranch, EXIT, gate, gateOptions, jobSummary, measureAb,
  historyLocationOf, measuredRun, openHistoryAt, preflightText, readBaseline, readBudgets, readConfigIfPresent, readResultFiles, recordBaseline, runConfiguredSuites, storeOf, writeReleaseReport,
  writeRunFiles, type AbMeasurement, type BaselineQuery, type BaselineRead, type Budgets, type GateReport, type PerfGateConfig, type RunDeps, type RunFiles, type SkippedFile,
} from '../pipeline/index.js';
import { bisectNewAlerts, commentBisects, fileAlertIssues, findMainAlerts, mainAlertsMarkdown, type AlertIssueOutcome, type MainAlerts } from '../pipeline/main-alerts.js';
import { bisectMarkdown } from '../pipeline/bisect.js';
import type { GitHubApi, RepoRef } from '../github/client.js';
import { publishCheckRun } from '../github/check-run.js';
import { decideForkSafety, pullRequestFromEvent, type PullRequestFacts } from '../github/fork.js';
import { MAX_COMMENT_CHARS, stickyMarker, upsertStickyComment, type MarkerState } from '../github/sticky-comment.js';
import { HandoffRejected, readHandoffFolder, verifyClaim, workflowRunFromEvent, writeHandoff, type Handoff } from './handoff.js';
import { reportDigest } from './digest.js';
import { downloadHandoff } from './handoff-download.js';
import type { ActionLog } from './log.js';
import type { Settings } from './settings.js';

/** What the orchestration needs from outside; the entry point builds it. */
export interface ActionDeps {
  /** The GitHub client, or null when there is no token. */
  github: GitHubApi | null;
  log: ActionLog;
  /** Processes and the machine, one for every phase, so a cancelled workflow stops whatever benchmark runs. */
  run: RunDeps;
  /** Cleanups to run if the process is interrupted (the A/B worktree). */
  cleanups: Array<() => void>;
  /** The environment the suites get: the runner's, without the action's inputs and tokens. */
  suiteEnv: NodeJS.ProcessEnv;
  /** Where the runner's progress lines go (standard output). */
  write(text: string): void;
  now(): Date;
}

/** What the run gates: the baseline, the current results, and the A/B confirmations when the run was interleaved. */
interface Measured {
  baseline: ResultSet | undefined;
  current: ResultSet;
  confirmations?: AbMeasurement['confirmations'];
  /** Where each side came from, named when their benchmark ids do not match. */
  baselineSource?: string;
  currentSource: string;
  /** Files in the input folders that were not read as results. */
  skippedFiles?: SkippedFile[];
  /** The history's drift window, when the baseline came from the run history. */
  driftRuns?: ResultSet[];
}

/** Runs the whole action; returns the exit status. Unusable input throws InputError (the caller maps it to 2). */
export async function runAction(settings: Settings, deps: ActionDeps): Promise<number> {
  const event = readEvent(settings.github.eventPath);
  const pr: PullRequestFacts | null = settings.mode === 'report' ? null : pullRequestFromEvent(event);
  if (!forkAllowed(settings, pr, deps.log)) return EXIT.unusable;
  const handoff = settings.mode === 'report' ? await readTwoStageArtifact(settings, event, deps) : null;
  const config = readConfigIfPresent(settings.config, settings.workingDirectory);
  if (!config && settings.mode !== 'report' && settings.results.length === 0) {
    throw new InputError(settings.config, 'no such file; set the config input to your perf-gate.yml');
  }
  const budgets = readBudgets(settings.budgets, config?.budgets, settings.workingDirectory);
  const measuring = !handoff && settings.results.length === 0;
  if (measuring && !(await preflightPasses(settings, deps))) return EXIT.fail;
  const measured = await obtainResults(settings, config, budgets, pr, handoff, measuring, deps);
  const report = await decideGate(settings, budgets, measured, deps.log);
  await publishReports(settings, report, measured.current, config, pr, deps);
  const alerts = settings.mode === 'main' ? await watchMain(settings, config, budgets, measured.current, deps) : null;
  await tellGitHub(settings, report, pr, handoff, deps);
  if (alerts && settings.alert === 'issue') await fileAlerts(settings, alerts, config, budgets, deps);
  if (report.verdict === 'fail') deps.log.error(`perf-gate: the gate fails: ${checkRunTitle(report)}`);
  return stepFails(report, settings.failOn) ? EXIT.fail : EXIT.pass;
}

function readEvent(path: string): unknown {
  if (path === '' || !existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (error) {
    throw new InputError(path, `the event payload is not JSON: ${(error as Error).message}`);
  }
}

function repoRef(settings: Settings): RepoRef {
  const [owner, repo] = settings.github.repository.split('/');
  if (!owner || !repo) throw new InputError('GITHUB_REPOSITORY', 'is not set; the action needs owner/name to talk to GitHub');
  return { owner, repo };
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
      if (!run) throw new InputError('GITHUB_EVENT_PATH', 'mode: report without report-from must run in a workflow_run workflow (the artifact is downloaded from the triggering run)');
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
    const result = checkRunner(settings.preflight, deps.suiteEnv.RUNNER_NAME || undefined);
    for (const line of preflightText(result).trimEnd().split('\n')) log.info(line);
    for (const f of result.findings.filter((x) => x.status === 'warn')) log.warning(`perf-gate preflight: ${f.message}${f.fix ? ` Fix: ${f.fix}` : ''}`);
    return result;
  });
  if (checked.fails) log.error('perf-gate: preflight is strict and found warnings: this runner would give timings that cannot be trusted (see above for the fixes)');
  return !checked.fails;
}

/**
 * The baseline and the current results: measured interleaved (A/B), or the
 * stored baseline plus the suites' run, the given results, or the two-stage
 * artifact's.
 */
async function obtainResults(
  settings: Settings,
  config: PerfGateConfig | null,
  budgets: Budgets,
  pr: PullRequestFacts | null,
  handoff: Handoff | null,
  measuring: boolean,
  deps: ActionDeps,
): Promise<Measured> {
  const abRef = settings.ab === 'base' ? (pr?.baseSha ?? '') : settings.ab;
  if (settings.ab === 'base' && abRef === '') throw new InputError('action input "ab"', '"base" needs a pull_request event with the base commit; give a ref such as origin/main instead');
  const outDir = join(settings.outputDir, 'runs');
  if (measuring && abRef !== '' && config) {
    const ab = await measureAb({
      ref: abRef, config, shard: null, outDir, budgets, cwd: settings.workingDirectory, env: deps.suiteEnv, write: deps.write, now: deps.now, deps: deps.run, cleanups: deps.cleanups,
    });
    return { baseline: ab.base, current: ab.head, confirmations: ab.confirmations, currentSource: `this run of ${config.file}` };
  }
  const created = deps.now().toISOString();
  // Given results are read first: the history chooses their baseline by the testbed they name.
  const given = settings.results.length > 0 ? readResultFiles(settings.results, { cwd: settings.workingDirectory, created }) : null;
  const chosen = await actionBaseline(settings, config, pr, measuring, created, deps, given?.results.testbed?.id);
  const baseline = chosen?.results;
  const sides = { baseline, ...(chosen ? { baselineSource: chosen.source, skippedFiles: chosen.skipped ?? [], ...(chosen.driftRuns ? { driftRuns: chosen.driftRuns } : {}) } : {}) };
  if (handoff) return { ...sides, current: handoff.results, currentSource: 'the two-stage artifact' };
  if (given) {
    const { results: read, skipped } = given;
    return {
      ...sides,
      current: { ...read, commit: read.commit ?? settings.github.sha, ref: read.ref ?? settings.github.ref },
      currentSource: `action input "results" (${settings.results.join(', ')})`,
      skippedFiles: [...skipped, ...(sides.skippedFiles ?? [])],
    };
  }
  if (!config) throw new InputError(settings.config, 'no such file; the suites to run are read from it (or give results: to gate existing results)');
  // No log group around the suites: the runner opens one per suite (groups do not nest).
  const current = await runConfiguredSuites({ config, shard: null, outDir, expected: baseline?.benchmarks ?? [], env: deps.suiteEnv, write: deps.write, now: deps.now, deps: deps.run });
  return { ...sides, current, currentSource: `this run of ${config.file}` };
}

/** The baseline input's files, else the store's choice; a missing or empty one is said out loud and only the budgets decide. */
async function actionBaseline(
  settings: Settings,
  config: PerfGateConfig | null,
  pr: PullRequestFacts | null,
  measuring: boolean,
  created: string,
  deps: ActionDeps,
  givenTestbed: string | undefined,
): Promise<BaselineRead | undefined> {
  const query: BaselineQuery = measuring && config
    ? measuredRun(config, deps.suiteEnv, deps.run)
    : { ...(settings.github.sha ? { commit: settings.github.sha } : {}), ...(givenTestbed ? { testbed: givenTestbed } : {}) };
  const chosen = await readBaseline({
    paths: settings.baseline,
    input: 'the baseline input',
    // With history: in perf-gate.yml, a pull request compares with its merge base's run, a release with the previous tag's.
    store: config
      ? storeOf(config, created, {
        start: pr?.baseSha ? { mergeBaseWith: pr.baseSha } : settings.mode === 'release' ? { release: true } : { mergeBaseWith: await defaultBaseBranch(config.dir) },
        onNoBaseline: (text) => deps.log.warning(`perf-gate: ${text}`),
        ...dataBranchAuth(settings),
      })
      : null,
    query,
    suites: null,
    read: { cwd: settings.workingDirectory, created },
  });
  if (!chosen) {
    deps.log.warning('perf-gate: no baseline found; every benchmark is "new" and only the budgets decide. Run the workflow with mode: main on your default branch to record one.');
    return undefined;
  }
  if (chosen.results.benchmarks.length === 0) {
    deps.log.warning(`perf-gate: the baseline (${chosen.source}) holds no benchmarks; only the budgets decide.`);
    return undefined;
  }
  return chosen;
}

async function decideGate(settings: Settings, budgets: Budgets, measured: Measured, log: ActionLog): Promise<GateReport> {
  const report = await log.group('perf-gate: compare with the baseline and budgets', async () =>
    gate({
      baseline: measured.baseline,
      current: measured.current,
      budgets,
      options: gateOptions(settings.testbedMismatch),
      ...(measured.confirmations ? { confirmations: measured.confirmations } : {}),
      baselineInput: settings.baseline.length > 0 ? 'action input "baseline"' : 'the stored baseline',
      ...(measured.baselineSource ? { baselineSource: measured.baselineSource } : {}),
      currentSource: measured.currentSource,
      ...(measured.confirmations ? { sameConfig: true } : {}),
      ...(measured.skippedFiles ? { skippedFiles: measured.skippedFiles } : {}),
      ...(measured.driftRuns ? { driftRuns: measured.driftRuns } : {}),
    }),
  );
  log.info(`verdict: ${report.verdict}`);
  return report;
}

/** Reports on disk and in the job summary, the outputs, and what each mode adds — all before any API call. */
async function publishReports(settings: Settings, report: GateReport, current: ResultSet, config: PerfGateConfig | null, pr: PullRequestFacts | null, deps: ActionDeps): Promise<void> {
  const { log } = deps;
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
    if (config) {
      const stored = await recordBaseline(storeOf(config, deps.now().toISOString(), { start: { mergeBaseWith: 'HEAD' }, appends: true, ...dataBranchAuth(settings) }), current, null);
      log.info(`baseline written to ${stored}`);
      log.setOutput('baseline-file', stored);
    } else {
      log.warning(`perf-gate: mode main stores the baseline where perf-gate.yml's baselines: points, but ${settings.config} does not exist; the results are only in ${files?.results ?? 'the job summary'}`);
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
 * mode main with a history: the change points of the last runs that are
 * regressions beyond the budgets' tolerance, in the job summary (and the
 * `alerts` output). Reads the history the run was just appended to.
 */
async function watchMain(settings: Settings, config: PerfGateConfig | null, budgets: Budgets, current: ResultSet, deps: ActionDeps): Promise<MainAlerts | null> {
  if (settings.alert === 'off' || !config?.history) return null;
  const testbed = current.testbed?.id;
  if (!testbed) {
    deps.log.warning('perf-gate: the run has no testbed, so its history series are unknown; no main-branch alert');
    return null;
  }
  return deps.log.group('perf-gate: watch main', async () => {
    const history = openHistoryAt(historyLocationOf(config.history!), config.dir, false, dataBranchAuth(settings).auth);
    const found = await findMainAlerts({ history, testbed, budgets, repo: settings.workingDirectory, window: settings.alertWindow });
    deps.log.info(`${found.alerts.length} new regression${found.alerts.length === 1 ? '' : 's'} among the change points of the last ${settings.alertWindow} runs on ${testbed}`);
    await deps.log.appendSummary(mainAlertsMarkdown(found, alertLinks(settings)));
    deps.log.setOutput('alerts', String(found.alerts.length));
    return found;
  });
}

function alertLinks(settings: Settings): { repositoryUrl: string | null } {
  return { repositoryUrl: settings.github.repository ? `${settings.github.serverUrl}/${settings.github.repository}` : null };
}

/** `alert: issue`: one issue per alert, and with `alert-bisect` each new one bisected. A failure is a warning; the run is already stored. */
async function fileAlerts(settings: Settings, alerts: MainAlerts, config: PerfGateConfig | null, budgets: Budgets, deps: ActionDeps): Promise<void> {
  const { github, log } = deps;
  if (!github) {
    log.warning('perf-gate: alert: issue needs a github-token with issues: write; the alerts are only in the job summary');
    return;
  }
  let created: AlertIssueOutcome['created'];
  try {
    const outcome = await fileAlertIssues(github, repoRef(settings), settings.gateName, alerts, alertLinks(settings));
    const list = (what: string, issues: readonly { url: string }[]): string => (issues.length ? `${what}: ${issues.map((i) => i.url).join(', ')}` : '');
    log.info(['alert issues', list('created', outcome.created), list('updated', outcome.updated), list('closed', outcome.closed)].filter((t) => t !== '').join('; '));
    created = outcome.created;
  } catch (error) {
    log.warning(`perf-gate: could not file the alert issues (${(error as Error).message}); they are in the job summary. The token needs issues: write.`);
    return;
  }
  if (settings.alertBisect && config && created.length > 0) await bisectAlerts(settings, created, alerts, config, budgets, github, deps);
}

/** `alert-bisect`: the commit of each newly opened alert, on its issue and in the job summary. */
async function bisectAlerts(settings: Settings, created: AlertIssueOutcome['created'], alerts: MainAlerts, config: PerfGateConfig, budgets: Budgets, github: GitHubApi, deps: ActionDeps): Promise<void> {
  await deps.log.group('perf-gate: bisect the new alerts', async () => {
    const bisects = await bisectNewAlerts(created, alerts, {
      config, budgets, outDir: join(settings.outputDir, 'bisect'), env: deps.suiteEnv, write: deps.write, now: deps.now, deps: deps.run, cleanups: deps.cleanups,
    });
    for (const b of bisects) {
      if ('error' in b) deps.log.warning(`perf-gate: could not bisect ${b.alert.row.benchmark}: ${b.error}`);
      else await deps.log.appendSummary(bisectMarkdown(b.report));
    }
    try {
      await commentBisects(github, repoRef(settings), bisects);
    } catch (error) {
      deps.log.warning(`perf-gate: could not comment the bisect on the alert issues (${(error as Error).message}); it is in the job summary`);
    }
  });
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
    log.error(`perf-gate: could not write the run's files to output-dir ${settings.outputDir} (${(error as Error).message}); the report is in the job summary, the verdict stands`);
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
function tellGitHub(settings: Settings, report: GateReport, pr: PullRequestFacts | null, handoff: Handoff | null, deps: ActionDeps): Promise<void> {
  const { log, github } = deps;
  return log.group('perf-gate: tell GitHub', async () => {
    if (!github) {
      log.info('no github-token: no comment and no check run');
      return;
    }
    const repo = repoRef(settings);
    const prNumber = handoff ? handoff.claim.pullRequest : pr?.number ?? null;
    const headSha = handoff ? handoff.claim.headSha : pr?.headSha ?? settings.github.sha;
    if (prNumber !== null && (settings.mode === 'pr' || settings.mode === 'report')) await postComment(github, repo, prNumber, settings, report, log);
    if (settings.checkRun && headSha) await postCheckRun(github, repo, headSha, settings, report, log);
  });
}

async function postComment(github: GitHubApi, repo: RepoRef, pullRequest: number, settings: Settings, report: GateReport, log: ActionLog): Promise<void> {
  const state: MarkerState = { verdict: report.verdict, digest: reportDigest(report) };
  try {
    const outcome = await upsertStickyComment(github, {
      repo,
      pullRequest,
      gate: settings.gateName,
      mode: settings.comment,
      state,
      ...(settings.commentAuthor ? { author: settings.commentAuthor } : {}),
      render: (previous) =>
        commentMarkdown(report, { title: settings.gateName, marker: stickyMarker(settings.gateName, state), maxLength: MAX_COMMENT_CHARS, previouslyFailed: previous?.verdict === 'fail' }),
    });
    log.info(`comment ${outcome.action}${outcome.reason ? ` (${outcome.reason})` : ''}${outcome.url ? `: ${outcome.url}` : ''}`);
    log.setOutput('comment-url', outcome.url ?? '');
  } catch (error) {
    log.warning(`perf-gate: could not write the pull request comment (${(error as Error).message}); the verdict stands. A fork's read-only token cannot comment: use the two-stage mode.`);
  }
}

async function postCheckRun(github: GitHubApi, repo: RepoRef, headSha: string, settings: Settings, report: GateReport, log: ActionLog): Promise<void> {
  try {
    const outcome = await publishCheckRun(github, {
      repo,
      name: settings.gateName,
      headSha,
      conclusion: checkConclusion(report, settings),
      title: checkRunTitle(report),
      summary: checkRunSummary(report, settings.gateName),
      annotations: checkRunAnnotations(report, { workspace: settings.github.workspace, workingDirectory: settings.workingDirectory, config: settings.config }),
      ...(settings.github.runId ? { detailsUrl: `${settings.github.serverUrl}/${settings.github.repository}/actions/runs/${settings.github.runId}` } : {}),
    });
    log.info(`check run ${outcome.id} (${outcome.batches} request${outcome.batches === 1 ? '' : 's'} with annotations)`);
    log.setOutput('check-run-id', String(outcome.id));
  } catch (error) {
    log.warning(`perf-gate: could not create the check run (${(error as Error).message}); the verdict stands. The token needs checks: write.`);
  }
}

/** Does the step fail, given the verdict and `fail-on`? */
export function stepFails(report: GateReport, failOn: Settings['failOn']): boolean {
  if (failOn === 'never') return false;
  if (report.verdict === 'fail') return true;
  if (failOn === 'warn') {
    return report.rows.some((r) => r.status === 'regressed' || r.budget?.result === 'fail') || report.counts.budgetWarned > 0;
  }
  return false;
}

/**
 * The check run's conclusion. In the two-stage report mode the numbers were
 * measured by the pull request's own workflow (a fork's, possibly edited), so
 * a pass is self-reported: `neutral`, never `success`, so that it cannot
 * satisfy a required check. A failure is still reported as one.
 */
export function checkConclusion(report: GateReport, settings: Pick<Settings, 'mode' | 'failOn'>): 'success' | 'failure' | 'neutral' {
  if (report.verdict === 'pass') return settings.mode === 'report' ? 'neutral' : 'success';
  return settings.failOn === 'never' ? 'neutral' : 'failure';
}

/**
 * The github-token for a data branch's fetch and push, handed to those git
 * processes alone: the checkout keeps no credentials (persist-credentials:
 * false), so the benchmarks never find a token in .git/config.
 */
function dataBranchAuth(settings: Settings): { auth?: { token: string; serverUrl: string } } {
  return settings.token ? { auth: { token: settings.token, serverUrl: settings.github.serverUrl } } : {};
}
