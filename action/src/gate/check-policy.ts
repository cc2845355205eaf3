/**
 * What fails, as one rule next to the verdict: the check run's conclusion
 * from a verdict, the count of rows the statistics could not decide, and the
 * policy the workflow chose. The measured run and the command job's
 * re-decision after an acceptance both use it, so an acceptance can never
 * post a conclusion the run itself would not have posted.
 */

/** What fails the step: a failing verdict, also suspected rows, also warnings, or nothing. */
export const FAIL_ON = ['fail', 'suspected', 'warn', 'never'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** What an inconclusive row does to the check: nothing, a neutral check run, or a failure. */
export const INCONCLUSIVE = ['pass', 'neutral', 'fail'] as const;
export type InconclusivePolicy = (typeof INCONCLUSIVE)[number];

export interface CheckPolicy {
  failOn: FailOn;
  inconclusive: InconclusivePolicy;
  /**
   * The numbers were measured by the pull request's own workflow (the
   * two-stage report mode): a pass is posted `neutral`, to mark the result as
   * self-reported. GitHub counts a neutral check as passing a required check,
   * so this marks; it does not block.
   */
  selfReported: boolean;
}

export type CheckConclusion = 'success' | 'failure' | 'neutral';

/** The check run's conclusion for a verdict with `inconclusive` undecided rows. */
export function checkConclusionOf(decided: { verdict: 'pass' | 'fail'; inconclusive: number }, policy: CheckPolicy): CheckConclusion {
  const inconclusive = decided.inconclusive > 0 ? policy.inconclusive : 'pass';
  if (decided.verdict === 'fail' || inconclusive === 'fail') return policy.failOn === 'never' ? 'neutral' : 'failure';
  if (policy.selfReported || inconclusive === 'neutral') return 'neutral';
  return 'success';
}

/** What a step's policy looks at in a decided report. */
export interface DecidedReport {
  verdict: 'pass' | 'fail';
  rows: readonly { status: string; budget?: { result: string } | null }[];
  counts: { inconclusive: number; budgetWarned: number };
}

/** Does the step fail (exit 1), given the verdict, `fail-on` and `inconclusive`? */
export function stepFails(report: DecidedReport, policy: Pick<CheckPolicy, 'failOn' | 'inconclusive'>): boolean {
  if (policy.failOn === 'never') return false;
  if (report.verdict === 'fail') return true;
  // An inconclusive row could hide a regression the run was too noisy to see; a strict project may refuse to merge on it.
  if (policy.inconclusive === 'fail' && report.counts.inconclusive > 0) return true;
  if (policy.failOn === 'warn') {
    return report.rows.some((r) => r.status === 'regressed' || r.status === 'suspected' || r.budget?.result === 'fail') || report.counts.budgetWarned > 0;
  }
  return false;
}

/** The policy of a run that chose none: the verdict decides, an inconclusive row passes. */
export const DEFAULT_CHECK_POLICY: CheckPolicy = { failOn: 'fail', inconclusive: 'pass', selfReported: false };
