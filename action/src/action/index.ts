/**
 * action/ owns the GitHub Action's orchestration: one module reading all
 * inputs and the environment into typed Settings, the phases of a run (fork
 * check, results from suites / files / the two-stage artifact, the lead's gate
 * pipeline, reports, then GitHub), the two-stage handoff and its
 * verification, and the step's exit status. It is wiring: it never computes a
 * verdict (gate/), renders a report (report/) or runs a suite (runner/).
 */
export { readSettings, describeSettings, inputVariable, type Settings, type Mode, type FailOn } from './settings.js';
export { runAction, stepFails, ACTION_EXIT, type ActionDeps } from './run-action.js';
export type { ActionLog } from './log.js';
