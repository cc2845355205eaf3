/**
 * The action, phase by phase: settings are already read; this decides where
 * the current results come from (suites, given files, or the two-stage
 * artifact), runs the lead's gate pipeline, writes the reports, and tells
 * GitHub. Each phase is a log group. GitHub is told last, and a failure to
 * comment or create the check run is a warning: it never hides or changes the
 * verdict, which is decided before any API call.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readInputs } from '../adapters/index.js';
import { EMPTY_BUDGETS, loadBudgets, type Budgets } from '../config/budgets.js';
import { loadPerfGateConfig, type PerfGateConfig } from '../config/perf-gate-config.js';
import { decide, TestbedMismatchError, withConfirmations, type GateReport } from '../gate/index.js';
import type { AbMeasurement } from '../runner/ab.js';
import type { PreflightReport } from '../runner/preflight/index.js';
import { preflightText } from '../runner/preflight/render.js';
import { InputError, type BenchmarkResult, type ResultSet } from '../model/index.js';
import { renderJobSummary, renderJson, renderMarkdown, renderRelease } from '../report/index.js';
import type { GitHubApi, RepoRef } from '../github/client.js';
import { publishCheckRun } from '../github/check-run.js';
import { decideForkSafety, pullRequestFromEvent, type PullRequestFacts } from '../github/fork.js';
import { HandoffRejected, readHandoffFolder, verifyClaim, workflowRunFromEvent, writeHandoff, type Handoff } from './handoff.js';
import { MAX_COMMENT_CHARS, stickyMarker, upsertStickyComment, type MarkerState } from '../github/sticky-comment.js';
import { checkRunAnnotations } from './annotations.js';
import { reportDigest } from './digest.js';
import { downloadHandoff } from './handoff-download.js';
import type { ActionLog } from './log.js';
import type { Settings } from './settings.js';

/** What the orchestration needs from outside; the entry point builds it. */
export interface ActionDeps {
  /** The GitHub client, or null when there is no token. */
  github: GitHubApi | null;
  log: ActionLog;
  /**
   * Runs the config's suites (the runner's `perf-gate run` logic) and returns
   * the run's ResultSet; `expected` (the baseline's benchmarks) lets a crashed
   * suite show its benchmarks as failed rows.
   */
  runSuites(config: PerfGateConfig, settings: Settings, expected: readonly BenchmarkResult[]): Promise<ResultSet>;
  /** Stores main's ResultSet where the config's `baselines:` points; returns the file written. */
  storeBaseline(config: PerfGateConfig, results: ResultSet): string;
  /** Checks the runner (governor, turbo, load, noise probe …) at the given level. */
  preflight(level: Settings['preflight']): PreflightReport;
  /** Interleaved A/B of HEAD against `ref` (the runner's `perf-gate run --ab` logic). */
  measureAb(ref: string, config: PerfGateConfig, settings: Settings, budgets: Budgets): Promise<AbMeasurement>;
  now(): Date;
}

/** Exit statuses of docs/design.md. */
export const ACTION_EXIT = { pass: 0, fail: 1, unusable: 2 } as const;

/** Where the run's files went, for outputs and the artifact. */
interface Written {
  reportJson: string;
  reportMarkdown: string;
  results: string;
}

function repoRef(settings: Settings): RepoRef {
  const [owner, repo] = settings.github.repository.split('/');
  if (!owner || !repo) throw new InputError('GITHUB_REPOSITORY', 'is not set; the action needs owner/name to talk to GitHub');
  return { owner, repo };
}

