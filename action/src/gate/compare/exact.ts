import { logRatio } from './scale.js';
import type { StrategyResult } from './strategy.js';

/**
 * Deterministic counts (instructions, allocations, syscalls): the same code
 * gives the same count, so any difference is real and no test is made; the
 * tolerance decides directly. Flagged `exact`. With several samples the
 * median is compared, so one odd run cannot decide.
 */
export function compareExact(baseline: number, current: number): StrategyResult {
  return {
    method: { id: 'exact' },
    shift: logRatio(baseline, current),
    interval: null,
    pRaw: null,
    flags: ['exact'],
    minimumNeeded: null,
    samplesNeeded: null,
  };
}
