/**
 * The action's check policy: `fail-on` (what fails the step) and
 * `inconclusive` (what a row the statistics could not decide does to the
 * check), from its settings. The rule itself is gate/check-policy.ts's, which
 * the run (pipeline/run.ts) and the command job's re-decision both apply.
 */
import type { CheckPolicy } from '../pipeline/index.js';
import type { Settings } from './settings.js';

type Policy = Pick<Settings, 'failOn' | 'inconclusive'>;

/** The check policy of the run's settings: a two-stage report mode's pass is self-reported. */
export function checkPolicyOf(settings: Policy & Pick<Settings, 'mode'>): CheckPolicy {
  return { failOn: settings.failOn, inconclusive: settings.inconclusive, selfReported: settings.mode === 'report' };
}
