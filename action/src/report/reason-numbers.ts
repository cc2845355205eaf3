/**
 * Numbers inside reason sentences (reason-text.ts). The table columns have
 * their own formatting (format.ts); these few helpers only keep the
 * one-sentence reasons readable and stable.
 */

/** A fraction as a percentage: 0.0512 → "5.1%", 0.05 → "5%". */
export function pct(fraction: number): string {
  if (!Number.isFinite(fraction)) return fraction > 0 ? '+∞%' : '−∞%';
  const v = fraction * 100;
  const digits = Math.abs(v) >= 10 || Number.isInteger(v) ? 0 : 1;
  return `${v.toFixed(digits).replace(/\.0$/, '')}%`;
}

/** A signed percentage: +5.1%, −3%. */
export function signedPct(fraction: number): string {
  if (!Number.isFinite(fraction)) return pct(fraction);
  const s = pct(Math.abs(fraction));
  return fraction > 0 ? `+${s}` : fraction < 0 ? `−${s}` : s;
}

/** A p-value with two significant digits, or "< 0.0001". */
export function pValue(p: number): string {
  if (p < 1e-4) return '< 0.0001';
  return `= ${Number(p.toPrecision(2))}`;
}
