/**
 * The action, as a table of contents: settings are already read
 * (read-settings.ts). The facts GitHub holds come first (run-facts.ts), the
 * plan is built from settings and facts (action-plan.ts), the pipeline runs
 * it and finishes the verdict (pipeline/run.ts), the reports go to the
 * runner (run-reports.ts), and each mode adds its own after the run
 * (mode-pr.ts, mode-main.ts, mode-release.ts, mode-report.ts; the command
 * job is pr-commands.ts). Nothing here decides a verdict.
 */
import { existsSync, readFileSync } from 'node:fs';
import { InputError } from '../model/index.js';
import {
  checkRunTitle,
  EXIT,
  preflightText,
  readBudgets,
  readConfigIfPresent,
  runGate,
  type BaselineRead,
  type GateReport,
  type PreflightReport,
} from '../pipeline/index.js';
import { actionPlan } from './action-plan.js';
import { afterMainRun } from './mode-main.js';
import { afterPullRequestRun } from './mode-pr.js';
import { afterReleaseRun } from './mode-release.js';
import { afterReportRun } from './mode-report.js';
import { runPrCommands } from './pr-commands.js';
import { runFacts } from './run-facts.js';
import { publishReports } from './run-reports.js';
import type { ActionDeps } from './deps.js';
import type { ActionLog } from './log.js';
import type { Settings } from './settings.js';

export { confirmPlan } from './action-plan.js';

/** Runs the whole action; returns the exit status. Unusable input throws InputError (the caller maps it to 2). */
export async function runAction(settings: Settings, deps: ActionDeps): Promise<number> {
  const event = readEvent(settings.github.eventPath);
  if (settings.mode === 'command') return runPrCommands(settings, event, deps);
  const facts = await runFacts(settings, event, deps);
  if (facts === null) return EXIT.unusable;
  const config = readConfigIfPresent(settings.config, settings.workingDirectory);
  if (!config && settings.mode !== 'report' && settings.results.length === 0) {
    throw new InputError(settings.config, 'no such file; set the config input to your perf-gate.yml');
  }
  const budgets = readBudgets(settings.budgets, config?.budgets, settings.workingDirectory);
  // A run started by /perf-gate run stamps the commit it measured, not the dispatching branch's GITHUB_SHA.
  const run = facts.dispatched ? { ...deps.run, env: { ...deps.run.env, GITHUB_SHA: facts.dispatched.pr.headSha } } : deps.run;
  const outcome = await runGate(await actionPlan(settings, config, budgets, facts, deps), run, {
    onBaseline: (chosen) => sayBaseline(chosen, deps.log),
    onNoBaseline: (text) => deps.log.warning(`perf-gate: ${text}`),
    onPreflight: (report) => sayPreflight(report, deps.log),
  });
  if ('unfit' in outcome) {
    deps.log.error('perf-gate: preflight is strict and found warnings: this runner would give timings that cannot be trusted (see above for the fixes)');
    return EXIT.fail;
  }
  deps.log.info(`verdict: ${outcome.report.verdict}`);
  const files = await publishReports(settings, outcome, deps.log);
  if (settings.mode === 'pr') await afterPullRequestRun(settings, outcome, files, { config, budgets }, facts, deps);
  if (settings.mode === 'report') await afterReportRun(settings, outcome, facts, deps);
  if (settings.mode === 'main') await afterMainRun(settings, outcome, files, { config, budgets }, facts, deps);
  if (settings.mode === 'release') await afterReleaseRun(settings, outcome, facts, deps);
  sayVerdict(settings, outcome.report, deps.log);
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

/** The runner's preflight, in its own log group: every check, and each warning as an annotation with its fix. */
function sayPreflight(report: PreflightReport, log: ActionLog): Promise<void> {
  return log.group('perf-gate: preflight (is this runner fit to measure on?)', () => {
    for (const line of preflightText(report).trimEnd().split('\n')) log.info(line);
    for (const f of report.findings.filter((x) => x.status === 'warn')) log.warning(`perf-gate preflight: ${f.message}${f.fix ? ` Fix: ${f.fix}` : ''}`);
    return Promise.resolve();
  });
}

/** A missing or empty baseline is said out loud, before anything is measured: only the budgets decide. */
function sayBaseline(chosen: BaselineRead | undefined, log: ActionLog): void {
  if (!chosen)
    log.warning(
      'perf-gate: no baseline found; every benchmark is "new" and only the budgets decide. Run the workflow with mode: main on your default branch to record one.',
    );
  else if (chosen.results.benchmarks.length === 0) log.warning(`perf-gate: the baseline (${chosen.source}) holds no benchmarks; only the budgets decide.`);
}

/** The verdict's last log lines: an error when the gate fails, and what the inconclusive rows do to the check. */
function sayVerdict(settings: Settings, report: GateReport, log: ActionLog): void {
  if (report.verdict === 'fail') log.error(`perf-gate: the gate fails: ${checkRunTitle(report)}`);
  if (report.counts.inconclusive > 0 && settings.inconclusive !== 'pass')
    log.info(
      `${report.counts.inconclusive} inconclusive row(s); inconclusive: ${settings.inconclusive} makes the check ${settings.inconclusive === 'fail' ? 'fail' : 'neutral'}`,
    );
}
