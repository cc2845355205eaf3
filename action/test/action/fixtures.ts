/** ResultSets built in code for the action tests (deterministic samples). */
import type { ResultSet } from '../../src/model/index.js';

/** n samples around `center` seconds with a fixed ±1 % wiggle. */
export function samples(center: number, n = 20): number[] {
  return Array.from({ length: n }, (_, i) => center * (1 + 0.01 * Math.sin(i * 1.7)));
}

export function resultSet(commit: string, benchmarks: Record<string, number>): ResultSet {
  return {
    schema: 'perf-gate/results@1',
    commit,
    ref: 'refs/heads/main',
    created: '2026-11-21T12:00:00Z',
    benchmarks: Object.entries(benchmarks).map(([id, center]) => ({
      id,
      status: 'ok',
      metrics: { time: { unit: 's', direction: 'lower', samples: samples(center) } },
    })),
  };
}
