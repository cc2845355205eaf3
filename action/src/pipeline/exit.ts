import type { GateReport } from '../gate/index.js';

/**
 * Exit statuses of docs/design.md, the one table for both faces (the `perf-gate`
 * commands and the GitHub Action): 0 the gate passes, 1 it fails, 2 the input
 * is unusable.
 */
export const EXIT = { pass: 0, fail: 1, unusable: 2 } as const;

/** The exit status a decided report gives: 0 pass, 1 fail. */
export function verdictExit(report: GateReport): number {
  return report.verdict === 'pass' ? EXIT.pass : EXIT.fail;
}
