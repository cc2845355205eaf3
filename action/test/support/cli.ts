import { main } from '../../src/cli.js';
import type { CliContext } from '../../src/pipeline/command.js';

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs the perf-gate CLI in-process with captured output and a fixed clock (2026-11-21T12:00Z unless `at` says otherwise). */
export async function runCli(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}, at = '2026-11-21T12:00:00Z'): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    cwd,
    env: { ...env },
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    now: () => new Date(at),
  };
  const status = await main(argv, ctx);
  return { status, stdout, stderr };
}
