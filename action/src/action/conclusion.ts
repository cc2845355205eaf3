/**
 * The step's exit status and the check run's conclusion, from the verdict and
 * the policies the workflow chose: `fail-on` (what fails the step) and
 * `inconclusive` (what a row the statistics could not decide does to the check).
 */
import { checkConclusionOf, type CheckConclusion, type CheckPolicy, type GateReport } from '../pipeline/index.js';
import type { Settings } from './settings.js';

type Policy = Pick<Settings, 'failOn' | 'inconclusive'>;

/** Does the step fail, given the verdict, `fail-on` and `inconclusive`? */
export function stepFails(report: GateReport, settings: Policy): boolean {
  if (settings.failOn === 'never') return false;
  if (report.verdict === 'fail') return true;
  // An inconclusive row could hide a regression the run was too noisy to see; a strict project may refuse to merge on it.
  if (settings.inconclusive === 'fail' && report.counts.inconclusive > 0) return true;
  if (settings.failOn === 'warn') {
    return report.rows.some((r) => r.status === 'regressed' || r.status === 'suspected' || r.budget?.result === 'fail') || report.counts.budgetWarned > 0;
  }
  return false;
}

/** The check policy of the run's settings: a two-stage report mode's pass is self-reported. */
export function checkPolicyOf(settings: Policy & Pick<Settings, 'mode'>): CheckPolicy {
  return { failOn: settings.failOn, inconclusive: settings.inconclusive, selfReported: settings.mode === 'report' };
}

/** The check run's conclusion for a measured report (gate/check-policy.ts decides). */
export function checkConclusion(report: GateReport, settings: Policy & Pick<Settings, 'mode'>): CheckConclusion {
  return checkConclusionOf({ verdict: report.verdict, inconclusive: report.counts.inconclusive }, checkPolicyOf(settings));
}
