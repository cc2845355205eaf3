/**
 * One benchmark × metric row: the key that names it and the statuses it can
 * have. The gate decides a row's status; the A/B runner asks for statuses
 * (through an injected classifier) to know which rows are still open, and
 * both key rows the same way.
 */

/**
 * The status of one benchmark × metric row. `suspected`: the screen against
 * the stored history pointed at a slowdown that could not be measured again
 * interleaved (gate/two-stage.ts says why). `accepted`: a regression that a
 * person who may merge accepted on the record, with a reason (gate/acceptance.ts).
 */
export type RowStatus = 'regressed' | 'improved' | 'unchanged' | 'inconclusive' | 'suspected' | 'accepted' | 'new' | 'missing' | 'failed';

/** Key of one benchmark × metric in A/B classifier answers and confirmations. */
export function rowKey(benchmark: string, metric: string): string {
  return `${benchmark}\u0000${metric}`;
}
