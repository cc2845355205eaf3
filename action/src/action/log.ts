/**
 * Where the action's messages and results go. The entry point implements it
 * with @actions/core (log groups, workflow commands, GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY); the orchestration only talks to this interface.
 */
export interface ActionLog {
  /** Runs `fn` inside a collapsible log group. */
  group<T>(title: string, fn: () => Promise<T>): Promise<T>;
  info(message: string): void;
  debug(message: string): void;
  /** A warning annotation on the run; never changes the verdict. */
  warning(message: string): void;
  error(message: string): void;
  setOutput(name: string, value: string): void;
  /** Appends Markdown to the job summary. */
  appendSummary(markdown: string): Promise<void>;
}
