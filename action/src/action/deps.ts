/**
 * What the action's phases need from outside, built once by the entry point
 * (command.ts) and handed down: every helper of the face imports it from
 * here, so none of them imports the orchestration (run-action.ts).
 */
import type { GitHubApi } from '../github/client.js';
import type { RunContext } from '../pipeline/index.js';
import type { ActionLog } from './log.js';

export interface ActionDeps {
  /** The GitHub client, or null when there is no token. */
  github: GitHubApi | null;
  log: ActionLog;
  /**
   * The run's context, one for every phase (so a cancelled workflow stops
   * whatever benchmark runs): `env` is what the suites get, the runner's
   * environment without the action's inputs and tokens; `write` takes the
   * runner's progress lines (standard output); `warn` becomes an annotation.
   */
  run: RunContext;
}
