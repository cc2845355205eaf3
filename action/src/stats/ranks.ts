/**
 * Mid-ranks of a pooled sample, the shared first step of every rank test here
 * (Mann–Whitney, Wilcoxon signed-rank, the dispersion test). Tied values get
 * the mean of the ranks they span, and each tie group's size is returned for
 * the variance correction Σ(t³ − t).
 */

export interface Ranking {
  /** ranks[i] is the mid-rank (1-based) of values[i]. */
  ranks: Float64Array;
  /** Σ (t³ − t) over groups of t tied values: 0 without ties. */
  tieTerm: number;
  /** True when any two values are equal. */
  hasTies: boolean;
}

export function rank(values: readonly number[] | Float64Array): Ranking {
  const n = values.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => (values[a] as number) - (values[b] as number));
  const ranks = new Float64Array(n);
  let tieTerm = 0;
  let i = 0;
  while (i < n) {
    let j = i + 1;
    const v = values[order[i] as number] as number;
    while (j < n && values[order[j] as number] === v) j++;
    const t = j - i;
    const r = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) ranks[order[k] as number] = r;
    if (t > 1) tieTerm += t * t * t - t;
    i = j;
  }
  return { ranks, tieTerm, hasTies: tieTerm > 0 };
}
