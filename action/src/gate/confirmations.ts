import { rowKey } from '../model/index.js';
import type { GateReport } from './types.js';

/**
 * Adds the confirmation flags of an interleaved A/B run to the gate's rows:
 * rows that looked regressed were re-measured in fresh rounds, and their
 * statuses are already decided on those rounds; the flag says which.
 */
export function withConfirmations(report: GateReport, confirmations: ReadonlyMap<string, 'confirmed' | 'not-confirmed'>): GateReport {
  if (confirmations.size === 0) return report;
  return {
    ...report,
    rows: report.rows.map((r) => {
      const c = confirmations.get(rowKey(r.benchmark, r.metric));
      return c && !r.flags.includes(c) ? { ...r, flags: [...r.flags, c] } : r;
    }),
  };
}
