import { appendFileSync, writeFileSync } from 'node:fs';
import type { SpawnRequest, SpawnResult, Spawner } from '../../src/runner/spawn.js';

/** What a mocked process does: the output it writes, its log, how it ends. */
export interface MockOutcome {
  /** Written to the invocation's output file ({output}, or stdout when `run` has none). */
  output?: string;
  /** Appended to the log. */
  log?: string;
  exitCode?: number | null;
  signal?: string | null;
  timedOut?: boolean;
  seconds?: number;
}

/**
 * A deterministic measurement source for whole-pipeline tests: instead of
 * starting processes, `respond` decides what each request "does" (it sees the
 * command, the cwd and the environment, e.g. $PERF_GATE_SIDE in A/B runs), and
 * the outcome goes through the same files the real spawner uses.
 */
export function mockSpawner(respond: (request: SpawnRequest, call: number) => MockOutcome | Promise<MockOutcome>): Spawner & { calls: SpawnRequest[] } {
  const calls: SpawnRequest[] = [];
  return {
    calls,
    stopAll() {
      // Nothing runs.
    },
    async run(request): Promise<SpawnResult> {
      calls.push(request);
      const outcome = await respond(request, calls.length - 1);
      appendFileSync(request.logPath, outcome.log ?? '');
      const target = request.stdoutPath ?? request.outputPath;
      if (outcome.output !== undefined && target) writeFileSync(target, outcome.output);
      if (request.stdoutPath && outcome.output === undefined) writeFileSync(request.stdoutPath, '');
      return {
        exitCode: outcome.signal || outcome.timedOut ? (outcome.exitCode ?? null) : (outcome.exitCode ?? 0),
        signal: outcome.signal ?? (outcome.timedOut ? 'SIGTERM' : null),
        timedOut: outcome.timedOut ?? false,
        seconds: outcome.seconds ?? 0.01,
      };
    },
  };
}