function readEvent(path: string): unknown {
  if (path === '' || !existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (error) {
    throw new InputError(path, `the event payload is not JSON: ${(error as Error).message}`);
  }
}

function loadConfig(settings: Settings, required: boolean): PerfGateConfig | null {
  if (!existsSync(settings.config)) {
    if (required) throw new InputError(settings.config, 'no such file; set the config input to your perf-gate.yml');
    return null;
  }
  return loadPerfGateConfig(settings.config, settings.workingDirectory);
}

function loadGateBudgets(settings: Settings, config: PerfGateConfig | null): Budgets {
  if (settings.budgets.length > 0) return loadBudgets(settings.budgets, settings.workingDirectory);
  if (config && existsSync(config.budgets)) return loadBudgets([config.budgets], settings.workingDirectory);
  return EMPTY_BUDGETS;
}

function loadBaseline(settings: Settings, config: PerfGateConfig | null, created: string, log: ActionLog): ResultSet | undefined {
  const paths = settings.baseline.length > 0 ? settings.baseline : config && existsSync(config.baselines) ? [config.baselines] : [];
  if (settings.baseline.length > 0) {
    for (const p of paths) if (!existsSync(p)) throw new InputError(p, 'no such baseline file or folder (the baseline input)');
  }
  if (paths.length === 0) {
    log.warning('perf-gate: no baseline found; every benchmark is "new" and only the budgets decide. Run the workflow with mode: main on your default branch to record one.');
    return undefined;
  }
  const read = readInputs(paths, { cwd: settings.workingDirectory, created });
  if (read.resultSet.benchmarks.length === 0) {
    log.warning(`perf-gate: the baseline (${paths.join(', ')}) holds no benchmarks; only the budgets decide.`);
    return undefined;
  }
  return read.resultSet;
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

function setReportOutputs(log: ActionLog, report: GateReport, written: Written): void {
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
  log.setOutput('report-json', written.reportJson);
  log.setOutput('report-markdown', written.reportMarkdown);
  log.setOutput('results', written.results);
}

/** Obtains the current ResultSet for every mode but report. */
async function currentResults(
  settings: Settings,
  config: PerfGateConfig | null,
  deps: ActionDeps,
  created: string,
  baseline: ResultSet | undefined,
): Promise<ResultSet> {
  if (settings.results.length > 0) {
    const read = readInputs(settings.results, { cwd: settings.workingDirectory, created });
    return { ...read.resultSet, commit: read.resultSet.commit ?? settings.github.sha, ref: read.resultSet.ref ?? settings.github.ref };
  }
  if (!config) throw new InputError(settings.config, 'no such file; the suites to run are read from it (or give results: to gate existing results)');
  return deps.runSuites(config, settings, baseline?.benchmarks ?? []);
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

/** Runs the whole action; returns the exit status. Unusable input throws InputError (the caller maps it to 2). */
export async function runAction(settings: Settings, deps: ActionDeps): Promise<number> {
  const { log } = deps;
  const created = deps.now().toISOString();
  const event = readEvent(settings.github.eventPath);
  const pr: PullRequestFacts | null = settings.mode === 'report' ? null : pullRequestFromEvent(event);

  if (settings.mode === 'pr') {
    const decision = decideForkSafety(pr, settings.github.runnerEnvironment, settings.allowForkPullRequests, settings.github.eventName);
    if (!decision.allowed) {
      log.error(decision.message);
      log.setOutput('verdict', 'refused');
      return ACTION_EXIT.unusable;
    }
    if (decision.note) log.warning(`perf-gate: ${decision.note}`);
  }

  // Two-stage report: the results come from the untrusted artifact, verified first.
  let handoff: Handoff | null = null;
  if (settings.mode === 'report') {
    handoff = await log.group('perf-gate: read the two-stage artifact', async () => {
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

  const config = loadConfig(settings, settings.mode !== 'report' && settings.results.length === 0);
  const budgets = loadGateBudgets(settings, config);

  const measuring = !handoff && settings.results.length === 0;
  if (measuring && settings.preflight !== 'off') {
    const checked = await log.group('perf-gate: preflight (is this runner fit to measure on?)', async () => {
      const result = deps.preflight(settings.preflight);
      for (const line of preflightText(result).trimEnd().split('\n')) log.info(line);
      for (const f of result.findings.filter((x) => x.status === 'warn')) log.warning(`perf-gate preflight: ${f.message}${f.fix ? ` Fix: ${f.fix}` : ''}`);
      return result;
    });
    if (checked.fails) {
      log.error('perf-gate: preflight is strict and found warnings: this runner would give timings that cannot be trusted (see above for the fixes)');
      return ACTION_EXIT.fail;
    }
  }

  // An A/B run measures its own baseline (the base commit, interleaved); otherwise the stored one is read.
  const abRef = settings.ab === 'base' ? (pr?.baseSha ?? '') : settings.ab;
  if (settings.ab === 'base' && abRef === '') throw new InputError('action input "ab"', '"base" needs a pull_request event with the base commit; give a ref such as origin/main instead');
  const ab = measuring && abRef !== '' && config ? await deps.measureAb(abRef, config, settings, budgets) : null;
  const baseline = ab ? ab.base : loadBaseline(settings, config, created, log);
  // No log group around the suites: the runner opens one per suite (groups do not nest).
  const current = ab ? ab.head : handoff ? handoff.results : await currentResults(settings, config, deps, created, baseline);

  const report = await log.group('perf-gate: compare with the baseline and budgets', async () => {
    const options = { comparison: { confidence: 0.95, seed: 1 }, testbedMismatch: settings.testbedMismatch };
    try {
      return ab ? withConfirmations(decide(ab.base, ab.head, budgets, options), ab.confirmations) : decide(baseline, current, budgets, options);
    } catch (error) {
      if (error instanceof TestbedMismatchError) throw new InputError('action input "baseline"', error.message);
      throw error;
    }
  });
  log.info(`verdict: ${report.verdict}`);

  // Reports on disk and in the job summary, before any API call.
  mkdirSync(settings.outputDir, { recursive: true });
  const written: Written = {
    reportJson: join(settings.outputDir, 'report.json'),
    reportMarkdown: join(settings.outputDir, 'report.md'),
    results: join(settings.outputDir, 'results.json'),
  };
  const hint = 'The job summary and the run\'s `perf-gate` artifact have the full report.';
  const fullMarkdown = renderMarkdown(report, { title: settings.gateName, maxLength: 1_000_000 });
  writeFileSync(written.reportJson, renderJson(report));
  writeFileSync(written.reportMarkdown, fullMarkdown);
  writeFileSync(written.results, `${JSON.stringify(current, null, 2)}\n`);
  await deps.log.appendSummary(renderJobSummary(report, { title: settings.gateName, fullReportHint: hint }));
  setReportOutputs(log, report, written);

  if (settings.mode === 'pr' && pr) {
    const dir = writeHandoff(join(settings.outputDir, 'handoff'), { pullRequest: pr.number, headSha: pr.headSha, gate: settings.gateName }, current);
    log.setOutput('handoff-dir', dir);
  }
  if (settings.mode === 'main') {
    if (config) {
      const stored = deps.storeBaseline(config, current);
      log.info(`baseline written to ${stored}`);
      log.setOutput('baseline-file', stored);
    } else {
      log.warning(`perf-gate: mode main stores the baseline where perf-gate.yml's baselines: points, but ${settings.config} does not exist; the results are only in ${written.results}`);
    }
  }
  if (settings.mode === 'release') {
    const releasePath = join(settings.outputDir, 'release-report.md');
    const tag = /^refs\/tags\/(.+)$/.exec(settings.github.ref)?.[1];
    const release = renderRelease(report, tag ? { version: tag } : {});
    writeFileSync(releasePath, release);
    await deps.log.appendSummary(release);
    log.setOutput('release-report', releasePath);
  }

  await log.group('perf-gate: tell GitHub', async () => {
    if (!deps.github) {
      log.info('no github-token: no comment and no check run');
      return;
    }
    const repo = repoRef(settings);
    const prNumber = handoff ? handoff.claim.pullRequest : pr?.number ?? null;
    const headSha = handoff ? handoff.claim.headSha : pr?.headSha ?? settings.github.sha;
    const state: MarkerState = { verdict: report.verdict, digest: reportDigest(report) };
    if (prNumber !== null && (settings.mode === 'pr' || settings.mode === 'report')) {
      try {
        const outcome = await upsertStickyComment(deps.github, {
          repo,
          pullRequest: prNumber,
          gate: settings.gateName,
          mode: settings.comment,
          state,
          ...(settings.commentAuthor ? { author: settings.commentAuthor } : {}),
          render: (previous) =>
            renderMarkdown(report, {
              title: settings.gateName,
              marker: stickyMarker(settings.gateName, state),
              maxLength: MAX_COMMENT_CHARS,
              fullReportHint: hint,
              previouslyFailed: previous?.verdict === 'fail',
            }),
        });
        log.info(`comment ${outcome.action}${outcome.reason ? ` (${outcome.reason})` : ''}${outcome.url ? `: ${outcome.url}` : ''}`);
        log.setOutput('comment-url', outcome.url ?? '');
      } catch (error) {
        log.warning(`perf-gate: could not write the pull request comment (${(error as Error).message}); the verdict stands. A fork's read-only token cannot comment: use the two-stage mode.`);
      }
    }
    if (settings.checkRun && headSha) {
      try {
        const outcome = await publishCheckRun(deps.github, {
          repo,
          name: settings.gateName,
          headSha,
          conclusion: checkConclusion(report, settings),
          title: renderTitle(report),
          summary: renderMarkdown(report, { title: settings.gateName, maxLength: 65_535, fullReportHint: hint }),
          annotations: checkRunAnnotations(report, settings),
          ...(settings.github.runId ? { detailsUrl: `${settings.github.serverUrl}/${settings.github.repository}/actions/runs/${settings.github.runId}` } : {}),
        });
        log.info(`check run ${outcome.id} (${outcome.batches} request${outcome.batches === 1 ? '' : 's'} with annotations)`);
        log.setOutput('check-run-id', String(outcome.id));
      } catch (error) {
        log.warning(`perf-gate: could not create the check run (${(error as Error).message}); the verdict stands. The token needs checks: write.`);
      }
    }
  });

  if (report.verdict === 'fail') log.error(`perf-gate: the gate fails: ${renderTitle(report)}`);
  return stepFails(report, settings.failOn) ? ACTION_EXIT.fail : ACTION_EXIT.pass;
}

/** One line for the check run's title. */
function renderTitle(report: GateReport): string {
  const c = report.counts;
  const parts = [
    c.failed ? `${c.failed} failed` : '',
    c.regressed ? `${c.regressed} regressed` : '',
    c.budgetFailed ? `${c.budgetFailed} over budget` : '',
    c.improved ? `${c.improved} improved` : '',
    `${c.unchanged} unchanged`,
  ].filter((p) => p !== '');
  return `${report.verdict === 'pass' ? 'Pass' : 'Fail'}: ${parts.join(', ')}`;
}
