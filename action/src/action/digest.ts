import { createHash } from 'node:crypto';
import type { GateReport } from '../pipeline/index.js';

/**
 * A short fingerprint of what a report shows a reader: every row's benchmark,
 * metric, status and budget result, in a stable order. Two runs with the same
 * fingerprint tell the reader nothing new (`comment: on-change` skips them);
 * the numbers themselves are left out because they move on every run.
 */
export function reportDigest(report: GateReport): string {
  const lines = report.rows.map((r) => JSON.stringify([r.benchmark, r.metric, r.status, r.budget?.result ?? null, r.failsGate])).sort();
  return createHash('sha256')
    .update(`${report.verdict}\n${lines.join('\n')}`)
    .digest('hex')
    .slice(0, 16);
}
