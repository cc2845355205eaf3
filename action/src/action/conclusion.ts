/**
 * The step's exit status and the check run's conclusion, from the verdict and
 * the policies the workflow chose: `fail-on` (what fails the step) and
 * `inconclusive` (what a row the statistics could not decide does to the check).
 */
import type { GateReport } from '../pipeline/index.js';
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

/**
 * The check run's conclusion. In the two-stage report mode the numbers were
 * measured by the pull request's own workflow (a fork's, possibly edited), so
 * a pass is self-reported: `neutral`, never `success`, so that it cannot
 * satisfy a required check. A failure is still reported as one. A pass with
 * inconclusive rows is `neutral` or a failure when `inconclusive` says so.
 */
export function checkConclusion(report: GateReport, settings: Policy & Pick<Settings, 'mode'>): 'success' | 'failure' | 'neutral' {
  const inconclusive = report.counts.inconclusive > 0 ? settings.inconclusive : 'pass';
  if (report.verdict === 'fail' || inconclusive === 'fail') return settings.failOn === 'never' ? 'neutral' : 'failure';
  if (settings.mode === 'report' || inconclusive === 'neutral') return 'neutral';
  return 'success';
}
