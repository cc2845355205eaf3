/**
 * One benchmark × metric row: the key that names it and the statuses it can
 * have. The gate decides a row's status; the A/B runner asks for statuses
 * (through an injected classifier) to know which rows are still open, and
 * both key rows the same way.
 */

/** The status of one benchmark × metric row. */
export type RowStatus = 'regressed' | 'improved' | 'unchanged' | 'inconclusive' | 'new' | 'missing' | 'failed';

/** Key of one benchmark × metric in A/B classifier answers and confirmations. */
export function rowKey(benchmark: string, metric: string): string {
  return `${benchmark}\u0000${metric}`;
}
