/**
 * pipeline/ is the one home of a run, for both faces (cli/ and action/).
 * A face builds a RunPlan from its flags or inputs and hands it to runGate;
 * every file here, in the order a run uses it:
 *
 *   run-plan.ts        the run as data: where the current results and the
 *                      baseline come from, where the runs are kept (a
 *                      StoreAt), the labels, the policy; the one rule for a
 *                      history's start and for whether the second stage is on
 *   run.ts             runGate: open the store and check it can take the
 *                      run, the preflight, read or measure, choose the
 *                      baseline, gate once, confirm, apply the acceptances,
 *                      say what fails, record, and in mode main watch the
 *                      history (a release: assemble its model)
 *   output-paths.ts    every output path checked before any work starts
 *   preflight.ts       is this machine fit to measure on?
 *   inputs.ts          read perf-gate.yml, the budgets, given results, the
 *                      baseline (named files, else the store's choice)
 *   stores.ts          which store: the `baselines:` folder or the run
 *                      history (folder or data branch), named as data and
 *                      opened (by run.ts alone) with the checks of
 *                      store/write-policy.ts
 *   output-parser.ts   a suite's harness output → benchmarks
 *   measure.ts         run the suites (or A/B rounds), throttle check,
 *                      derived metrics
 *   gate.ts            decide, once (gate/)
 *   output-files.ts    write the reports, the run's files, the release report
 *   exit.ts            the exit statuses
 *
 * Around a run: command.ts (the shape of a subcommand), run-deps.ts
 * (processes and the machine, injectable). Two wings: history/, the history
 * and watching main (history.ts, history-changes.ts, main-watch.ts and
 * main-alerts.ts, release-report.ts, dashboard.ts with dashboard-assets.ts,
 * bisect.ts, group-blame.ts for a merge queue's group, repository-url.ts); and tools/, the CLI's tools (convert.ts,
 * merge-shards.ts, time-commands.ts, count-commands.ts). cli/ and action/ import only pipeline/ (action/ also
 * github/), and model/ for types. pipeline/ never parses flags or inputs,
 * never prints workflow commands or reads process.env (the faces hand it
 * their environment), never decides a verdict itself (gate/ does), and
 * never talks to GitHub: it words what the action face files (an alert
 * issue, a notification, a ledger cut to the length the face allows).
 */
export * from './exit.js';
export * from './command.js';
export * from './run-deps.js';
export * from './preflight.js';
export * from './inputs.js';
export * from './stores.js';
export * from './history/history.js';
export * from './output-parser.js';
export * from './measure.js';
export * from './gate.js';
export * from './output-paths.js';
export * from './output-files.js';
export { checkRunSummary, checkRunTitle, commentMarkdown, FULL_REPORT_HINT, jobSummary, releaseTerminalText } from '../report/summaries.js';
export { toAnnotations } from '../report/index.js';
export { noiseText, runListText } from '../report/history-text.js';
export { batchBlameMarkdown } from '../report/batch-blame.js';
export * from './tools/convert.js';
export * from './tools/merge-shards.js';
export * from './tools/time-commands.js';
export * from './tools/count-commands.js';
export * from './run-plan.js';
export type { ReleaseModel, RunRelease } from './history/release-report.js';
export type { ConfirmPlan } from './confirm.js';
export * from './run.js';
export * from './pr-ledger.js';
export {
  acceptanceRecordMarkdown,
  withAcceptanceRecord,
  runStatusMarkdown,
  withRunStatus,
  type LedgerDecision,
  type RunStatus,
} from '../report/acceptance-text.js';
export { escapeMarkdown } from '../report/escape-markdown.js';
export {
  checkConclusionOf,
  DEFAULT_CHECK_POLICY,
  FAIL_ON,
  INCONCLUSIVE,
  type CheckConclusion,
  type CheckPolicy,
  type FailOn,
  type InconclusivePolicy,
} from '../gate/check-policy.js';
export * from './storable.js';
