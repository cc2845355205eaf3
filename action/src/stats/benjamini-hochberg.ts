/**
 * Benjamini–Hochberg adjusted p-values (false discovery rate control across
 * the comparisons of one suite): adjᵢ = min over j ≥ i of m·p₍ⱼ₎/j, capped at
 * 1, in input order. A row is a discovery at FDR q when adj < q. Entries that
 * are not finite numbers (no test was made) are passed through as NaN and do
 * not count in m. Assumes independent or positively dependent tests (true for
 * benchmarks sharing a machine's drift). Matches
 * scipy.stats.false_discovery_control(method="bh").
 * Reference: Benjamini & Hochberg (1995), JRSS B 57:289.
 */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const idx: number[] = [];
  for (let i = 0; i < pValues.length; i++) if (Number.isFinite(pValues[i])) idx.push(i);
  const out = pValues.map(() => NaN);
  const m = idx.length;
  idx.sort((a, b) => (pValues[a] as number) - (pValues[b] as number));
  let running = 1;
  for (let r = m - 1; r >= 0; r--) {
    const i = idx[r] as number;
    running = Math.min(running, ((pValues[i] as number) * m) / (r + 1));
    out[i] = Math.min(1, running);
  }
  return out;
}
