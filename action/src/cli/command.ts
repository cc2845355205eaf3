/**
 * The shape of one `perf-gate` subcommand. Commands are wiring: parse flags,
 * call the layers (adapters → gate → report → store/github), write outputs,
 * return the exit status. They never decide a verdict themselves.
 */
export interface CliContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
  /** The clock, injected so ResultSets and reports are reproducible in tests. */
  now(): Date;
}

/** Exit statuses of docs/design.md: 0 pass, 1 gate failed, 2 unusable input. */
export const EXIT = { pass: 0, fail: 1, unusable: 2 } as const;

export interface Command {
  readonly name: string;
  /** One line for `perf-gate --help`. */
  readonly summary: string;
  /** The usage block printed by `perf-gate <name> --help` and on flag errors. */
  readonly usage: string;
  run(argv: string[], ctx: CliContext): Promise<number>;
}

/** A mistake in the command line itself: printed with the usage, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
