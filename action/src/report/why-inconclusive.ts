import type { VerdictRow } from '../gate/types.js';
import { reasonText } from './reason-text.js';

/**
 * Why rows are `inconclusive`, in words, for the terminal and the PR comment:
 * an inconclusive row is a question the user has to answer (more samples,
 * interleaved runs, a wider tolerance), so it must say what would decide it.
 * The first `max` rows; the JSON report has every row's reason.
 */
export interface WhyInconclusive {
  lines: { benchmark: string; metric: string; reason: string }[];
  /** Inconclusive rows left out. */
  more: number;
}

export const MAX_INCONCLUSIVE_REASONS = 5;

export function whyInconclusive(rows: readonly VerdictRow[], max = MAX_INCONCLUSIVE_REASONS): WhyInconclusive {
  const open = rows.filter((r) => r.status === 'inconclusive');
  return {
    lines: open.slice(0, max).map((r) => ({ benchmark: r.benchmark, metric: r.metric, reason: reasonText(r.reason) })),
    more: Math.max(0, open.length - max),
  };
}
