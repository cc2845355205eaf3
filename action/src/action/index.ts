/**
 * action/ is the GitHub Action's face: one module reading all inputs and the
 * environment (read-settings.ts) into typed Settings (settings.ts), the `perf-gate action`
 * command that builds the outside world (command.ts), the run's phases as
 * the action sees them (run-action.ts, a table of contents: the facts GitHub
 * holds, the plan, the run, the reports, one program per mode), the
 * two-stage handoff and its verification, and the step's exit status. It is wiring: it calls pipeline/ for everything a run does and
 * hands the report to github/; it never computes a verdict, renders a report
 * or runs a suite itself.
 */
export { readSettings, describeSettings, inputVariable } from './read-settings.js';
export type { Settings, Mode, FailOn } from './settings.js';
export { runAction } from './run-action.js';
export type { ActionDeps } from './deps.js';
export { actionCommand } from './command.js';
export type { ActionLog } from './log.js';
