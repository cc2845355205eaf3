import { logRatio } from './scale.js';
import type { StrategyResult } from './strategy.js';

/**
 * One value per side, or on one side (wrk's totals, one JUnit duration): no spread is known,
 * so no test is possible and the tolerance alone decides, flagged
 * `single-sample` so the report says the verdict rests on one run each.
 */
export function compareSingleValue(baseline: number, current: number): StrategyResult {
  return {
    method: { id: 'single-value' },
    shift: logRatio(baseline, current),
    interval: null,
    pRaw: null,
    flags: ['single-sample'],
    minimumNeeded: null,
    samplesNeeded: null,
  };
}
